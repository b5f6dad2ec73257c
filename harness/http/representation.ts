/** The two representations of every business call (spec 4.13, 4.14). */
export type Representation = 'json' | 'xml';

export const REPRESENTATIONS: readonly Representation[] = ['json', 'xml'];

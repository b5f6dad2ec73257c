import { SERVICE_CLAUSES } from './s01-service.ts';
import { RESOURCE_CLAUSES } from './s02-resources.ts';
import { STATE_CLAUSES } from './s03-states.ts';
import { ENDPOINT_CLAUSES } from './s04-endpoints.ts';
import { AUTHENTICATION_CLAUSES } from './s05-authentication.ts';
import { EVENT_CLAUSES } from './s06-events.ts';
import { ERROR_CLAUSES } from './s07-errors.ts';
import { LIMIT_CLAUSES } from './s08-limits.ts';
import { VERSIONING_CLAUSES } from './s09-versioning.ts';
import type { Clause } from './types.ts';

export { compareClauseIds } from './ids.ts';
export { NON_SERVICE_STATEMENTS, OPEN_POINTS } from './open-points.ts';
export { SECTIONS } from './sections.ts';
export type { Clause } from './types.ts';

/** Every normative statement of the spec, in spec (and natural id) order. */
export const CLAUSES: readonly Clause[] = [
  ...SERVICE_CLAUSES,
  ...RESOURCE_CLAUSES,
  ...STATE_CLAUSES,
  ...ENDPOINT_CLAUSES,
  ...AUTHENTICATION_CLAUSES,
  ...EVENT_CLAUSES,
  ...ERROR_CLAUSES,
  ...LIMIT_CLAUSES,
  ...VERSIONING_CLAUSES,
];

const byId = new Map(CLAUSES.map((clause) => [clause.id, clause]));

export function clauseById(id: string): Clause | undefined {
  return byId.get(id);
}

/** Clauses of a section and its subsections: '4' gives 4.x, '4.1' gives only 4.1 (not 4.10–4.14). */
export function clausesInSection(sectionPrefix: string): Clause[] {
  return CLAUSES.filter((clause) => clause.section === sectionPrefix || clause.section.startsWith(`${sectionPrefix}.`));
}

/** SIPP (ACRISS) letters per position (spec 1.6 and 2.2), for judging the codes a target lists. */

export const ACRISS_LETTERS = ['MNEHCDIJSRFGPULWOX', 'BCDWVLSTFJXPQZEMRHYNGK', 'MNCABD', 'RNDQHIECLSABMFVZUX'] as const;
/** Third letter: manual transmissions. */
export const SIPP_MANUAL = 'MNC';
/** Fourth letter: with air conditioning. */
export const SIPP_WITH_AIR = 'RDHELAMVU';

/** The positions (1 to 4) of a four-letter code whose letter is not an ACRISS letter of that position. */
export function invalidSippPositions(code: string): number[] {
  return ACRISS_LETTERS.flatMap((letters, i) => (letters.includes(code.charAt(i)) ? [] : [i + 1]));
}

import type { Clause } from './types.ts';

/** A clause as written in the section files: its section comes from the group, its level defaults to MUST. */
export type ClauseEntry = Omit<Clause, 'section' | 'level'> & { level?: Clause['level'] };

/** Attaches the section to every entry of one spec section, so each file reads as the spec does. */
export function inSection(section: string, entries: readonly ClauseEntry[]): Clause[] {
  return entries.map(({ level = 'MUST', ...entry }) => ({ ...entry, section, level }));
}

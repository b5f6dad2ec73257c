import { CLAUSES } from '../../contract/clauses/index.ts';
import { PROFILES } from '../../contract/vocabulary.ts';
import { isSelected } from '../check/applicability.ts';
import type { ReportClause } from './model.ts';

const PROFILE_ORDER: readonly string[] = PROFILES;
const MAX_ITEMS = 4;

/** "4.7, 4.8" from clause sections, in first-seen order. */
function sectionList(sections: Iterable<string>): string {
  return [...new Set(sections)].join(', ');
}

/**
 * Why nothing was judged, in a few words per cause and section: "4.7 needs profile book", "4.3: needs credentials
 * for partnerB in the target config", "no check judges 9.4 yet". Reads the selected clauses' not-applicable reasons.
 */
export function notJudgedSummary(clauses: readonly ReportClause[], only: readonly string[], profile: string): string {
  const clauseCatalogue = new Map(CLAUSES.map((clause) => [clause.id, clause]));
  const selected = clauses.filter((clause) => {
    const entry = clauseCatalogue.get(clause.id);
    return entry !== undefined && isSelected(entry, only);
  });
  const sectionOf = (clause: ReportClause) => clauseCatalogue.get(clause.id)?.section ?? clause.id;
  // Per section, the lowest profile above the run's that would let one of its checks run.
  const needsProfile = new Map<string, string>();
  const otherReasons = new Map<string, string[]>();
  const errored: string[] = [];
  const unchecked: string[] = [];
  for (const clause of selected) {
    if (clause.checks.length === 0) {
      unchecked.push(clause.id);
      continue;
    }
    for (const check of clause.checks) {
      const reason = check.notApplicable;
      if (check.outcome === 'error') errored.push(sectionOf(clause));
      if (!reason) continue;
      const wanted = reason.kind === 'profile' ? /needs profile (\w+)/.exec(reason.detail)?.[1] : undefined;
      if (wanted) {
        const section = sectionOf(clause);
        const known = needsProfile.get(section);
        if (known === undefined || PROFILE_ORDER.indexOf(wanted) < PROFILE_ORDER.indexOf(known)) {
          needsProfile.set(section, wanted);
        }
        continue;
      }
      const detail = reason.kind === 'blocked' ? `blocked by ${reason.clauseId}` : (reason.detail.split(';')[0] ?? '');
      const sections = otherReasons.get(detail) ?? [];
      sections.push(sectionOf(clause));
      otherReasons.set(detail, sections);
    }
  }
  const byProfile = new Map<string, string[]>();
  for (const [section, wanted] of needsProfile) byProfile.set(wanted, [...(byProfile.get(wanted) ?? []), section]);
  const items: string[] = [];
  for (const [wanted, sections] of byProfile) {
    items.push(`${sectionList(sections)} ${sections.length > 1 ? 'need' : 'needs'} profile ${wanted}`);
  }
  for (const [detail, sections] of otherReasons) items.push(`${sectionList(sections)}: ${detail}`);
  if (errored.length > 0) items.push(`${sectionList(errored)}: every check that ran errored (see the failures)`);
  if (unchecked.length > 0 && items.length === 0) items.push(`no check judges ${unchecked.slice(0, 6).join(', ')} yet`);
  if (items.length === 0) return 'no check was selected';
  const shown = items.slice(0, MAX_ITEMS).join('; ');
  const suffix = byProfile.size > 0 ? ` (the run's profile is ${profile})` : '';
  return `${shown}${items.length > MAX_ITEMS ? `; and ${items.length - MAX_ITEMS} more` : ''}${suffix}`;
}

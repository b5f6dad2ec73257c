import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { type Clause, clauseById, clausesInSection } from '../../contract/clauses/index.ts';
import { tsFilesUnder } from '../../contract/test-support/source-files.ts';

/**
 * `npm run where -- <clause>`: everything the project holds about one clause of the clause catalogue, found from its
 * id alone: the spec's sentence, the checks that judge it, the places that file observations under it from other
 * checks, the faults and benign variants of the reference that prove its verdicts, and its rows in
 * docs/ambiguities.md. Read from the sources as text (the suite is never loaded), so it answers in a second.
 */

export interface Place {
  /** Relative to the project root. */
  file: string;
  line: number;
  text: string;
}

export interface DeclaredCheck extends Place {
  /** The check's name as written in its options (a template literal as it is written). */
  name: string;
}

export interface RegistryEntry {
  name: string;
  kind: 'fault' | 'benign';
  clause: string;
  description: string;
}

export interface AmbiguityRow {
  id: string;
  /** The row's spec column as written. */
  spec: string;
  point: string;
  reading: string;
  /** The row names the clause itself, or only a section that holds it. */
  match: 'clause' | 'section';
}

export interface WhereAnswer {
  clause: Clause;
  checks: DeclaredCheck[];
  filedBy: Place[];
  faults: RegistryEntry[];
  variants: RegistryEntry[];
  ambiguities: AmbiguityRow[];
}

const lineOf = (source: string, index: number) => source.slice(0, index).split('\n').length;

/** `check('<id>')(…, name: '…')`: each check of the clause, with the name its options give. */
export function checksIn(source: string, file: string, clauseId: string): DeclaredCheck[] {
  const calls = [...source.matchAll(/\bcheck\(\s*'([^']+)'\s*\)/g)];
  return calls.flatMap((call, index) => {
    if (call[1] !== clauseId) return [];
    const start = call.index ?? 0;
    const head = source.slice(start, Math.min(calls[index + 1]?.index ?? source.length, start + 1_500));
    const options = head.split(/\basync\b/)[0] ?? head;
    const written = /\bname:\s*(?:'((?:[^'\\]|\\.)*)'|`((?:[^`\\]|\\.)*)`)/.exec(options);
    const name = written?.[1] ?? written?.[2] ?? '(the clause title)';
    const line = lineOf(source, start);
    return [{ file, line, name, text: source.split('\n')[line - 1]?.trim() ?? '' }];
  });
}

/** Lines that name the clause id as a string literal outside a check declaration: observations filed under it. */
export function filingsIn(source: string, file: string, clauseId: string): Place[] {
  const literal = new RegExp(`(['"\`])${clauseId.replace(/\./g, '\\.')}\\1`);
  return source.split('\n').flatMap((text, i) => {
    if (!literal.test(text) || /\bcheck\(\s*'/.test(text)) return [];
    return [{ file, line: i + 1, text: text.trim() }];
  });
}

/** The cells of a Markdown table row, or undefined for a line that is not one (or is its header rule). */
function cells(line: string): string[] | undefined {
  if (!line.startsWith('|') || /^\|\s*-/.test(line)) return undefined;
  return line
    .slice(1, line.endsWith('|') ? -1 : undefined)
    .split(/(?<!\\)\|/)
    .map((cell) => cell.trim());
}

/**
 * docs/ambiguities.md rows whose spec column names the clause, or its own section (`4.8` for 4.8.2; not `4`, which
 * would list every row of the endpoint table). Rows are `| id | spec | point | suite accepts | reference does |`.
 */
export function ambiguityRows(markdown: string, clause: Clause): AmbiguityRow[] {
  const rows: AmbiguityRow[] = [];
  for (const line of markdown.split('\n')) {
    const [id, spec, point, reading] = cells(line) ?? [];
    if (!id || !spec || id === '#' || point === undefined) continue;
    const tokens = spec.split(/[\s,;]+/).map((t) => t.replace(/[^0-9a-z.]/gi, ''));
    const exact = tokens.includes(clause.id);
    const section = tokens.includes(clause.section);
    if (exact || section) {
      rows.push({ id, spec, point, reading: reading ?? '', match: exact ? 'clause' : 'section' });
    }
  }
  return rows;
}

/** Where the sources are read from: the checks (suites), and what files observations (suites, generators, harness). */
const CHECK_ROOMS = ['suites'];
const FILING_ROOMS = ['suites', 'generators', 'harness/check', 'contract/clause-refs.ts'];

function sourcesOf(root: string, rooms: readonly string[]): { file: string; source: string }[] {
  return rooms.flatMap((room) => {
    const path = join(root, room);
    const files = room.endsWith('.ts')
      ? [path]
      : tsFilesUnder(path).filter((f) => !/\.test\.ts$/.test(f) || room === 'suites');
    return files.map((file) => ({ file: relative(root, file), source: readFileSync(file, 'utf8') }));
  });
}

export function where(root: string, clauseId: string, registry: readonly RegistryEntry[]): WhereAnswer | undefined {
  const clause = clauseById(clauseId);
  if (!clause) return undefined;
  const checks = sourcesOf(root, CHECK_ROOMS).flatMap(({ file, source }) => checksIn(source, file, clause.id));
  const filedBy = sourcesOf(root, FILING_ROOMS).flatMap(({ file, source }) => filingsIn(source, file, clause.id));
  const own = registry.filter((entry) => entry.clause === clause.id);
  const ambiguities = ambiguityRows(readFileSync(join(root, 'docs', 'ambiguities.md'), 'utf8'), clause);
  return {
    clause,
    checks,
    filedBy,
    faults: own.filter((entry) => entry.kind === 'fault'),
    variants: own.filter((entry) => entry.kind === 'benign'),
    ambiguities,
  };
}

/** The clauses of a section id that is not a clause id itself (`4.8`), for an answer that lists them. */
export function clausesOf(sectionId: string): Clause[] {
  return clausesInSection(sectionId);
}

const cut = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

/** The answer as a person reads it in a terminal. */
export function formatWhere(answer: WhereAnswer): string {
  const { clause } = answer;
  const out = [
    `${clause.id}  ${clause.title}  (${clause.level}, section ${clause.section}, profile ${clause.minProfile}, ${clause.verification})`,
    `  spec: "${clause.text}"`,
    '',
    `Checks of ${clause.id} (${answer.checks.length}):`,
    ...(answer.checks.length === 0
      ? ['  none']
      : answer.checks.map((c) => `  ${c.file}:${c.line}  ${cut(c.name, 110)}`)),
    '',
    `Filed under ${clause.id} from elsewhere (${answer.filedBy.length}):`,
    ...(answer.filedBy.length === 0
      ? ['  none']
      : answer.filedBy.map((p) => `  ${p.file}:${p.line}  ${cut(p.text, 110)}`)),
    '',
    `Faults that break it (${answer.faults.length}):`,
    ...(answer.faults.length === 0 ? ['  none'] : answer.faults.map((f) => `  ${f.name}: ${cut(f.description, 140)}`)),
    '',
    `Benign variants that use its freedom (${answer.variants.length}):`,
    ...(answer.variants.length === 0
      ? ['  none']
      : answer.variants.map((f) => `  ${f.name}: ${cut(f.description, 140)}`)),
    '',
    `docs/ambiguities.md (${answer.ambiguities.length}):`,
    ...(answer.ambiguities.length === 0
      ? ['  none']
      : answer.ambiguities.map(
          (a) =>
            `  ${a.id} (${a.match === 'clause' ? a.spec : `section ${a.spec}`}): ${cut(a.point, 120)}\n      reading: ${cut(a.reading, 160)}`,
        )),
  ];
  return `${out.join('\n')}\n`;
}

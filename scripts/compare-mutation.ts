/**
 * Compares two complete mutation matrix runs row by row, from their Markdown (`mutation.md` of a run's report
 * directory, or a dated file of docs/measurements/ that holds its tables): every fault caught or not on its clause,
 * with the same other failed clauses; every benign variant passed or not, with the same false failures. Prints each
 * row that differs and exits 1 when one does; rows only one run has are listed too.
 * Usage: `npx tsx scripts/compare-mutation.ts <before.md> <after.md>`.
 */
import { readFileSync } from 'node:fs';

/** `| name | clause | yes | a, b | 0 |` rows of the fault and benign tables, by name: clause, verdict, others. */
function rowsOf(path: string): Map<string, string> {
  const rows = new Map<string, string>();
  let table: 'fault' | 'variant' | undefined;
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    if (line.startsWith('| fault |')) table = 'fault';
    else if (line.startsWith('| variant |')) table = 'variant';
    else if (!line.startsWith('|')) table = undefined;
    if (!table || line.startsWith('| fault |') || line.startsWith('| variant |') || line.startsWith('|---')) continue;
    const [name, clause, verdict, others] = line
      .split('|')
      .slice(1, -1)
      .map((cell) => cell.trim());
    if (name) rows.set(`${table} ${name}`, `${clause} · ${verdict} · ${others}`);
  }
  return rows;
}

const [before, after] = process.argv.slice(2);
if (!before || !after) {
  process.stderr.write('usage: npx tsx scripts/compare-mutation.ts <before.md> <after.md>\n');
  process.exit(2);
}
const a = rowsOf(before);
const b = rowsOf(after);
const differing = [...new Set([...a.keys(), ...b.keys()])].filter((key) => a.get(key) !== b.get(key));
for (const key of differing) {
  process.stdout.write(`${key}\n  before: ${a.get(key) ?? '(no row)'}\n  after:  ${b.get(key) ?? '(no row)'}\n`);
}
process.stdout.write(`${a.size} and ${b.size} rows; ${differing.length} differ\n`);
process.exitCode = differing.length > 0 ? 1 : 0;

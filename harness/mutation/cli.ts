#!/usr/bin/env -S node --import tsx
import { randomInt } from 'node:crypto';
// `npm run mutation`: certifies the reference once per named fault and benign variant.
import { readFileSync } from 'node:fs';
import { Command } from 'commander';
import { listReferenceFaults } from '../target/embedded.ts';
import type { MutationThresholds } from './matrix.ts';
import { formatMutationSummary, mergeMutationIntoReport, readEmbeddedReport } from './render.ts';
import { runMutation } from './run.ts';
import { SUBSETS } from './subsets.ts';

const THRESHOLDS = JSON.parse(
  readFileSync(new URL('./thresholds.json', import.meta.url), 'utf8'),
) as MutationThresholds;

const program = new Command('partner-api-mutation')
  .description(
    'Certify the reference implementation once per named fault and benign variant and report the matrix.\nExit code: 0 thresholds met, 1 not met, 2 harness error or stopped part way (what finished is reported, marked interrupted).',
  )
  .option('--faults <names>', 'only these faults or variants (comma-separated)')
  .option('--subset <name>', `a named subset: ${Object.keys(SUBSETS).join(', ')}`)
  .option('--kind <kind>', 'only faults or only benign variants (fault | benign)')
  .option('--jobs <n>', 'certifications side by side', '1')
  .option('--seed <n>', 'seed of every certification (default: random)')
  .option('--runs <n>', 'fast-check runs per property')
  .option('--own-clause', "certify each fault or variant with its own clause's checks only (quick; cascades unseen)")
  .option('--only <ids>', 'development: certify only these sections or clauses (cascades elsewhere go unseen)')
  .option(
    '--rate-limit <n>',
    "business calls a minute for each ordinary client of the reference (default: the runner's, raised for speed; a real service limits near 600)",
  )
  .option('--stability <n>', 'also certify the plain reference n times with other seeds and compare verdicts')
  .option('--busy', 'keep one core busy during the stability runs')
  .option('--no-matrix', 'leave out the faults and variants: only the baseline and the --stability runs')
  .option(
    '--report-dir <dir>',
    'where mutation.json, mutation.md and mutation.html go (and reports/<fault>.json, each run’s report)',
    'reports',
  )
  .option('--merge-report <dir>', 'also add the matrix to the certification report of the embedded reference in <dir>')
  .parse();

const flags = program.opts<{
  faults?: string;
  subset?: string;
  kind?: string;
  jobs: string;
  seed?: string;
  runs?: string;
  only?: string;
  rateLimit?: string;
  ownClause?: boolean;
  stability?: string;
  busy?: boolean;
  matrix: boolean;
  reportDir: string;
  mergeReport?: string;
}>();

function fail(message: string): never {
  process.stderr.write(`mutation: ${message}\n`);
  process.exit(2);
}

const names = flags.faults
  ?.split(',')
  .map((n) => n.trim())
  .filter(Boolean);
if (flags.subset && !SUBSETS[flags.subset]) fail(`no subset ${flags.subset} (${Object.keys(SUBSETS).join(', ')})`);
const subset = flags.subset ? new Set(SUBSETS[flags.subset]) : undefined;
const wanted = names ? new Set(names) : undefined;
if (flags.kind && flags.kind !== 'fault' && flags.kind !== 'benign') fail('--kind is fault or benign');
if (flags.mergeReport) {
  try {
    readEmbeddedReport(flags.mergeReport);
  } catch (error) {
    fail((error as Error).message);
  }
}
if (!flags.matrix && flags.stability === undefined) fail('--no-matrix needs --stability <n>');
// A stop (Ctrl-C, or a CI job's SIGTERM) ends the certifications under way and starts no more; what finished before
// it is still reported, marked interrupted, and the exit code is 2 (the run could not judge all it was asked).
if (wanted) {
  const known = new Set(listReferenceFaults().map((f) => f.name));
  const unknown = [...wanted].filter((n) => !known.has(n));
  if (unknown.length > 0) fail(`unknown fault(s): ${unknown.join(', ')}`);
}
function rateLimitOf(text: string): number {
  const n = Number(text);
  if (!Number.isInteger(n) || n < 1) fail(`--rate-limit: expected a positive integer, got "${text}"`);
  return n;
}

const controller = new AbortController();
process.on('SIGINT', () => controller.abort());
process.on('SIGTERM', () => controller.abort());

try {
  const report = await runMutation({
    select: (f) =>
      (!wanted || wanted.has(f.name)) && (!subset || subset.has(f.name)) && (!flags.kind || f.kind === flags.kind),
    seed: flags.seed !== undefined ? Number(flags.seed) : randomInt(0, 2_147_483_647),
    ...(flags.runs !== undefined ? { runs: Number(flags.runs) } : {}),
    ...(flags.only !== undefined ? { only: flags.only.split(',').map((s) => s.trim()) } : {}),
    ...(flags.rateLimit !== undefined ? { rateLimitPerMinute: rateLimitOf(flags.rateLimit) } : {}),
    ownClause: flags.ownClause ?? false,
    jobs: Math.max(1, Number(flags.jobs) || 1),
    thresholds: THRESHOLDS,
    ...(flags.stability !== undefined ? { stability: Number(flags.stability) } : {}),
    busy: flags.busy ?? false,
    matrix: flags.matrix,
    reportDir: flags.reportDir,
    output: (text) => process.stdout.write(text),
    signal: controller.signal,
  });
  process.stdout.write(formatMutationSummary(report));
  process.stdout.write(
    `Report: ${flags.reportDir}/mutation.json, ${flags.reportDir}/mutation.md, ${flags.reportDir}/mutation.html\n`,
  );
  process.stdout.write(`Each run's report.json: ${flags.reportDir}/reports/<fault>.json\n`);
  if (flags.mergeReport) {
    for (const file of mergeMutationIntoReport(report, flags.mergeReport)) process.stdout.write(`Updated: ${file}\n`);
  }
  process.exitCode = report.interrupted ? 2 : report.breaches.length === 0 ? 0 : 1;
} catch (error) {
  fail((error as Error).message);
}

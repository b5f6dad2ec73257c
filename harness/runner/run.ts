import { randomBytes, randomInt } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { isAbsolute, join, relative } from 'node:path';
import { packageInfo } from '../../contract/package-info.ts';
import { attestRun, parseAttestFlag } from '../attest/attest-flag.ts';
import type { SigningKey } from '../attest/keys.ts';
import { configureRunHttp } from '../check/harness-state.ts';
import type { CheckDeclaration, Profile } from '../check/outcome-and-evidence.ts';
import { DEFAULT_XML_COVERAGE, type XmlCoverage } from '../check/representations.ts';
import { testHooks } from '../hooks/adapter.ts';
import { configureHttp, resetReachability } from '../http/client.ts';
import { isLoopback } from '../http/pacing.ts';
import { withTraffic } from '../http/rate-limits.ts';
import { redactText } from '../http/redact.ts';
import { registerTargetSecrets, SecretRegistry } from '../http/secrets.ts';
import { emptyTraffic } from '../http/traffic.ts';
import { buildReport } from '../report/build.ts';
import type { ReportModel } from '../report/model.ts';
import { ProgressReporter } from '../report/progress.ts';
import { CertificationReporter, type CollectedRun } from '../report/reporter.ts';
import { formatSummary } from '../report/summary.ts';
import { profileRank, type RunSettings } from '../run-settings.ts';
import type { ImageSpec } from '../target/image-options.ts';
import { assertSameTarget, loadBaseline, parseFailOn } from './baseline-file.ts';
import { type CleanupResult, cleanupBookings, describeLeftover } from './cleanup.ts';
import { CertifyError, EXIT } from './errors.ts';
import {
  DEFAULT_REMOTE_MAX_RPS,
  DEFAULT_RUNS,
  DEFAULT_SUITES,
  defaultDate,
  parseDate,
  parseFormats,
  parseMaxRps,
  parseOnly,
  parseProfile,
  parseRuns,
  parseSeed,
  parseTarget,
  parseXmlCoverage,
  REPORT_FORMATS,
  type ReportFormat,
  SEED_MAX,
  type TargetSpec,
  todayUtc,
} from './options.ts';
import { MODULE_EXTENSION, PROJECT_ROOT } from './paths.ts';
import { patientProgress, startPatientClocks } from './patient.ts';
import { type DeclaredCheck, PreflightError, type PreflightResult, preflight } from './preflight.ts';
import { loadReplayPlan, type ReplayPlan } from './replay.ts';
import { type EmbeddedStores, parseEmbeddedStores, type ResolvedTarget, resolveTarget } from './target.ts';
import { loadWaivers, type Waiver } from './waivers.ts';
import { clearReports, prepareReportDir, writeReports } from './write-reports.ts';

/** Options of one certification run; the CLI's flags, already split into values (strings are validated here too). */
export interface CertifyOptions {
  /** 'embedded' (default without --config) or the target's base URL. */
  target?: string;
  /** Target config file (required for a URL target). */
  config?: string;
  /** Default: full for embedded, catalog for a URL target (reads only). */
  profile?: Profile | string;
  /** Let book/full checks create reservations on a URL target (embedded: always). */
  allowBookings?: boolean;
  /** Clause ids or section prefixes. */
  only?: string | readonly string[];
  /** Default: random (printed and recorded in the report). */
  seed?: number | string;
  /** fast-check runs per property. */
  runs?: number | string;
  /** --xml: which checks also run in XML (default mirror; check/representations.ts). */
  xml?: XmlCoverage | string;
  /** Default: all of json, junit, html, md. */
  formats?: string | readonly string[];
  /** Default: reports/ under the current directory. */
  reportDir?: string;
  /** Request ceiling; default: none on loopback, DEFAULT_REMOTE_MAX_RPS elsewhere. */
  maxRps?: number | string | null;
  strict?: boolean;
  /** --expected-failures file (JSON waivers). */
  expectedFailures?: string;
  /** Anchor for generated dates, YYYY-MM-DD; default: 30 days from today (UTC). */
  date?: string;
  /** Re-run one check of an earlier report with its seed and date. */
  replay?: { checkId: string; from: string };
  /** Suite globs relative to the project root (default: suites/*.test.ts). */
  suites?: readonly string[];
  /** Environment for "$ENV" values of the target config (default: process.env). */
  env?: NodeJS.ProcessEnv;
  /** Progress and summary lines (default: none). */
  output?: (text: string) => void;
  /** Warnings (default: the output, prefixed "warning:"). */
  warn?: (message: string) => void;
  /** Aborting (Ctrl-C) cancels the run; the report covers what finished. */
  signal?: AbortSignal;
  /** Judge quote and token expiry by waiting for them (30 minutes, 600 s) when the target has no test hooks. */
  patient?: boolean;
  /** A fuzz campaign instead of the suites (suites/fuzz.campaign.ts): its bounds. */
  fuzz?: { durationMs: number; maxFailures: number; maxRequests?: number };
  /** Today's date for waiver expiry (tests); default: the real date. */
  today?: string;
  /** Show vitest's own output (debugging the harness). */
  verbose?: boolean;
  /**
   * Stores of the embedded reference implementation: a PostgreSQL (or sqlite:) URL instead of a fresh SQLite
   * file, and Redis for its rate-limit buckets (with a key prefix of this run's own).
   */
  embedded?: EmbeddedStores;
  /** --image: a container image started for the run (testcontainers) and removed at its end. */
  image?: ImageSpec;
  /** --baseline: an earlier report.json of the same target; the report says what moved since. */
  baseline?: string;
  /** --fail-on new: only failures that are new since the baseline fail the exit code ('any': every failure). */
  failOn?: string;
  /** Progress as one line redrawn in place (a terminal) or as whole lines (default; CI, pipes). */
  progress?: 'live' | 'plain';
  /** Width of the live progress line. */
  columns?: number;
  /** --attest: the private key (PEM file or env:NAME) that signs certification.intoto.json beside the reports. */
  attest?: string;
}

export interface CertifyResult {
  report: ReportModel;
  /** 0 judged and passed, 1 judged and failed, 2 could not judge (report.verdict.exitCode; README "Exit code"). */
  exitCode: 0 | 1 | 2;
  /** Report files written. */
  files: string[];
  settings: Omit<RunSettings, 'target'>;
  cleanup?: CleanupResult;
}

/** Everything decided before the target is touched (all configuration errors surface here, exit 2). */
interface Plan {
  targetSpec: TargetSpec | undefined;
  config: string | undefined;
  profile: Profile | undefined;
  allowBookings: boolean | undefined;
  only: string[];
  seed: number;
  runs: number;
  xml: XmlCoverage;
  formats: ReportFormat[];
  reportDir: string;
  maxRps: number | null | undefined;
  strict: boolean;
  date: string;
  waivers: Waiver[];
  replay: ReplayPlan | undefined;
  embedded: EmbeddedStores | undefined;
  baseline: { file: string; report: ReportModel } | undefined;
  failOn: 'new' | undefined;
  attest: SigningKey | undefined;
}

function plan(options: CertifyOptions): Plan {
  const replay = options.replay ? loadReplay(options.replay) : undefined;
  const targetText = options.target ?? (replay && !options.config && !options.image ? replayTarget(replay) : undefined);
  const formats = options.formats !== undefined ? parseFormats(options.formats) : [...REPORT_FORMATS];
  return {
    targetSpec: targetText === undefined ? undefined : parseTarget(targetText),
    config: options.config,
    profile: options.profile !== undefined ? parseProfile(String(options.profile)) : replay?.profile,
    // Not taken from a replayed report: booking on a live target needs the flag on every run.
    allowBookings: options.allowBookings,
    only: replay ? [replay.clauseId] : options.only !== undefined ? parseOnly(options.only) : [],
    seed: options.seed !== undefined ? parseSeed(options.seed) : (replay?.seed ?? randomInt(0, SEED_MAX)),
    runs: options.runs !== undefined ? parseRuns(options.runs) : (replay?.runs ?? DEFAULT_RUNS),
    xml: options.xml !== undefined ? parseXmlCoverage(String(options.xml)) : (replay?.xml ?? DEFAULT_XML_COVERAGE),
    formats,
    reportDir: options.reportDir ?? 'reports',
    maxRps: options.maxRps === null ? null : options.maxRps !== undefined ? parseMaxRps(options.maxRps) : undefined,
    strict: options.strict ?? replay?.strict ?? false,
    date: options.date !== undefined ? parseDate('--date', options.date) : (replay?.date ?? defaultDate()),
    waivers: options.expectedFailures !== undefined ? loadWaivers(options.expectedFailures) : [],
    replay,
    embedded: options.embedded ? parseEmbeddedStores(options.embedded) : undefined,
    baseline:
      options.baseline !== undefined ? { file: options.baseline, report: loadBaseline(options.baseline) } : undefined,
    failOn: failOnOf(options),
    attest:
      options.attest !== undefined ? parseAttestFlag(options.attest, formats, options.env ?? process.env) : undefined,
  };
}

function failOnOf(options: CertifyOptions): 'new' | undefined {
  if (options.failOn === undefined) return undefined;
  const failOn = parseFailOn(options.failOn);
  if (failOn === 'new' && options.baseline === undefined) {
    throw new CertifyError('--fail-on new needs --baseline <report.json>: new failures are new since that report');
  }
  return failOn === 'new' ? 'new' : undefined;
}

function loadReplay(replay: { checkId: string; from: string }): ReplayPlan {
  if (!replay.checkId) throw new CertifyError('--replay needs a check id (e.g. "4.2.1/<name>/json")');
  if (!replay.from) throw new CertifyError('--replay needs --from <report.json> (the report the check id comes from)');
  return loadReplayPlan(replay.checkId, replay.from);
}

/** A replay targets what the report judged; a URL target still needs --config (reports hold no credentials). */
function replayTarget(replay: ReplayPlan): string {
  if (replay.target.embedded) return 'embedded';
  throw new CertifyError(
    `--replay: the report judged ${replay.target.baseUrl}; pass --config FILE with its credentials (and --target if the URL changed)`,
  );
}

/** What a run knows once the target is resolved and passed pre-flight: the settings the suites get are decided. */
interface Prepared {
  p: Plan;
  target: ResolvedTarget;
  settings: RunSettings;
  registry: SecretRegistry;
  scrub: (text: string) => string;
  scanned: Map<string, CheckDeclaration[]>;
  checked: PreflightResult;
  /** Requests pre-flight sent (ReportTraffic.preflight). */
  preflightRequests: number;
}

/**
 * Plans the run, resolves the target (starts the embedded one), sets the process's HTTP trust, pacing and profile,
 * and runs pre-flight. Configuration problems throw CertifyError (exit 2) before any check; pre-flight problems
 * throw PreflightError with one line each, after removing an earlier run's reports from the report directory.
 */
async function prepare(options: CertifyOptions, output: (text: string) => void, warn: (m: string) => void) {
  const env = options.env ?? process.env;
  const p = plan(options);
  prepareReportDir(p.reportDir);
  const target = await resolveTarget(p.targetSpec, p.config, env, warn, p.embedded, options.image, options.signal);
  const registry = new SecretRegistry();
  registerTargetSecrets(target.config, registry);
  const scrub = (text: string) => redactText(text, registry);
  try {
    const profile = p.profile ?? (target.runOwned ? 'full' : 'catalog');
    // The embedded server (or --image container) is a throwaway of this run: booking on it harms nobody.
    const allowBookings = target.runOwned ? true : (p.allowBookings ?? false);
    const maxRps =
      p.maxRps !== undefined ? p.maxRps : isLoopback(target.config.baseUrl) ? null : DEFAULT_REMOTE_MAX_RPS;
    if (p.baseline)
      assertSameTarget(
        p.baseline.report,
        { baseUrl: target.config.baseUrl, embedded: target.embedded },
        p.baseline.file,
      );
    // The runner's own calls (pre-flight, the patient clocks, the test hooks) go by the run's trust, pace and profile.
    resetReachability();
    configureRunHttp({ target: target.config, profile, maxRps });
    // vitest's collection walks the suites as the run will register them (vitest-run.ts collectChecks), beside
    // pre-flight's network steps.
    const collecting = import('./vitest-run.ts').then(({ collectChecks }) =>
      collectChecks({
        root: PROJECT_ROOT,
        include: [...(options.suites ?? DEFAULT_SUITES)],
        settings: { ...settingsOf(p, target, profile, allowBookings, maxRps), hooks: [] },
        ...(p.replay ? { testNamePattern: p.replay.testNamePattern } : {}),
      }),
    );
    // A pre-flight that ends early leaves it to finish unheard.
    collecting.catch(() => {});
    // Pre-flight's own requests, counted apart from the checks' (the report's Traffic line shows both).
    const preflightTraffic = emptyTraffic();
    const checked = await withTraffic(preflightTraffic, () =>
      preflight({
        target: target.config,
        embedded: target.embedded,
        profile,
        allowBookings,
        only: p.only,
        declared: collecting.then(byClause),
      }),
    );
    const preflightRequests = Object.values(preflightTraffic.requests).reduce((sum, n) => sum + n, 0);
    if (checked.problems.length > 0) {
      clearReports(p.reportDir);
      throw new PreflightError(checked.problems.map(scrub));
    }
    const scanned = await collecting;
    output(`Pre-flight: ${checked.passed.join(', ')} (${(checked.durationMs / 1000).toFixed(1)} s)\n`);
    for (const note of checked.notes) output(`Pre-flight: ${scrub(note)}\n`);
    const settings: RunSettings = {
      ...settingsOf(p, target, profile, allowBookings, maxRps),
      hooks: checked.hooks,
      granted: checked.granted,
    };
    const prepared: Prepared = { p, target, settings, registry, scrub, scanned, checked, preflightRequests };
    return prepared;
  } catch (error) {
    if (error instanceof Error) error.message = scrub(error.message);
    configureHttp({ profile: null });
    await target.stop();
    throw error;
  }
}

/** The collected checks by clause, as pre-flight reads them. */
function byClause(collected: ReadonlyMap<string, readonly CheckDeclaration[]>): Map<string, DeclaredCheck[]> {
  const declared = new Map<string, DeclaredCheck[]>();
  for (const checks of collected.values()) {
    for (const { clauseId, profile, scopes } of checks) {
      declared.set(clauseId, [...(declared.get(clauseId) ?? []), { profile, scopes }]);
    }
  }
  return declared;
}

/** The run's settings as the plan decides them; pre-flight adds the hooks the target offers and the scopes it grants. */
function settingsOf(
  p: Plan,
  target: ResolvedTarget,
  profile: Profile,
  allowBookings: boolean,
  maxRps: number | null,
): Omit<RunSettings, 'hooks' | 'granted'> {
  return {
    target: target.config,
    embedded: target.embedded,
    profile,
    allowBookings,
    strict: p.strict,
    seed: p.seed,
    runs: p.runs,
    xml: p.xml,
    maxRps,
    date: p.date,
    bookingPrefix: `CERT-${runId()}-`,
    only: p.only,
  };
}

/** --preflight-only: the pre-flight stage alone (CI, before a long run). Exit 0 when the run could judge, else 2. */
export async function runPreflightOnly(options: CertifyOptions = {}): Promise<{ exitCode: 0; passed: string[] }> {
  const output = options.output ?? (() => {});
  const warn = options.warn ?? ((message: string) => output(`warning: ${message}\n`));
  const prepared = await prepare(options, output, warn);
  try {
    output(
      `Pre-flight passed: the run can judge ${prepared.target.config.baseUrl} with profile ${prepared.settings.profile}.\n`,
    );
    return { exitCode: 0, passed: prepared.checked.passed };
  } finally {
    configureHttp({ profile: null });
    await prepared.target.stop();
  }
}

/**
 * One certification run: resolve the target (start the embedded one, or load the URL target's config), pre-flight,
 * run the suites in vitest with our reporters, cancel the run's reservations, build the report and write the
 * requested formats. Configuration and pre-flight errors throw CertifyError before any check runs.
 */
export async function runCertification(options: CertifyOptions = {}): Promise<CertifyResult> {
  const output = options.output ?? (() => {});
  const warn = options.warn ?? ((message: string) => output(`warning: ${message}\n`));
  const startedAt = new Date();
  // vitest takes about as long to import as the embedded target takes to start (1.5 s each): both at once.
  const suiteRunner = import('./vitest-run.ts');
  suiteRunner.catch(() => {});
  const prepared = await prepare(options, output, warn);
  try {
    await startSideTasks(options, prepared, warn);
    announceRun(prepared, output, warn);
    const collected = await runChecks(options, prepared, suiteRunner, output);
    const cleanup = await cancelReservations(prepared, collected, output, warn);
    return await reportRun(options, prepared, { collected, cleanup, startedAt }, output);
  } catch (error) {
    // Whatever escapes is printed by the CLI: it must not carry a credential of the target.
    if (error instanceof Error) error.message = prepared.scrub(error.message);
    throw error;
  } finally {
    configureHttp({ profile: null });
    await prepared.target.stop();
  }
}

/**
 * What runs beside the suites is set up before the run's header: the patient clocks' deadlines start now (the
 * checks that wait for them run last), and a fuzz campaign's worker needs a file to append its progress to.
 */
async function startSideTasks(
  options: CertifyOptions,
  { p, target, settings, registry }: Prepared,
  warn: (message: string) => void,
): Promise<void> {
  if (options.patient) {
    settings.patient = await startPatientClocks(target.config, {
      canShop: profileRank(settings.profile) >= profileRank('shop'),
      date: p.date,
      env: options.env ?? process.env,
    });
    if (settings.patient.token) registry.add(settings.patient.token.accessToken, 'TOKEN_PATIENT');
    if (settings.patient.unavailable) warn(`--patient: the clocks could not start: ${settings.patient.unavailable}`);
  }
  if (options.fuzz) {
    const progressFile = join(mkdtempSync(join(tmpdir(), 'partner-cert-fuzz-')), 'progress.jsonl');
    settings.fuzz = { ...options.fuzz, progressFile };
  }
}

function announceRun(prepared: Prepared, output: (text: string) => void, warn: (message: string) => void): void {
  output(describeRun(prepared.settings, prepared.p.replay));
  if (prepared.target.description) output(`Started: ${prepared.target.description}\n`);
  for (const warning of runWarnings(prepared)) warn(warning);
}

/** Settings under which checks the user may expect to run are not-applicable or never called. */
function runWarnings({ p, target, settings }: Prepared): string[] {
  const { profile, allowBookings } = settings;
  const warnings: string[] = [];
  if (p.replay?.allowBookings && !allowBookings) {
    warnings.push('the replayed run allowed bookings; this one does not (pass --allow-bookings to let the check book)');
  }
  if (!allowBookings && profileRank(profile) >= profileRank('book')) {
    warnings.push(`profile ${profile} without --allow-bookings: checks that create reservations are not-applicable`);
  }
  if (target.config.hooks && profile !== 'full') {
    warnings.push(`the target config names test hooks; only profile full calls them (this run: ${profile})`);
  }
  return warnings;
}

async function runChecks(
  options: CertifyOptions,
  prepared: Prepared,
  suiteRunner: Promise<typeof import('./vitest-run.ts')>,
  output: (text: string) => void,
): Promise<CollectedRun> {
  const { p, settings, scrub } = prepared;
  const collectOptions = { root: PROJECT_ROOT, unexplainedSkip: p.replay ? ('omit' as const) : ('error' as const) };
  const collector = new CertificationReporter(collectOptions);
  const estimates = checkEstimates(prepared.scanned);
  const progress = new ProgressReporter({
    ...collectOptions,
    write: (text) => output(scrub(text)),
    mode: options.progress ?? 'plain',
    estimate: (file) => estimates.get(file) ?? 0,
    // The fuzz campaign's file is not among the collected suites: its count is known once vitest loads it.
    estimateExact: !options.fuzz,
    ...(options.columns ? { columns: options.columns } : {}),
  });
  let suiteOutput: string;
  const sideLines = printSideTaskLines(settings, progress, output);
  try {
    const { runSuites } = await suiteRunner;
    const run = await runSuites({
      root: PROJECT_ROOT,
      include: options.fuzz ? [FUZZ_CAMPAIGN] : [...(options.suites ?? DEFAULT_SUITES)],
      settings,
      tokens: prepared.checked.tokens,
      reporters: [collector, progress],
      ...(p.replay ? { testNamePattern: p.replay.testNamePattern } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
      verbose: options.verbose ?? false,
    });
    suiteOutput = run.output;
  } finally {
    sideLines.stop();
  }
  return collectedOrThrow(collector, suiteOutput, prepared);
}

/** The progress line's total per suite file: the checks vitest collected for this run (collectChecks). */
function checkEstimates(scanned: Prepared['scanned']): Map<string, number> {
  return new Map([...scanned].map(([file, checks]) => [file, checks.length]));
}

/** While the patient checks wait (they run last), a line every 30 s says how long is left; the fuzz campaign's too. */
function printSideTaskLines(
  settings: RunSettings,
  progress: ProgressReporter,
  output: (text: string) => void,
): { stop(): void } {
  const patientLine = settings.patient
    ? setInterval(() => {
        const line = settings.patient ? patientProgress(settings.patient) : undefined;
        if (line) progress.note(line);
      }, 30_000)
    : undefined;
  patientLine?.unref();
  const fuzzProgress = settings.fuzz?.progressFile;
  const fuzzLine = fuzzProgress ? tailFuzzProgress(fuzzProgress, output) : undefined;
  return {
    stop() {
      if (patientLine) clearInterval(patientLine);
      fuzzLine?.stop();
    },
  };
}

function collectedOrThrow(collector: CertificationReporter, suiteOutput: string, { p, scrub }: Prepared): CollectedRun {
  const collected = collector.collected();
  if (!collected) {
    const detail = lastLines(scrub(suiteOutput), 20);
    throw new CertifyError(`the suites did not run${detail ? `; vitest said:\n${detail}` : ''}`);
  }
  if (p.replay && collected.checks.length === 0) {
    collected.harnessErrors.push({ message: `--replay: no check "${p.replay.checkId}" ran (renamed or removed?)` });
  }
  return collected;
}

/** A cleanup that fails is a harness error of the report, not thrown: the checks that ran are still reported. */
async function cancelReservations(
  { target, settings, scrub }: Prepared,
  collected: CollectedRun,
  output: (text: string) => void,
  warn: (message: string) => void,
): Promise<CleanupResult | undefined> {
  const { profile, allowBookings, maxRps, hooks } = settings;
  const recorded = collected.checks.flatMap((check) => check.createdReservations ?? []);
  // Only book and full checks create reservations; a run below them has nothing to cancel (and asks for no tokens).
  if (!((allowBookings && profileRank(profile) >= profileRank('book')) || recorded.length > 0)) return undefined;
  output('cleanup: cancelling the reservations this run created\n');
  const endpoint = target.config.hooks;
  let cleanup: CleanupResult | undefined;
  try {
    cleanup = await cleanupBookings({
      target: target.config,
      bookingPrefix: settings.bookingPrefix,
      recorded,
      maxRps,
      // Detaching money is a test hook: only profile full calls it.
      ...(endpoint && profile === 'full' && hooks.includes('reservations.money')
        ? { detachMoney: (id: string) => testHooks(endpoint, hooks).attachMoney(id, false) }
        : {}),
    });
    for (const note of cleanup.notes) warn(`cleanup: ${scrub(note)}`);
    output(`cleanup: ${cleanup.cancelled.length} cancelled, ${cleanup.leftovers.length} left over\n`);
  } catch (error) {
    collected.harnessErrors.push({ message: `booking cleanup failed: ${scrub((error as Error).message)}` });
  }
  return cleanup;
}

/** What the checks and the cleanup left for the report. */
interface RunOutcome {
  collected: CollectedRun;
  cleanup: CleanupResult | undefined;
  startedAt: Date;
}

async function reportRun(
  options: CertifyOptions,
  prepared: Prepared,
  outcome: RunOutcome,
  output: (text: string) => void,
): Promise<CertifyResult> {
  const { p, target, settings, scrub } = prepared;
  const report = buildRunReport(options, prepared, outcome, new Date());
  const files = writeReports(report, p.formats, p.reportDir, scrub);
  if (p.attest) {
    const { config } = target;
    files.push(
      await attestRun({
        key: p.attest,
        report,
        reportDir: p.reportDir,
        target: { baseUrl: config.baseUrl, embedded: target.embedded, tls: config.tls, image: options.image?.image },
        suiteFiles: options.fuzz ? [join(PROJECT_ROOT, FUZZ_CAMPAIGN)] : [...prepared.scanned.keys()],
        scrub,
      }),
    );
  }
  output(scrub(formatSummary(report, files.map(displayPath))));
  const exitCode = report.verdict.exitCode ?? (report.verdict.passed ? EXIT.passed : EXIT.failed);
  const { target: _target, ...publicSettings } = settings;
  const { cleanup } = outcome;
  return { report, exitCode, files, settings: publicSettings, ...(cleanup ? { cleanup } : {}) };
}

function buildRunReport(
  options: CertifyOptions,
  { p, target, settings, preflightRequests }: Prepared,
  { collected, cleanup, startedAt }: RunOutcome,
  finishedAt: Date,
): ReportModel {
  return buildReport({
    checks: collected.checks,
    tool: toolInfo(),
    target: { baseUrl: target.config.baseUrl, embedded: target.embedded },
    profile: settings.profile,
    options: {
      allowBookings: settings.allowBookings,
      strict: settings.strict,
      seed: settings.seed,
      runs: settings.runs,
      xml: settings.xml ?? DEFAULT_XML_COVERAGE,
      date: settings.date,
      only: settings.only,
      ...(p.failOn ? { failOn: p.failOn } : {}),
    },
    timing: {
      startedAt: startedAt.toISOString(),
      finishedAt: finishedAt.toISOString(),
      durationMs: finishedAt.getTime() - startedAt.getTime(),
    },
    waivers: p.waivers,
    today: options.today ?? todayUtc(),
    leftovers: (cleanup?.leftovers ?? []).map(describeLeftover),
    harnessErrors: collected.harnessErrors,
    preflightRequests,
    ...(p.baseline ? { baseline: p.baseline.report } : {}),
  });
}

/** The fuzz campaign file: run alone with --fuzz, never among the default suites. */
const FUZZ_CAMPAIGN = `suites/fuzz.campaign${MODULE_EXTENSION}`;

/** Prints the campaign's progress lines (requests, failures, rate, time left) as its worker appends them. */
function tailFuzzProgress(file: string, output: (text: string) => void): { stop(): void } {
  let printed = 0;
  const flush = () => {
    let lines: string[];
    try {
      lines = readFileSync(file, 'utf8').trim().split('\n');
    } catch {
      return;
    }
    for (const line of lines.slice(printed)) {
      try {
        const p = JSON.parse(line) as {
          requests: number;
          failures: number;
          rate: number;
          left: number;
          elapsed: number;
          done: boolean;
        };
        const count = `${p.requests.toLocaleString('en-US')} requests`;
        output(
          p.done
            ? `fuzz: done · ${count} in ${p.elapsed} s · ${p.failures} failure(s)\n`
            : `fuzz: ${count} · ${p.rate} req/s · ${p.failures} failure(s) · ${p.left} s left\n`,
        );
      } catch {
        // a line still being written
      }
    }
    printed = lines.length;
  };
  const timer = setInterval(flush, 5_000);
  timer.unref();
  return {
    stop() {
      clearInterval(timer);
      flush();
    },
  };
}

function describeRun(settings: RunSettings, replay: ReplayPlan | undefined): string {
  const lines = [
    `Target: ${settings.embedded ? `embedded reference implementation at ${settings.target.baseUrl}` : settings.target.baseUrl}`,
    `Profile: ${settings.profile}${settings.allowBookings ? ' (bookings allowed)' : ''}${settings.strict ? ', strict' : ''}`,
    `Seed: ${settings.seed} · runs ${settings.runs} · xml ${settings.xml ?? DEFAULT_XML_COVERAGE} · date ${settings.date}${settings.maxRps ? ` · max ${settings.maxRps} req/s` : ''}`,
  ];
  if (settings.only.length > 0) lines.push(`Only: ${settings.only.join(', ')}`);
  if (replay) lines.push(`Replay: ${replay.checkId}`);
  return `${lines.join('\n')}\n`;
}

/** Short, sortable and unique enough to tell one run's reservations from another's. */
function runId(): string {
  return `${Date.now().toString(36)}${randomBytes(3).toString('hex')}`.toUpperCase();
}

let tool: ReportModel['tool'] | undefined;

function toolInfo(): ReportModel['tool'] {
  if (!tool) {
    // From the package's package.json wherever it is: the sources and the compiled package (dist/) differ in depth.
    tool = { name: 'partner-api-certify', version: packageInfo().version };
  }
  return tool;
}

/** Report paths as the user would type them: relative when under the current directory. */
function displayPath(file: string): string {
  const rel = relative(process.cwd(), file);
  return rel && !rel.startsWith('..') && !isAbsolute(rel) ? rel : file;
}

function lastLines(text: string, count: number): string {
  return text.trim().split('\n').slice(-count).join('\n');
}

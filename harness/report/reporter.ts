import path from 'node:path';
import type { Reporter, TestCase, TestModule, TestSuite } from 'vitest/node';
import { plainMessage } from '../check/evidence.ts';
import type { CheckMeta, Evidence, Outcome } from '../check/outcome-and-evidence.ts';
import type { Representation } from '../http/representation.ts';
import type { CheckRecord, HarnessError } from './check-record.ts';

export type { CheckRecord, HarnessError } from './check-record.ts';

type RunEnd = NonNullable<Reporter['onTestRunEnd']>;
type UnhandledErrors = Parameters<RunEnd>[1];
type RunEndReason = Parameters<RunEnd>[2];

export interface CollectOptions {
  /** Paths in records are relative to this directory (default: process.cwd()). */
  root?: string;
  /**
   * A test vitest skipped although its check did not declare itself not-applicable (test.skip, test.todo, a
   * name filter). 'error' (default): reported as an errored check, since nothing may be silently skipped.
   * 'omit': left out of the report, for runs that filter tests on purpose (e.g. --replay of one check).
   */
  unexplainedSkip?: 'error' | 'omit';
}

export interface CollectedRun {
  checks: CheckRecord[];
  harnessErrors: HarnessError[];
  reason: RunEndReason | undefined;
}

const TITLE = /^\[([^\]\s]+)\]\s*(.*)$/s;
const REPRESENTATION_SUFFIX = /\s\((json|xml)\)$/;
// Assertion messages may carry terminal colours; reports are files.
// biome-ignore lint/suspicious/noControlCharactersInRegex: ESC starts the colour sequences to remove
const ANSI = /\u001b\[[0-9;]*[A-Za-z]/g;

function plain(text: string): string {
  return text.replace(ANSI, '');
}

/** The clause id, name and representation a test title `[<clauseId>] <name> (<representation>)` carries. */
export function parseCheckTitle(
  title: string,
): { clauseId: string; name: string; representation?: Representation } | undefined {
  const match = TITLE.exec(title.trim());
  if (!match?.[1]) return undefined;
  let name = match[2] ?? '';
  const suffix = REPRESENTATION_SUFFIX.exec(name);
  const representation = suffix?.[1] as Representation | undefined;
  if (suffix) name = name.slice(0, suffix.index);
  return representation ? { clauseId: match[1], name, representation } : { clauseId: match[1], name };
}

function relativeFile(moduleId: string, root: string): string {
  return path.relative(root, moduleId).split(path.sep).join('/');
}

type TestErrors = NonNullable<ReturnType<TestCase['result']>['errors']>;

type TestError = TestErrors[number];

/** A fast-check failure's own message is a run summary: the failing case's error (its cause) says what went wrong. */
function innermost(error: TestError): TestError {
  const cause = (error as { cause?: unknown }).cause;
  if (error.message?.startsWith('Property failed') && typeof cause === 'object' && cause !== null) {
    return cause as TestError;
  }
  return error;
}

function errorEvidence(errors: TestErrors | undefined, fallback: string): Evidence {
  const inner = (errors ?? []).map(innermost);
  const first = inner[0];
  const evidence: Evidence = {
    message:
      inner.length > 0
        ? inner.map((error) => plainMessage(plain(String(error.message ?? error)))).join('\n')
        : fallback,
    exchanges: [],
  };
  if (typeof first?.expected === 'string') evidence.expected = plainMessage(plain(first.expected));
  if (typeof first?.actual === 'string') evidence.actual = plainMessage(plain(first.actual));
  return evidence;
}

/**
 * One vitest test case as a check record, or a harness error when it is not a check (no clause id in its meta or
 * title). The outcome is the check wrapper's (meta.check.outcome) when it recorded one, with one exception: a test
 * vitest failed although the wrapper recorded pass, warn or n/a failed around the check (a hook, a timeout after
 * the wrapper finished), so it is an error. Without an outcome from the wrapper vitest's state decides:
 * passed → pass; failed → error (the harness failed before the check could judge); skipped → see `unexplainedSkip`.
 */
export function checkRecordOf(
  testCase: TestCase,
  options: CollectOptions = {},
): { record: CheckRecord } | { harnessError: HarnessError } | undefined {
  const root = options.root ?? process.cwd();
  const file = relativeFile(testCase.module.moduleId, root);
  const meta: CheckMeta | undefined = testCase.meta().check;
  const result = testCase.result();
  if (result.state === 'pending') return undefined; // an interrupted run; the reason is reported once

  const title = parseCheckTitle(testCase.name);
  const clauseId = meta?.clauseId ?? title?.clauseId;
  if (!clauseId) {
    return {
      harnessError: { file, test: testCase.fullName, message: 'test is not a check: no clause id in its title' },
    };
  }
  const representation = meta?.representation ?? title?.representation;
  let name = title?.name ?? testCase.name;
  if (representation && !title?.representation) name = name.replace(new RegExp(`\\s\\(${representation}\\)$`), '');

  const record: CheckRecord = {
    clauseId,
    name,
    file,
    outcome: 'error',
    durationMs: testCase.diagnostic()?.duration ?? 0,
  };
  if (representation) record.representation = representation;
  if (meta?.level) record.level = meta.level;
  if (meta?.createdReservations && meta.createdReservations.length > 0) {
    record.createdReservations = [...meta.createdReservations];
  }
  if (meta?.observations && meta.observations.length > 0) record.observations = meta.observations;
  if (meta?.judgedBy) record.judgedBy = meta.judgedBy;
  if (meta?.cases) record.cases = meta.cases;
  if (meta?.traffic) record.traffic = meta.traffic;

  const declared: Outcome | undefined = meta?.outcome;
  if (result.state === 'skipped') {
    if (declared === 'not-applicable') {
      record.outcome = 'not-applicable';
      if (meta?.notApplicable) record.notApplicable = meta.notApplicable;
      return { record };
    }
    if (options.unexplainedSkip === 'omit') return undefined;
    record.evidence = {
      message: `skipped without a not-applicable reason (mode ${testCase.options.mode}${result.note ? `: ${result.note}` : ''})`,
      exchanges: [],
    };
    return { record };
  }
  if (result.state === 'failed') {
    if (declared === 'fail' || declared === 'error') {
      record.outcome = declared;
      record.evidence = meta?.evidence ?? errorEvidence(result.errors, 'failed');
    } else {
      record.outcome = 'error';
      const evidence = errorEvidence(result.errors, 'failed');
      if (declared) evidence.message = `check recorded ${declared} but the test failed: ${evidence.message}`;
      if (meta?.evidence) evidence.exchanges = meta.evidence.exchanges;
      record.evidence = evidence;
    }
    return { record };
  }
  // passed
  record.outcome = declared ?? 'pass';
  if (record.outcome === 'not-applicable' && meta?.notApplicable) record.notApplicable = meta.notApplicable;
  if (meta?.evidence) record.evidence = meta.evidence;
  return { record };
}

function suiteErrors(entity: TestModule | TestSuite, file: string): HarnessError[] {
  const test = entity.type === 'suite' ? entity.fullName : undefined;
  return entity.errors().map((error) => ({
    file,
    ...(test ? { test } : {}),
    message: plain(String(error.message ?? error)),
  }));
}

/** All check records and harness errors of a finished run, in module and test order. */
export function collectRun(
  testModules: ReadonlyArray<TestModule>,
  unhandledErrors: UnhandledErrors = [],
  reason: RunEndReason | undefined = undefined,
  options: CollectOptions = {},
): CollectedRun {
  const root = options.root ?? process.cwd();
  const checks: CheckRecord[] = [];
  const harnessErrors: HarnessError[] = [];
  for (const testModule of testModules) {
    const file = relativeFile(testModule.moduleId, root);
    harnessErrors.push(...suiteErrors(testModule, file));
    for (const suite of testModule.children.allSuites()) harnessErrors.push(...suiteErrors(suite, file));
    for (const testCase of testModule.children.allTests()) {
      const item = checkRecordOf(testCase, options);
      if (!item) continue;
      if ('record' in item) checks.push(item.record);
      else harnessErrors.push(item.harnessError);
    }
  }
  for (const error of unhandledErrors) {
    harnessErrors.push({ message: `unhandled error: ${plain(String(error.message ?? error))}` });
  }
  if (reason === 'interrupted') harnessErrors.push({ message: 'the run was interrupted before every check finished' });
  return { checks, harnessErrors, reason };
}

/**
 * The vitest reporter of a certification run: it only collects. After `startVitest` resolves, the runner reads
 * `collected()` and passes it to buildReport with the run's options and waivers.
 */
export class CertificationReporter implements Reporter {
  #collected: CollectedRun | undefined;
  readonly #options: CollectOptions;

  constructor(options: CollectOptions = {}) {
    this.#options = options;
  }

  onTestRunEnd(testModules: ReadonlyArray<TestModule>, unhandledErrors: UnhandledErrors, reason: RunEndReason): void {
    this.#collected = collectRun(testModules, unhandledErrors, reason, this.#options);
  }

  /** The run's records; undefined until vitest ended the run. */
  collected(): CollectedRun | undefined {
    return this.#collected;
  }
}

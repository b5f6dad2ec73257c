import type fc from 'fast-check';
import { chai, test } from 'vitest';
import { type Clause, clauseById } from '../../contract/clauses/index.ts';
import type { Scope } from '../../contract/scopes.ts';
import type { Role, TargetProbes } from '../config/target-config.ts';
import type { HookName, TestHooks } from '../hooks/adapter.ts';
import { createPartnerClient, type PartnerClient } from '../http/partner-client.ts';
import { CHECK_LIMIT_WAIT_BUDGET_MS, provokingLimits, withTraffic } from '../http/rate-limits.ts';
import { RecordedError, recording } from '../http/recorder.ts';
import type { Representation } from '../http/representation.ts';
import { emptyTraffic } from '../http/traffic.ts';
import type { RunSettings } from '../run-settings.ts';
import { isSelected, notApplicableReason, type Requirements, scopesOfCheck } from './applicability.ts';
import { recordAssertionFacts } from './assertion-facts.ts';
import { buildEvidence, scrubError } from './evidence.ts';
import { type HarnessState, harnessState, readRunSettings } from './harness-state.ts';
import { forAll, SKIP } from './judge.ts';
import { outcomeOf } from './outcome.ts';
import type {
  CheckDeclaration,
  CheckMeta,
  EvidenceExchange,
  JudgedBy,
  Level,
  NotApplicableReason,
  Observation,
  Profile,
} from './outcome-and-evidence.ts';
import { DEFAULT_XML_COVERAGE, representationsToRun } from './representations.ts';
import { inCheckScope } from './scope.ts';
import { scopeGuarded } from './scope-guard.ts';
import { fewCasesSignal, notApplicableReasonOf, notApplicableSignal, signalOf } from './signal.ts';

export type { ApiResult, CallOptions, PartnerClient } from '../http/partner-client.ts';

// A suite's failed expect() is reported in plain words, with the exchange it was about (evidence.ts).
recordAssertionFacts(chai);

/** What a case of t.forAll returns when the target gave it nothing to judge. */
export { SKIP } from './judge.ts';

export interface CheckOptions {
  /** Distinguishes several checks of one clause (default: the clause title). */
  name?: string;
  /** Missing credentials → not-applicable (by name). */
  needs?: Role[];
  /** Default: the clause's minProfile; above the run's profile → not-applicable. */
  profile?: Profile;
  /** The target's test hooks the check calls (docs/test-hooks.md); not-applicable without them. */
  hooks?: HookName[];
  /** Judges by waiting for the clocks the runner started (--patient); not-applicable without them. */
  patient?: boolean;
  /** Probe codes of the target config the check uses; not-applicable, by name, without them. */
  probes?: (keyof TargetProbes)[];
  /** Creates reservations → not-applicable without allowBookings. */
  bookings?: boolean;
  /**
   * Scopes the check's working roles (partnerA, and partnerB when it needs it) must hold; not-applicable, by name,
   * when the target has not granted them (RunSettings.granted; spec 5.5). Default: the booking scopes for a check that
   * creates reservations or is of profile book, none otherwise (applicability.ts scopesOfCheck).
   */
  scopes?: readonly Scope[];
  /** Default: the clause's level. */
  level?: Level;
  /** How the check judges (default: 'hooks' when it needs them, 'static' for a static clause, else 'live'). */
  judgedBy?: JudgedBy;
  /**
   * Default ['json']; business checks pass REPRESENTATIONS → one test each that runs (representations.ts: under the
   * default --xml mirror, XML only for the clauses about representations).
   */
  representations?: readonly Representation[];
  /**
   * The check exhausts a rate-limit bucket on purpose (spec 8, 4.5.4, 5.4c, 7.3.33): every 429 reaches it as it
   * comes and nothing it sends is held back for an empty bucket. Any other check's 429s are the transport's to wait
   * out (harness/http/rate-limits.ts); sendUntil429 provokes on its own.
   */
  provokesLimits?: boolean;
  /** The check's own work, without what it waits for the target's rate limits (up to CHECK_LIMIT_WAIT_BUDGET_MS). */
  timeoutMs?: number;
}

/** A check's time for its own work when it does not set one (rate-limit waits come on top). */
export const DEFAULT_CHECK_TIMEOUT_MS = 120_000;

export interface CheckContext {
  clause: Clause;
  representation: Representation;
  settings: RunSettings;
  /**
   * The check's own seed: derived from the run's seed, the clause and the check's name (not its representation), so
   * a replay of one check reuses it and JSON and XML draw the same cases.
   */
  seed: number;
  /** Authenticated through the token cache; the role must be configured (declare it in `needs`). */
  client(role: Role): PartnerClient;
  /** No Authorization header. */
  anonymous: PartnerClient;
  /** The target's test hooks; defined when the check declared the hooks it calls (`hooks`). */
  hooks: TestHooks;
  /**
   * The test hooks when the run may call this one (profile full, offered by the target), else undefined: for a
   * check that judges without it but goes faster with it (a rate-limit window reset instead of waiting it out).
   */
  hookIfOffered(name: HookName): TestHooks | undefined;
  /** A reservation the check created, for the end-of-run cleanup. */
  recordReservation(id: string): void;
  /** The target cannot show this clause (e.g. it offers no data to test with): not-applicable with this detail. */
  notApplicable(detail: string): never;
  /**
   * A property over generated cases, seeded by the check (judge.ts): a case returns SKIP when the target gave it
   * nothing to judge; fewer than a third judged ends the check not-applicable. Default runs: the run's --runs.
   */
  forAll<T>(
    arbitrary: fc.Arbitrary<T>,
    predicate: (value: T) => unknown,
    options?: { numRuns?: number },
  ): Promise<{ runs: number; judged: number }>;
}

export type CheckFn = (t: CheckContext) => Promise<void>;

/** `[<clauseId>] <name> (<representation>)`: the clause id first, as every report line reads. */
export function checkTitle(clauseId: string, name: string, representation: Representation): string {
  return `[${clauseId}] ${name} (${representation})`;
}

/** Declares one check of the clause `check(clauseId)` named: `check('4.7.1')(options, fn)`. */
export type DeclareCheck = (options: CheckOptions, fn: CheckFn) => void;

/**
 * Declares a check of one spec clause: one vitest test per representation. Outcomes are recorded on the test's
 * `task.meta.check` (CheckMeta) for the reporter. Clauses outside `settings.only` are not registered at all.
 *
 * Curried, `check('4.7.1')(options, fn)`, so Biome keeps the clause id on the line of `check(` however long the
 * options grow: `grep -rn "check('4.7.1'" suites` finds every check of a clause.
 */
export function check(clauseId: string): DeclareCheck {
  const clause = clauseById(clauseId);
  if (!clause) throw new Error(`check(): unknown clause id ${clauseId} (see contract/clauses)`);
  return (options, fn) => {
    const settings = readRunSettings();
    if (!isSelected(clause, settings.only)) return;
    const name = options.name ?? clause.title;
    const representations = options.representations ?? ['json'];
    const declared: CheckDeclaration = {
      clauseId,
      profile: qualifyOptions(options, clause).profile,
      scopes: scopesOf(options, clause),
    };
    for (const representation of representationsToRun(
      clauseId,
      representations,
      settings.xml ?? DEFAULT_XML_COVERAGE,
    )) {
      const title = checkTitle(clauseId, name, representation);
      // Waiting for a target's rate limits is not the check's slowness: it gets its budget on top (the transport
      // ends a check held back longer as not judged, rate-limits.ts).
      const timeout = (options.timeoutMs ?? DEFAULT_CHECK_TIMEOUT_MS) + CHECK_LIMIT_WAIT_BUDGET_MS;
      test(title, { timeout, meta: { declared } }, async (ctx) => {
        await runCheck({
          clause,
          options,
          name,
          title,
          representation,
          state: harnessState(settings),
          fn,
          setMeta: (meta) => {
            ctx.task.meta.check = meta;
          },
          skip: (note) => ctx.skip(note),
        });
      });
    }
  };
}

export interface RunCheckInput {
  clause: Clause;
  options: CheckOptions;
  name: string;
  title: string;
  representation: Representation;
  state: HarnessState;
  fn: CheckFn;
  /** Called once, before anything runs; the meta object is then completed in place. */
  setMeta(meta: CheckMeta): void;
  /** Vitest's ctx.skip: throws. */
  skip(note: string): never;
}

/**
 * The body of every check's test: applicability, then fn inside the recorder, then the outcome (outcomeOf).
 * Assertion failure → fail (rethrown) or, for SHOULD without --strict, warn (not rethrown); any other error →
 * error (rethrown); otherwise pass.
 */
export async function runCheck(input: RunCheckInput): Promise<void> {
  const { clause, options, state, representation } = input;
  const { settings } = state;
  const { level, profile, judgedBy } = qualifyOptions(options, clause);
  const meta: CheckMeta = { clauseId: clause.id, name: input.name, level, profile, representation, judgedBy };
  input.setMeta(meta);

  const notApplicable = (reason: NotApplicableReason): never => {
    meta.outcome = 'not-applicable';
    meta.notApplicable = reason;
    return input.skip(reason.detail);
  };
  const reason = notApplicableReason(requirementsOf(options, clause, profile), settings);
  if (reason) notApplicable(reason);

  // The same seed in JSON and XML: both representations judge the same generated cases, so a clause met in JSON
  // and broken in XML is the XML writer's fault (4.14.18a), not a luckier draw.
  const seed = deriveSeed(settings.seed, `[${clause.id}] ${input.name}`);
  meta.seed = seed;

  const ran = await runRecorded(input, contextFor(input, meta, seed), meta);
  if (!ran.threw) {
    meta.outcome = 'pass';
    return;
  }
  const { error, exchanges, observations } = ran;
  const ended = outcomeOf(error, observations, level, settings);
  if (ended.evidence) {
    meta.evidence = buildEvidence(error, exchanges, input.name);
    scrubError(error);
  }
  if (ended.outcome === 'not-applicable') return notApplicable(ended.reason);
  meta.outcome = ended.outcome;
  // A SHOULD clause's failure without --strict is a warning: the test passes, the report says it.
  if (ended.outcome !== 'warn') throw error;
}

type Ran =
  | { threw: false }
  | { threw: true; error: unknown; exchanges: EvidenceExchange[]; observations: readonly Observation[] };

/**
 * Runs the check's fn in its scope, inside the recorder, counting its traffic, cases and observations on `meta`
 * (in place while it runs: vitest sends the meta to the reporter when the test ends). Returns what it threw, with
 * the exchanges recorded up to then and what it observed about other clauses.
 */
async function runRecorded(input: RunCheckInput, context: CheckContext, meta: CheckMeta): Promise<Ran> {
  const { clause, options, representation } = input;
  let observations: Observation[] = [];
  const traffic = emptyTraffic();
  meta.traffic = traffic;
  const body = options.provokesLimits ? () => provokingLimits(() => input.fn(context)) : () => input.fn(context);
  try {
    await recording(async () => {
      const scoped = await withTraffic(traffic, () => inCheckScope(clause.id, body, representation));
      observations = scoped.observations;
      if (scoped.cases.runs > 0) meta.cases = scoped.cases;
      if (scoped.error !== undefined) throw scoped.error;
    });
    if (observations.length > 0) meta.observations = observations;
    return { threw: false };
  } catch (thrown) {
    if (observations.length > 0) meta.observations = observations;
    if (!(thrown instanceof RecordedError)) return { threw: true, error: thrown, exchanges: [], observations };
    return { threw: true, error: thrown.cause, exchanges: thrown.exchanges, observations };
  }
}

/** What a check's options come to on its clause: the level it is judged at, its profile, and how it judges. */
export function qualifyOptions(
  options: Pick<CheckOptions, 'level' | 'profile' | 'hooks' | 'patient' | 'judgedBy'>,
  clause: Pick<Clause, 'level' | 'minProfile' | 'verification'>,
): { level: Level; profile: Profile; judgedBy: JudgedBy } {
  const hooks = (options.hooks ?? []).length > 0;
  // Test hooks change the target's state: only the `full` profile may call them (docs/design.md, profiles).
  const profile = hooks ? 'full' : (options.profile ?? clause.minProfile);
  return { level: options.level ?? clause.level, profile, judgedBy: options.judgedBy ?? judgedByDefault() };

  function judgedByDefault(): JudgedBy {
    if (options.patient) return 'patient';
    if (hooks) return 'hooks';
    return clause.verification === 'static' ? 'static' : 'live';
  }
}

/** What the check needs of the run and the target to be judged at all (applicability.ts notApplicableReason). */
function requirementsOf(options: CheckOptions, clause: Clause, profile: Profile): Requirements {
  return {
    needs: options.needs ?? [],
    profile,
    hooks: options.hooks ?? [],
    probes: options.probes ?? [],
    patient: options.patient ?? false,
    bookings: options.bookings ?? false,
    https: clause.verification === 'https',
    scopes: scopesOf(options, clause),
  };
}

/** The scopes a check's roles must hold: its own, or those its profile or bookings imply (applicability.ts). */
function scopesOf(options: CheckOptions, clause: Clause): readonly Scope[] {
  return scopesOfCheck(options.scopes, options.profile ?? clause.minProfile, options.bookings);
}

/** The `t` a check's fn is given: clients of the run's target, its hooks, and what the check records on `meta`. */
function contextFor(input: RunCheckInput, meta: CheckMeta, seed: number): CheckContext {
  const { clause, state, representation } = input;
  const { settings } = state;
  const clients = new Map<Role, PartnerClient>();
  const clientOptions = {
    baseUrl: settings.target.baseUrl,
    representation,
    tokens: state.tokens,
    send: scopeGuarded(state.send, state.tokens, settings),
  };
  return {
    clause,
    representation,
    settings,
    seed,
    client(role) {
      if (!settings.target.clients[role]) {
        throw new Error(`the check uses role ${role}, which the target config lacks: declare it in needs`);
      }
      let client = clients.get(role);
      if (!client) {
        client = createPartnerClient({ ...clientOptions, role });
        clients.set(role, client);
      }
      return client;
    },
    anonymous: createPartnerClient({ ...clientOptions, role: null }),
    get hooks(): TestHooks {
      if (!state.hooks) throw new Error('the check uses test hooks: declare them in its options (hooks: [...])');
      return state.hooks;
    },
    hookIfOffered(name) {
      return settings.profile === 'full' && settings.hooks.includes(name) ? state.hooks : undefined;
    },
    recordReservation(id) {
      meta.createdReservations ??= [];
      if (!meta.createdReservations.includes(id)) meta.createdReservations.push(id);
    },
    notApplicable(detail) {
      throw notApplicableSignal({ kind: 'target', detail });
    },
    forAll: (arbitrary, predicate, opts = {}) => checkForAll(arbitrary, predicate, seed, opts.numRuns ?? settings.runs),
  };
}

/**
 * t.forAll: a case that finds nothing to judge (t.notApplicable inside it) is a case not judged, not a failing case:
 * too few judged cases still end the check not-applicable, through the few-cases signal.
 */
async function checkForAll<T>(
  arbitrary: fc.Arbitrary<T>,
  predicate: (value: T) => unknown,
  seed: number,
  numRuns: number,
): Promise<{ runs: number; judged: number }> {
  let skipped: string | undefined;
  const judgeCase = async (value: T) => {
    try {
      return await predicate(value);
    } catch (error) {
      const reason = notApplicableReasonOf(error);
      if (!reason) throw error;
      skipped = reason.detail;
      return SKIP;
    }
  };
  return forAll(arbitrary, judgeCase, { seed, numRuns }).catch((error) => {
    // The report says why the cases could not be judged, not only how many.
    const fewCases = signalOf(error, 'few-cases');
    if (fewCases && skipped) throw fewCasesSignal(`${fewCases.message} (${skipped})`);
    throw error;
  });
}

/** FNV-1a of the title mixed into the run's seed: stable per check, independent of which other checks run. */
export function deriveSeed(runSeed: number, title: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < title.length; i++) {
    hash ^= title.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash ^ runSeed) | 0;
}

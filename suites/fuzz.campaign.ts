/**
 * The fuzz campaign (README "Fuzz campaigns"): `--fuzz --duration 10m` keeps drawing valid and hostile requests across
 * every endpoint the profile allows, stateful sequences included (book, replay, conflict, cancel twice, read, across
 * two partners), and judges every answer by the rules that need no oracle (suites/support/fuzz-rules.ts). Each new kind
 * of violation is shrunk by fast-check to a minimal sequence and filed under its clause with the sequence, the seed and
 * path to replay it, and the failing exchange with its curl line. Not one of the default suites: the runner includes
 * this file only with --fuzz.
 */
import { appendFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe } from 'vitest';
import { bearerAttacks, foreignKey, type HeaderCase } from '../generators/index.ts';
import { type CheckContext, check } from '../harness/check/check.ts';
import { claim } from '../harness/check/scope.ts';
import type { Role } from '../harness/config/target-config.ts';
import { FuzzFailure, type FuzzModel, type FuzzReal, fuzzCommands } from './support/fuzz-commands.ts';
import { targetListings } from './support/listings.ts';
import { SecretWatch } from './support/secret-watch.ts';

/** Steps per generated sequence: long enough for book → replay → conflict → cancel → cancel → read. */
const MAX_STEPS = 25;
const PROGRESS_EVERY_MS = 5_000;
/** Sequences one fast-check run draws before its lane takes the next seed. */
const SEQUENCES_PER_SEED = 200;
/** Sequences in flight at once (each its own fast-check run and model). */
const LANES = 8;

interface Found {
  failure: FuzzFailure;
  steps: string;
  seed: number;
  path: string | undefined;
  trace: FuzzReal['failingTrace'];
}

describe('fuzz campaign', () => {
  // Spec 7.3.36: "INTERNAL_ERROR | 500 | yes | unexpected error"
  check('7.3.36')(
    {
      name: 'Fuzz campaign: every answer to valid and hostile sequences keeps the rules that need no oracle',
      needs: ['partnerA'],
      timeoutMs: 24 * 3_600_000,
    },
    async (t) => {
      const fuzz = t.settings.fuzz;
      if (!fuzz) return t.notApplicable('run with --fuzz');
      const real = await campaignReal(t);
      const commands = fuzzCommands(t, real);
      const started = Date.now();
      const deadline = started + fuzz.durationMs;
      const found: Found[] = [];
      let lastProgress = started;
      const progress = (done = false) => {
        if (!fuzz.progressFile) return;
        const elapsed = (Date.now() - started) / 1000;
        appendFileSync(
          fuzz.progressFile,
          `${JSON.stringify({ requests: real.counts.requests, failures: found.length, rate: Math.round(real.counts.requests / Math.max(elapsed, 0.001)), elapsed: Math.round(elapsed), left: Math.max(0, Math.round((deadline - Date.now()) / 1000)), done })}\n`,
        );
      };
      const stop = () =>
        Date.now() >= deadline ||
        found.length >= fuzz.maxFailures ||
        (fuzz.maxRequests !== undefined && real.counts.requests >= fuzz.maxRequests);

      // Lanes side by side, each with sequences of its own: one sequence at a time leaves the target mostly idle.
      const lane = async (index: number) => {
        const mine: FuzzReal = { ...real, trace: [], failingTrace: [] };
        for (let seed = (t.seed + index * 1_000_003) | 0; !stop(); seed = (seed + LANES) | 0) {
          try {
            await fc.assert(
              fc.asyncProperty(fc.commands(commands, { maxCommands: MAX_STEPS }), async (sequence) => {
                if (stop()) return;
                mine.trace = [];
                if (Date.now() - lastProgress > PROGRESS_EVERY_MS) {
                  lastProgress = Date.now();
                  progress();
                }
                const model: FuzzModel = { quotes: [], reservations: [] };
                await fc.asyncModelRun(() => ({ model, real: mine }), sequence);
              }),
              {
                seed,
                // A bounded number of sequences per seed (the lane moves on to its next seed): with an unbounded
                // one, a campaign stopped by --max-requests kept drawing empty runs until --duration ran out.
                numRuns: SEQUENCES_PER_SEED,
                interruptAfterTimeLimit: Math.max(1, deadline - Date.now()),
                markInterruptAsFailure: false,
              },
            );
          } catch (error) {
            const failure = failureIn(error);
            if (!failure) throw error;
            if (real.known.has(failure.violation.signature)) continue; // another lane filed it meanwhile
            const path = /path: "([^"]*)"/.exec(String((error as Error).message))?.[1];
            const steps =
              /Counterexample: (.*)/.exec(String((error as Error).message))?.[1] ?? '(sequence not reported)';
            found.push({ failure, steps, seed, path, trace: mine.failingTrace });
            real.known.add(failure.violation.signature);
          }
        }
      };
      await Promise.all(Array.from({ length: LANES }, (_, i) => lane(i)));
      progress(true);

      fileFindings(t, found);
      if (real.counts.requests === 0) t.notApplicable('the campaign sent no request');
    },
  );
});

/** What the campaign's commands run against: the target's listings, its roles, the counts and traces so far. */
async function campaignReal(t: CheckContext): Promise<FuzzReal> {
  const roles = (['partnerA', 'partnerB'] as Role[]).filter((role) => t.settings.target.clients[role]);
  const real: FuzzReal = {
    t,
    roles,
    cat: await targetListings(t, 'partnerA'),
    secrets: new SecretWatch(Object.values(t.settings.target.clients).map((c) => c.clientSecret)),
    known: new Set(),
    counts: { requests: 0, violations: 0 },
    seen: new Map(),
    referencePrefix: `${t.settings.bookingPrefix}FZ`,
    trace: [],
    failingTrace: [],
    bearerCases: [],
  };
  real.bearerCases = await hostileBearers(t, real.secrets);
  return real;
}

/** Each distinct failure filed under its clause; the campaign's own clause (no unexpected 5xx) fails last. */
function fileFindings(t: CheckContext, found: readonly Found[]): void {
  const own: Found[] = [];
  for (const f of found) {
    const v = f.failure.violation;
    if (v.clauseId === t.clause.id) {
      own.push(f);
      continue;
    }
    claim(v.clauseId, false, summary(f), { exchange: f.trace.at(-1) });
  }
  for (const f of own) claim(t.clause.id, false, summary(f), { exchange: f.trace.at(-1) });
}

/**
 * The hostile Authorization values of the campaign, look-alikes of a genuine partnerA token included; the key of
 * the foreign signatures comes from the run's seed, so a replay sends the same tokens.
 */
async function hostileBearers(t: CheckContext, secrets: SecretWatch): Promise<HeaderCase[]> {
  const genuine = await t.client('partnerA').token();
  secrets.addFixed(genuine);
  const [key] = fc.sample(foreignKey(), { seed: t.seed, numRuns: 1 });
  const inputs = { key: key ?? new Uint8Array(64), now: Math.floor(Date.now() / 1000) };
  // Look-alikes need a compact JWS; an opaque token gets the other cases only.
  return bearerAttacks(genuine.split('.').length === 3 ? { ...inputs, genuine } : inputs);
}

function failureIn(error: unknown): FuzzFailure | undefined {
  for (let e: unknown = error, depth = 0; e && depth < 5; depth++) {
    if (e instanceof FuzzFailure) return e;
    e = (e as { cause?: unknown }).cause;
  }
  return undefined;
}

function summary(f: Found): string {
  const v = f.failure.violation;
  return `fuzz: ${v.message} [${v.rule}]; minimal sequence: ${f.steps}; replay: --fuzz --seed ${f.seed}${f.path ? ` (path ${f.path})` : ''}`;
}

/**
 * Answers several checks judge, fetched once per run: the samples every convention of spec 1, 2 and 9 is judged on,
 * the XML/JSON response pairs of 4.14. Each check judges its own clause on them, so one set of requests serves all
 * of them instead of one set each: a target limits each client's requests a minute (spec 8), and the run spends
 * that limit on what is judged. A check that reuses an answer shows its exchanges as its own evidence
 * (harness/http/recorder.ts recordAgain), and gets its own copy of it.
 */
import type { CheckContext } from '../../harness/check/check.ts';
import { hookChanges } from '../../harness/hooks/adapter.ts';
import { type CapturedExchanges, capturing, recordAgain } from '../../harness/http/recorder.ts';
import type { RunSettings } from '../../harness/run-settings.ts';

interface Shared {
  value: unknown;
  captured: CapturedExchanges;
  /** The test-hook state it was fetched in: a hook that changes the target's state since makes it stale. */
  hooks: number;
  /** When it was fetched (Date.now()), for maxAgeMs. */
  fetchedAt: number;
}

export interface SharedStepOptions {
  /**
   * The result does not depend on anything a test hook changes (the data a hook sets, a partner it disables and
   * restores): a rate-limit fill's 429, say. Kept for the whole run instead of fetched again after such a hook.
   */
  acrossHooks?: boolean;
  /**
   * Fetched again once the kept result is this old: what a target lists may change at any time (spec 2), so a read
   * of it is reused only while fresh (listings.ts LISTING_MAX_AGE_MS).
   */
  maxAgeMs?: number;
  /**
   * Only results this accepts are kept or handed on (a step that needs a clean success: a failed read is sent again
   * by the next check, with the exchange in its evidence, rather than blocking it on another check's answer).
   */
  reusable?: (value: unknown) => boolean;
}

/** Per run (its settings object), per key. */
const shared = new WeakMap<RunSettings, Map<string, Shared>>();

/**
 * `fetch()`'s result for `key`, fetched by the first check of the run that needs it (its failure is that check's:
 * filed, blocking, with its evidence, and nothing kept) and handed to every later one as a copy with the exchanges
 * that fetched it. `key` must name everything the result depends on (role, representation, the draw). Fetched again
 * after a test hook that changes the target's state.
 */
export async function sharedStep<T>(
  t: CheckContext,
  key: string,
  fetch: () => Promise<T>,
  options: SharedStepOptions = {},
): Promise<T> {
  let entries = shared.get(t.settings);
  if (!entries) {
    entries = new Map();
    shared.set(t.settings, entries);
  }
  const kept = entries.get(key);
  const young =
    kept !== undefined && (options.maxAgeMs === undefined || Date.now() - kept.fetchedAt < options.maxAgeMs);
  const usable = kept !== undefined && (options.reusable === undefined || options.reusable(kept.value));
  if (kept && young && usable && (options.acrossHooks || kept.hooks === hookChanges())) {
    recordAgain(kept.captured);
    return structuredClone(kept.value) as T;
  }
  const before = hookChanges();
  const fetchedAt = Date.now();
  const { result, captured } = await capturing(fetch);
  const keep = options.reusable === undefined || options.reusable(result);
  if (keep && (options.acrossHooks || hookChanges() === before)) {
    entries.set(key, { value: structuredClone(result), captured, hooks: before, fetchedAt });
  }
  return result;
}

/** A draw shared by every check of the run (the run's seed and the case's index), so their answers can be too. */
export function sharedDraw(t: CheckContext, index: number): number {
  let hash = (t.settings.seed ^ 0x9e3779b9) >>> 0;
  hash = Math.imul(hash ^ (index + 1), 0x85ebca6b) >>> 0;
  hash = Math.imul(hash ^ (hash >>> 13), 0xc2b2ae35) >>> 0;
  return ((hash ^ (hash >>> 16)) >>> 0) % 1_000_000;
}

/**
 * What a load run may do (load/README.md, Native engine, "Safety"): only loopback targets unless the target config says
 * the user owns the target, and bounded duration, rate and concurrency. Engine-neutral: the k6 entry scripts apply it
 * too.
 */
import type { ArrivalModel, LoadOptions, LoadTarget, PhaseDefinition } from './model.ts';

export const LOAD_BOUNDS = {
  maxDurationS: 600,
  /** Iterations a second of an open-model phase. */
  maxRate: 2_000,
  /** Virtual users (connections) of a closed-model phase. */
  maxVus: 1_000,
  maxIterations: 1_000_000,
} as const;

export class LoadSafetyError extends Error {
  override readonly name = 'LoadSafetyError';
}

/** The host of an http(s) URL, without brackets (no URL class on k6). */
export function hostOf(url: string): string | undefined {
  const match = /^https?:\/\/(?:[^@/?#]*@)?(\[[^\]]+\]|[^:/?#]+)/i.exec(url);
  return match?.[1]?.replace(/^\[|\]$/g, '').toLowerCase();
}

export function isLoopbackHost(host: string): boolean {
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  if (host === '::1' || host === '0:0:0:0:0:0:0:1') return true;
  const v4 = /^(?:::ffff:)?(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(host);
  return v4 !== null && v4[1] === '127' && v4.slice(1).every((part) => Number(part) <= 255);
}

/** Refuses a non-loopback target unless the target config says `owned: true`. */
export function assertTargetAllowed(target: LoadTarget): void {
  const host = hostOf(target.baseUrl);
  if (host === undefined) throw new LoadSafetyError(`target ${target.baseUrl} is not an http(s) URL`);
  if (!isLoopbackHost(host) && target.owned !== true) {
    throw new LoadSafetyError(
      `refusing to send load to ${host}: it is not a loopback address and the target config does not say "owned": true (set it only for a deployment you own: load scenarios exhaust rate limits and create bookings)`,
    );
  }
}

export function assertOptionsBounded(options: LoadOptions): void {
  const { rate, durationS } = options;
  if (!Number.isFinite(rate) || rate <= 0 || rate > LOAD_BOUNDS.maxRate) {
    throw new LoadSafetyError(`--rate must be a number above 0 and at most ${LOAD_BOUNDS.maxRate} (got ${rate})`);
  }
  if (!Number.isFinite(durationS) || durationS <= 0 || durationS > LOAD_BOUNDS.maxDurationS) {
    throw new LoadSafetyError(
      `--duration must be above 0 and at most ${LOAD_BOUNDS.maxDurationS} s (got ${durationS})`,
    );
  }
}

function arrivalProblem(arrival: ArrivalModel): string | undefined {
  const duration = arrival.kind === 'per-vu-iterations' ? arrival.maxDurationS : arrival.durationS;
  if (!(duration > 0 && duration <= LOAD_BOUNDS.maxDurationS)) return `duration ${duration} s`;
  if (arrival.kind === 'constant-arrival-rate') {
    if (!(arrival.rate > 0 && arrival.rate <= LOAD_BOUNDS.maxRate)) return `rate ${arrival.rate}/s`;
    return undefined;
  }
  if (!(Number.isInteger(arrival.vus) && arrival.vus > 0 && arrival.vus <= LOAD_BOUNDS.maxVus)) {
    return `${arrival.vus} VUs`;
  }
  if (arrival.kind === 'per-vu-iterations' && !(arrival.vus * arrival.iterations <= LOAD_BOUNDS.maxIterations)) {
    return `${arrival.vus * arrival.iterations} iterations`;
  }
  return undefined;
}

/** Every phase within the bounds (a scenario may derive its phases from the options). */
export function assertPhasesBounded(phases: PhaseDefinition<unknown>[]): void {
  for (const phase of phases) {
    const problem = arrivalProblem(phase.arrival);
    if (problem) {
      throw new LoadSafetyError(
        `phase ${phase.name}: ${problem} is out of bounds (≤ ${LOAD_BOUNDS.maxDurationS} s, ≤ ${LOAD_BOUNDS.maxRate}/s, ≤ ${LOAD_BOUNDS.maxVus} VUs)`,
      );
    }
  }
}

import type { ApiResult } from './partner-client.ts';

/**
 * Spec 6: the read operations "return current state at least once" and clients poll. A list served from a replica
 * or a search index may show a booking or a cancel a moment after the call that made it has answered (audit
 * 2026-11-29, finding 19; docs/ambiguities.md S36). So the partner client notes each reservation its role created
 * or cancelled, and a GET /reservations answer that does not show one of the last LIST_LAG_MS yet is read again,
 * backing off, until it does or that time has passed; the check judges the last answer. A lag is the transport's to
 * wait out, as a 429 is: no check judges a list before it has had the time spec 6 gives it, and on a list that is
 * current (the reference's) nothing is read twice.
 */
export const LIST_LAG_MS = 5_000;

/** A reservation the role created (`status` undefined) or cancelled, and when the answer came (ms). */
interface Write {
  id: string;
  status?: string;
  at: number;
}

interface ListState {
  writes: Write[];
  /** A list that stayed behind for LIST_LAG_MS: not a lag but something for the checks to judge; no more waiting. */
  gaveUp: boolean;
  /** The longest a re-read list took to catch up (0: never behind). */
  lagMs: number;
}

/** Per target and role (one list each); a process certifies one target at a time, a test may use several. */
const states = new Map<string, ListState>();

export function listKey(baseUrl: string, role: string): string {
  return `${baseUrl}|${role}`;
}

function stateOf(key: string): ListState {
  let state = states.get(key);
  if (!state) {
    state = { writes: [], gaveUp: false, lagMs: 0 };
    states.set(key, state);
  }
  return state;
}

const LIST_PATH = /^\/reservations(?:\?|$)/;
const CANCEL_PATH = /^\/reservations\/([^/?]+)\/cancel$/;

type Obj = Record<string, unknown>;
const isObj = (value: unknown): value is Obj => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Notes a booking (201, or a replay's 200) or a cancel (200) the role's answer reports. */
export function noteWrite(key: string, method: string, path: string, result: ApiResult, now = Date.now()): void {
  if (method !== 'POST' || !isObj(result.body)) return;
  const id = result.body.reservationId;
  if (typeof id !== 'string') return;
  const state = stateOf(key);
  state.writes = state.writes.filter((w) => now - w.at < LIST_LAG_MS);
  if (path === '/reservations' && (result.status === 201 || result.status === 200)) {
    if (!state.writes.some((w) => w.id === id && w.status === undefined)) state.writes.push({ id, at: now });
  } else if (CANCEL_PATH.test(path) && result.status === 200 && typeof result.body.status === 'string') {
    state.writes.push({ id, status: result.body.status, at: now });
  }
}

/**
 * Which of the role's recent writes a list answer does not show yet: a booking missing from a page that, newest
 * first, has room for it (fewer of the role's recent bookings came after it than the page holds), or a cancelled
 * reservation listed in another status. Empty when the answer is not a list.
 */
export function unseenWrites(key: string, result: ApiResult, now = Date.now()): string[] {
  if (result.status !== 200 || !isObj(result.body) || !Array.isArray(result.body.reservations)) return [];
  const items = result.body.reservations.filter(isObj);
  const room = Math.max(items.length, typeof result.body.limit === 'number' ? result.body.limit : 0);
  const recent = stateOf(key).writes.filter((w) => now - w.at < LIST_LAG_MS);
  const bookings = recent.filter((w) => w.status === undefined);
  const unseen: string[] = [];
  for (const write of recent) {
    const listed = items.find((r) => r.reservationId === write.id);
    if (write.status !== undefined) {
      if (listed && listed.status !== write.status) unseen.push(`${write.id} ${write.status}`);
    } else if (!listed && bookings.filter((b) => b.at > write.at).length < room) unseen.push(write.id);
  }
  return unseen;
}

/**
 * `result` of `GET path`, or when it does not show the role's recent writes yet, the first re-read that does (or the
 * last, after LIST_LAG_MS).
 */
export async function caughtUpList(
  key: string,
  path: string,
  result: ApiResult,
  reread: () => Promise<ApiResult>,
): Promise<ApiResult> {
  const state = stateOf(key);
  if (state.gaveUp || !LIST_PATH.test(path) || unseenWrites(key, result).length === 0) return result;
  const started = Date.now();
  let last = result;
  for (let wait = 250; ; wait = Math.min(wait * 2, 1_000)) {
    if (Date.now() + wait - started > LIST_LAG_MS) {
      state.gaveUp = true;
      return last;
    }
    await new Promise((resolve) => setTimeout(resolve, wait));
    last = await reread();
    if (unseenWrites(key, last).length === 0) {
      state.lagMs = Math.max(state.lagMs, Date.now() - started);
      return last;
    }
  }
}

/**
 * How long the role's list has been seen to lag (0: never): a check that reads the list for what must not be there
 * (a refused booking created nothing) waits this long first, so a lagging list cannot hide it.
 */
export function listLagMs(key: string): number {
  return states.get(key)?.lagMs ?? 0;
}

/** Between tests of the harness: every role's list is taken as current again. */
export function forgetListLag(): void {
  states.clear();
}

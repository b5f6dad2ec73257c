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
  /**
   * The shortest time seen from a write's answer to a list answer that showed it: at most this far behind, as far as
   * the run has seen (undefined: no list has shown one of the role's writes yet, so how far behind it is is unknown).
   */
  shownWithinMs: number | undefined;
}

/** Per target and role (one list each); a process certifies one target at a time, a test may use several. */
const states = new Map<string, ListState>();

export function listKey(baseUrl: string, role: string): string {
  return `${baseUrl}|${role}`;
}

function stateOf(key: string): ListState {
  let state = states.get(key);
  if (!state) {
    state = { writes: [], gaveUp: false, shownWithinMs: undefined };
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

/** The reservations of a list answer; undefined when the answer is not a list. */
function listedItems(result: ApiResult): Obj[] | undefined {
  if (result.status !== 200 || !isObj(result.body) || !Array.isArray(result.body.reservations)) return undefined;
  return result.body.reservations.filter(isObj);
}

/**
 * Which of the role's recent writes a list answer does not show yet: a booking missing from a page that, newest
 * first, has room for it (fewer of the role's recent bookings came after it than the page holds), or a cancelled
 * reservation listed in another status. Empty when the answer is not a list.
 */
export function unseenWrites(key: string, result: ApiResult, now = Date.now()): string[] {
  const items = listedItems(result);
  if (!items || !isObj(result.body)) return [];
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

/** Notes how soon after its answer each recent write the list shows was shown (the list's ListState.shownWithinMs). */
function noteShown(state: ListState, result: ApiResult, now: number): void {
  const items = listedItems(result);
  if (!items) return;
  for (const write of state.writes) {
    if (now - write.at >= LIST_LAG_MS) continue;
    const listed = items.find((r) => r.reservationId === write.id);
    if (!listed || (write.status !== undefined && listed.status !== write.status)) continue;
    state.shownWithinMs = Math.min(state.shownWithinMs ?? Number.POSITIVE_INFINITY, now - write.at);
  }
}

/** Whether the role has a write recent enough for a list read to show it (and so to measure how far behind it is). */
export function hasRecentWrites(key: string, now = Date.now()): boolean {
  return (states.get(key)?.writes ?? []).some((w) => now - w.at < LIST_LAG_MS);
}

/**
 * `result` of `GET path`, or when it does not show the role's recent writes yet, the first re-read that does (or the
 * last, after LIST_LAG_MS). What it shows of them measures how far behind the list is (listLagMs).
 */
export async function caughtUpList(
  key: string,
  path: string,
  result: ApiResult,
  reread: () => Promise<ApiResult>,
): Promise<ApiResult> {
  if (!LIST_PATH.test(path)) return result;
  const state = stateOf(key);
  const last = state.gaveUp ? result : await readUntilShown(state, key, result, reread);
  noteShown(state, last, Date.now());
  return last;
}

async function readUntilShown(
  state: ListState,
  key: string,
  result: ApiResult,
  reread: () => Promise<ApiResult>,
): Promise<ApiResult> {
  if (unseenWrites(key, result).length === 0) return result;
  const started = Date.now();
  let last = result;
  for (let wait = 250; ; wait = Math.min(wait * 2, 1_000)) {
    if (Date.now() + wait - started > LIST_LAG_MS) {
      state.gaveUp = true;
      return last;
    }
    await new Promise((resolve) => setTimeout(resolve, wait));
    last = await reread();
    if (unseenWrites(key, last).length === 0) return last;
  }
}

/**
 * How far behind the role's list may be, as far as the run has seen: the shortest time from one of the role's writes
 * to a list that showed it (0 for a list that is current), or undefined while no list has shown one. A check that
 * reads the list for what must not be there (a refused booking created nothing) reads it no sooner than this after
 * the refusal, and LIST_LAG_MS after it when undefined, so a lagging list cannot hide what is there.
 */
export function listLagMs(key: string): number | undefined {
  return states.get(key)?.shownWithinMs;
}

/** Between tests of the harness: every role's list is taken as current again. */
export function forgetListLag(): void {
  states.clear();
}

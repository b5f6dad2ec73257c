import { afterEach, describe, expect, it } from 'vitest';
import {
  caughtUpList,
  forgetListLag,
  hasRecentWrites,
  LIST_LAG_MS,
  listKey,
  listLagMs,
  noteWrite,
  unseenWrites,
} from './list-lag.ts';
import type { ApiResult } from './partner-client.ts';

const KEY = listKey('http://127.0.0.1:1', 'partnerA');

function answer(status: number, body: unknown): ApiResult {
  const text = JSON.stringify(body);
  return {
    status,
    headers: {},
    body,
    text,
    excerpt: text.slice(0, 300),
    bytes: new TextEncoder().encode(text),
    mediaType: 'application/json',
    requestId: null,
  };
}

const reservation = (id: string, status = 'confirmed') => ({ reservationId: id, status });
const list = (limit: number, ...items: object[]) => answer(200, { reservations: items, count: items.length, limit });

afterEach(() => forgetListLag());

describe('the list read until it shows the role’s own writes (spec 6)', () => {
  it('a booking missing from a page with room for it is unseen; listed, it is seen', () => {
    noteWrite(KEY, 'POST', '/reservations', answer(201, reservation('R1')), 1_000);
    expect(unseenWrites(KEY, list(25), 1_500)).toEqual(['R1']);
    expect(unseenWrites(KEY, list(25, reservation('R1')), 1_500)).toEqual([]);
  });

  it('a full page of newer bookings leaves no room for an older one: not counted as unseen', () => {
    noteWrite(KEY, 'POST', '/reservations', answer(201, reservation('R1')), 1_000);
    noteWrite(KEY, 'POST', '/reservations', answer(201, reservation('R2')), 1_100);
    expect(unseenWrites(KEY, list(1, reservation('R2')), 1_200)).toEqual([]);
    expect(unseenWrites(KEY, list(2, reservation('R2')), 1_200)).toEqual(['R1']);
  });

  it('a cancel listed in its former status is unseen', () => {
    noteWrite(KEY, 'POST', '/reservations/R1/cancel', answer(200, reservation('R1', 'cancelled')), 1_000);
    expect(unseenWrites(KEY, list(25, reservation('R1')), 1_100)).toEqual(['R1 cancelled']);
    expect(unseenWrites(KEY, list(25, reservation('R1', 'cancelled')), 1_100)).toEqual([]);
  });

  it('refusals, other roles and writes older than the lag allowed are not waited for', () => {
    noteWrite(KEY, 'POST', '/reservations', answer(409, { error: { code: 'QUOTE_EXPIRED' } }), 1_000);
    noteWrite(listKey('http://127.0.0.1:1', 'partnerB'), 'POST', '/reservations', answer(201, reservation('B1')));
    expect(unseenWrites(KEY, list(25), 1_100)).toEqual([]);
    noteWrite(KEY, 'POST', '/reservations', answer(201, reservation('R1')), 1_000);
    expect(unseenWrites(KEY, list(25), 7_000)).toEqual([]);
  });

  it('re-reads a list that lags until it catches up, and remembers how long that took', async () => {
    const written = Date.now();
    noteWrite(KEY, 'POST', '/reservations', answer(201, reservation('R1')), written);
    const answers = [list(25), list(25, reservation('R1'))];
    let reads = 0;
    const result = await caughtUpList(KEY, '/reservations?limit=25', list(25), async () => {
      reads += 1;
      return answers[Math.min(reads, answers.length - 1)] ?? list(25);
    });
    expect(result.body).toMatchObject({ reservations: [reservation('R1')] });
    expect(reads).toBe(1);
    // The first re-read waits 250 ms: the list showed the booking no sooner than that after its answer.
    expect(listLagMs(KEY)).toBeGreaterThanOrEqual(250);
    expect(listLagMs(KEY)).toBeLessThanOrEqual(Date.now() - written);
  });

  it('a list that is current is read once', async () => {
    noteWrite(KEY, 'POST', '/reservations', answer(201, reservation('R1')));
    let reads = 0;
    const current = list(25, reservation('R1'));
    expect(
      await caughtUpList(KEY, '/reservations', current, async () => {
        reads += 1;
        return current;
      }),
    ).toBe(current);
    expect(reads).toBe(0);
    // Shown on the first read: at most as far behind as the time since the booking's answer.
    expect(listLagMs(KEY)).toBeLessThan(LIST_LAG_MS);
  });

  it('how far behind a list is stays unknown until a list shows one of the role’s writes', async () => {
    expect(listLagMs(KEY)).toBeUndefined();
    expect(hasRecentWrites(KEY)).toBe(false);
    // A list read with no write to show measures nothing.
    await caughtUpList(KEY, '/reservations', list(25, reservation('OLD')), async () => list(25));
    expect(listLagMs(KEY)).toBeUndefined();
    noteWrite(KEY, 'POST', '/reservations', answer(201, reservation('R1')));
    expect(hasRecentWrites(KEY)).toBe(true);
    // Another path (a reservation by id) is not the list.
    await caughtUpList(KEY, '/reservations/R1', answer(200, reservation('R1')), async () => list(25));
    expect(listLagMs(KEY)).toBeUndefined();
  });

  it('the shortest time a list took to show a write is kept; a cancel counts once listed in its new status', async () => {
    noteWrite(KEY, 'POST', '/reservations/R1/cancel', answer(200, reservation('R1', 'cancelled')), Date.now() - 2_000);
    await caughtUpList(KEY, '/reservations', list(25, reservation('R1', 'cancelled')), async () => list(25));
    const first = listLagMs(KEY) ?? Number.NaN;
    expect(first).toBeGreaterThanOrEqual(2_000);
    noteWrite(KEY, 'POST', '/reservations', answer(201, reservation('R2')), Date.now() - 1_000);
    await caughtUpList(KEY, '/reservations', list(25, reservation('R2'), reservation('R1', 'cancelled')), async () =>
      list(25),
    );
    expect(listLagMs(KEY)).toBeLessThan(first);
    expect(listLagMs(KEY)).toBeGreaterThanOrEqual(1_000);
  });
});

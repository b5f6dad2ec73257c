import { describe, expect, it } from 'vitest';
import type { RecordedExchange } from '../../contract/client-clauses/exchange.ts';
import { CLIENT_CLAUSES } from '../../contract/client-clauses/index.ts';
import { clientVerdict, JUDGED_CLAUSE_IDS, judgeSession, scenarioEvents } from './judge.ts';
import { parseRecording } from './recording.ts';

/**
 * Hand-written recordings of a good and a naive client for each clause of the client clause catalogue: the good one
 * passes it, the naive one fails it (warns, for a SHOULD) with the exchanges that show it.
 */
const API = '/api/partner/v1';
const CLIENT = 'client-a';
const TOKEN1 = 'aaaaaaaaaaaaaaaa';
const TOKEN2 = 'bbbbbbbbbbbbbbbb';
const T0 = 1_800_000_000_000;

type Partial2 = Omit<Partial<RecordedExchange>, 'headers'> & { headers?: Partial<RecordedExchange['headers']> };

/** Builds a session: each exchange at T0 + `at` ms (default: one second after the previous), seq in order. */
function session(...steps: Partial2[]): RecordedExchange[] {
  let clock = T0;
  return steps.map((step, index) => {
    clock = step.receivedAtMs ?? clock + 1000;
    const { headers, ...rest } = step;
    return {
      v: 1,
      seq: index + 1,
      requestId: `req-${index + 1}`,
      clientId: CLIENT,
      method: 'GET',
      path: `${API}/locations`,
      query: null,
      protocol: 'https',
      bodySha256: null,
      bodyBytes: 0,
      status: 200,
      errorCode: null,
      retryable: null,
      retryAfterS: null,
      idempotentReplay: false,
      receivedAtMs: clock,
      respondedAtMs: clock + 20,
      ...rest,
      headers: {
        accept: 'application/json',
        contentType: null,
        authorization: { scheme: 'Bearer', tokenHash: TOKEN1 },
        idempotencyKey: null,
        ...headers,
      },
    };
  });
}

const token = (hash = TOKEN1, over: Partial2 = {}): Partial2 => ({
  method: 'POST',
  path: `${API}/oauth/token`,
  bodySha256: 'f0rm',
  bodyBytes: 29,
  headers: { authorization: { scheme: 'Basic' }, contentType: 'application/x-www-form-urlencoded' },
  tokenRequest: { grantType: 'client_credentials', scope: null, clientIdInForm: false, clientSecretInForm: false },
  issuedToken: { tokenHash: hash, expiresInS: 600, scope: 'fleet:read' },
  ...over,
});
const read = (over: Partial2 = {}): Partial2 => ({ ...over });
const book = (key: string | null, body: Record<string, unknown>, over: Partial2 = {}): Partial2 => ({
  method: 'POST',
  path: `${API}/reservations`,
  status: 201,
  bodySha256: `sha-${JSON.stringify(body)}`,
  bodyBytes: 100,
  booking: { body },
  ...over,
  headers: { contentType: 'application/json', idempotencyKey: key, ...over.headers },
});
const failed = (status: number, errorCode: string, retryable: boolean | null = false): Partial2 => ({
  status,
  errorCode,
  retryable,
});
const Q1 = { quoteId: 'quote-one-1', partnerReference: 'REF-1' };
const Q2 = { quoteId: 'quote-two-2', partnerReference: 'REF-1' };

function outcome(clauseId: string, exchanges: RecordedExchange[]) {
  const judgement = judgeSession(exchanges).find((j) => j.clauseId === clauseId);
  if (!judgement) throw new Error(`no judgement of ${clauseId}`);
  return judgement;
}

/** clause → [good session, naive session, the seqs the naive one is caught on]. */
const CASES: Record<string, [RecordedExchange[], RecordedExchange[], number[]]> = {
  C2a: [
    session(token(), book('key-00000001', Q1)),
    session(token(), book('key-00000001', Q1, failed(400, 'VALIDATION_ERROR'))),
    [2],
  ],
  'C4.1a': [
    session(token(), read()),
    session(
      token(TOKEN1, { headers: { authorization: { scheme: 'Basic' }, contentType: 'application/json' } }),
      read(),
    ),
    [1],
  ],
  'C4.1b': [
    session(token(), read()),
    session(
      token(TOKEN1, {
        tokenRequest: { grantType: 'password', scope: null, clientIdInForm: false, clientSecretInForm: false },
      }),
    ),
    [1],
  ],
  'C4.1c': [session(token(), read()), session(token(TOKEN1, { ...failed(400, 'invalid_scope', null) })), [1]],
  'C4.1d': [
    session(token(), read()),
    session(
      token(TOKEN1, {
        tokenRequest: { grantType: 'client_credentials', scope: null, clientIdInForm: true, clientSecretInForm: true },
      }),
    ),
    [1],
  ],
  'C4.7a': [
    session(token(), book('key-00000001', Q1)),
    session(token(), book(null, Q1, failed(400, 'IDEMPOTENCY_KEY_REQUIRED'))),
    [2],
  ],
  'C4.7b': [session(token(), book('key-00000001', Q1)), session(token(), book('short', Q1)), [2]],
  'C4.7c': [
    session(token(), book('key-00000001', Q1), book('key-00000002', Q2)),
    session(token(), book('key-00000001', Q1), book('key-00000001', Q2, failed(409, 'IDEMPOTENCY_CONFLICT'))),
    [2, 3],
  ],
  'C4.7d': [
    session(
      token(),
      book('key-00000001', Q1, failed(503, 'DEPENDENCY_UNAVAILABLE', true)),
      book('key-00000001', Q1, { status: 200 }),
    ),
    session(token(), book('key-00000001', Q1, failed(503, 'DEPENDENCY_UNAVAILABLE', true)), book('key-00000002', Q1)),
    [2, 3],
  ],
  'C4.7e': [
    session(
      token(),
      book('key-00000001', Q1, failed(409, 'IDEMPOTENT_REPLAY_IN_FLIGHT', true)),
      book('key-00000001', Q1, { status: 200 }),
    ),
    session(token(), book('key-00000001', Q1, failed(409, 'IDEMPOTENT_REPLAY_IN_FLIGHT', true)), read()),
    [2],
  ],
  'C4.7f': [
    // A reference refused with the quote may name the re-booked rental: nothing was made under it.
    session(token(), book('key-00000001', Q1, failed(409, 'QUOTE_EXPIRED')), book('key-00000002', Q2)),
    session(token(), book('key-00000001', Q1), book('key-00000002', Q2)),
    [2, 3],
  ],
  'C4.10': [
    session(token(), book('key-00000001', Q1), read({ method: 'POST', path: `${API}/reservations/r1/cancel` })),
    session(
      token(),
      book('key-00000001', Q1),
      read({ method: 'PATCH', path: `${API}/reservations/r1`, ...failed(501, 'MODIFICATION_NOT_SUPPORTED') }),
    ),
    [3],
  ],
  'C4.13a': [
    session(token(), read()),
    session(token(), read({ headers: { accept: 'text/html' }, ...failed(406, 'NOT_ACCEPTABLE') })),
    [2],
  ],
  'C4.13b': [
    session(token(), book('key-00000001', Q1)),
    session(
      token(),
      book('key-00000001', Q1, { headers: { contentType: 'text/plain' }, ...failed(415, 'UNSUPPORTED_MEDIA_TYPE') }),
    ),
    [2],
  ],
  'C5.2': [
    session(token(), read()),
    session(
      token(TOKEN1, {
        headers: { authorization: null, contentType: 'application/x-www-form-urlencoded' },
        tokenRequest: { grantType: 'client_credentials', scope: null, clientIdInForm: true, clientSecretInForm: true },
      }),
    ),
    [1],
  ],
  'C5.3a': [
    session(token(), read()),
    session(token(), read({ headers: { authorization: null }, ...failed(401, 'UNAUTHORIZED') })),
    [2],
  ],
  'C5.3b': [
    // Renewed after a refusal, then again in the last minute of the second token.
    session(
      token(),
      read(),
      read(failed(401, 'INVALID_TOKEN')),
      token(TOKEN2),
      read({ headers: { authorization: { scheme: 'Bearer', tokenHash: TOKEN2 } } }),
      token('cccccccccccccccc', { receivedAtMs: T0 + 4000 + 560_000 }),
    ),
    session(
      token(),
      read(),
      token(TOKEN2),
      read({ headers: { authorization: { scheme: 'Bearer', tokenHash: TOKEN2 } } }),
    ),
    [1, 3],
  ],
  'C5.7': [session(token(), read()), session(token(), read({ protocol: 'http' })), [2]],
  C6: [
    session(
      token(),
      book('key-00000001', Q1, { booking: { body: Q1, reservationId: 'RSV-1' } }),
      read({ path: `${API}/reservations/RSV-1` }),
      read({ method: 'POST', path: `${API}/reservations/RSV-1/cancel` }),
    ),
    session(
      token(),
      book('key-00000001', Q1, { booking: { body: Q1, reservationId: 'RSV-1' } }),
      read({ path: `${API}/reservations/RSV-1` }),
      read({ method: 'POST', path: `${API}/reservations/RSV-1/cancel` }),
      read({ method: 'POST', path: `${API}/reservations/RSV-1/cancel` }),
    ),
    [5],
  ],
  'C7.2b': [
    session(token(), read({ path: `${API}/reservations/nope`, ...failed(404, 'NOT_FOUND') }), read()),
    session(
      token(),
      read({ path: `${API}/reservations/nope`, ...failed(404, 'NOT_FOUND') }),
      read({ path: `${API}/reservations/nope`, ...failed(404, 'NOT_FOUND') }),
    ),
    [2, 3],
  ],
  'C7.3a': [
    session(
      token(),
      book('key-00000001', Q1, failed(409, 'QUOTE_EXPIRED')),
      read({ method: 'POST', path: `${API}/quotes`, status: 201 }),
      book('key-00000002', Q2),
    ),
    session(
      token(),
      book('key-00000001', Q1, failed(409, 'QUOTE_EXPIRED')),
      book('key-00000002', { ...Q1, remarks: 'again' }),
    ),
    [2, 3],
  ],
  'C7.3b': [
    session(token(), book('key-00000001', Q1, failed(409, 'QUOTE_STALE')), book('key-00000002', Q2)),
    session(
      token(),
      book('key-00000001', Q1, failed(409, 'QUOTE_STALE')),
      book('key-00000002', { ...Q1, remarks: 'again' }),
    ),
    [2, 3],
  ],
  'C7.3c': [
    session(token(), book('key-00000001', Q1, failed(422, 'RESERVATION_REJECTED')), read()),
    session(token(), book('key-00000001', Q1, failed(422, 'RESERVATION_REJECTED')), book('key-00000002', Q1)),
    [2, 3],
  ],
  'C8.3': [
    session(
      token(),
      read({ ...failed(429, 'RATE_LIMITED', true), retryAfterS: 2 }),
      read({ receivedAtMs: T0 + 2000 + 20 + 2000 }),
    ),
    session(
      token(),
      read({ ...failed(429, 'RATE_LIMITED', true), retryAfterS: 2 }),
      read({ receivedAtMs: T0 + 2000 + 20 + 500 }),
    ),
    [2, 3],
  ],
};

/** Clauses no recording can show yet: outside the traffic, or needing a scenario the sandbox does not run. */
const NEVER_JUDGED = ['C2.1a', 'C2.1b'];

// C7.2a: two answers with the same code, each worded its own way (the resilience scenario). The good client recovers
// from both; the naive one only from the wording it knows, and goes on with other calls after the other.
const reworded = (over: Partial2): Partial2 => ({ ...over, messageReworded: true });
const lostAnswer = (key: string, body: Record<string, unknown>) =>
  book(key, body, reworded({ ...failed(503, 'DEPENDENCY_UNAVAILABLE', true), provoked: 'lost-answer' }));
CASES['C7.2a'] = [
  session(
    token(),
    lostAnswer('key-00000001', Q1),
    book('key-00000001', Q1, { status: 200, idempotentReplay: true }),
    lostAnswer('key-00000002', Q2),
    book('key-00000002', Q2, { status: 200, idempotentReplay: true }),
  ),
  session(
    token(),
    lostAnswer('key-00000001', Q1),
    book('key-00000001', Q1, { status: 200, idempotentReplay: true }),
    lostAnswer('key-00000002', Q2),
    read(),
  ),
  [2, 4],
];

describe('client judge', () => {
  it('has a judgement for every clause, and a good and a naive recording for every judgeable one', () => {
    expect([...JUDGED_CLAUSE_IDS].sort()).toEqual(CLIENT_CLAUSES.map((c) => c.id).sort());
    expect([...Object.keys(CASES), ...NEVER_JUDGED].sort()).toEqual(CLIENT_CLAUSES.map((c) => c.id).sort());
  });

  for (const [clauseId, [good, naive, evidence]] of Object.entries(CASES)) {
    const level = CLIENT_CLAUSES.find((c) => c.id === clauseId)?.level;
    it(`${clauseId}: the good client passes, the naive one ${level === 'MUST' ? 'fails' : 'warns'} on its exchanges`, () => {
      expect(outcome(clauseId, good)).toMatchObject({ outcome: 'pass', evidence: [] });
      expect(outcome(clauseId, naive)).toMatchObject({
        outcome: level === 'MUST' ? 'fail' : 'warn',
        evidence,
      });
    });
  }

  it('does not judge, never passes, a clause the session never exercised', () => {
    const readsOnly = session(token(), read());
    for (const id of ['C4.7a', 'C4.7c', 'C4.7d', 'C4.10', 'C7.3a', 'C7.3c', 'C8.3', 'C7.2b', 'C2a', ...NEVER_JUDGED]) {
      const judgement = outcome(id, readsOnly);
      expect(judgement.outcome, id).toBe('not-judged');
      expect(judgement.reason, id).not.toBe('');
    }
    expect(outcome('C5.7', session(token(TOKEN1, { protocol: 'http' }), read({ protocol: 'http' }))).outcome).toBe(
      'not-judged',
    );
  });

  it('C7.2a: a client that never went on from a reworded error is not judged; one that met none, neither', () => {
    const gaveUp = session(token(), lostAnswer('key-00000001', Q1));
    expect(outcome('C7.2a', gaveUp)).toMatchObject({ outcome: 'not-judged' });
    expect(outcome('C7.2a', gaveUp).reason).toMatch(/went on from none/);
    const plain = session(token(), book('key-00000001', Q1, failed(503, 'DEPENDENCY_UNAVAILABLE', true)));
    expect(outcome('C7.2a', plain).reason).toMatch(/no error message was reworded/);
  });

  it('lists what the scenario provoked with the reaction, and a lost answer replayed as one reservation', () => {
    const events = scenarioEvents(
      session(
        token(),
        book('key-00000001', Q1, {
          ...failed(503, 'DEPENDENCY_UNAVAILABLE', true),
          provoked: 'lost-answer',
          scenarioStep: 'lost',
          withheld: { status: 201, reservationId: 'RSV-1' },
        }),
        book('key-00000001', Q1, {
          status: 200,
          idempotentReplay: true,
          booking: { body: Q1, reservationId: 'RSV-1' },
        }),
        book('key-00000003', Q2, { ...failed(422, 'RESERVATION_REJECTED'), provoked: 'declined' }),
      ),
    );
    expect(events).toEqual([
      { seq: 2, provoked: 'lost-answer', step: 'lost', reaction: 3, withheldReservationId: 'RSV-1', replayed: true },
      { seq: 4, provoked: 'declined', step: null, reaction: null, withheldReservationId: null, replayed: false },
    ]);
  });

  it('does not count a request already on its way when the 429 was answered', () => {
    const inFlight = session(
      token(),
      read({ ...failed(429, 'RATE_LIMITED', true), retryAfterS: 2 }),
      read({ receivedAtMs: T0 + 2000 + 10 }),
    );
    expect(outcome('C8.3', inFlight).outcome).toBe('pass');
  });

  it('judges each client apart', () => {
    const twoClients = session(token(), read(), token(TOKEN2, { clientId: 'client-b' }));
    expect(outcome('C5.3b', twoClients).outcome).toBe('pass');
  });

  it('gives the verdict: failed on a MUST, passed with only SHOULD warnings, not judged without traffic', () => {
    const naive = CASES['C5.3a']?.[1] ?? [];
    expect(clientVerdict(naive, judgeSession(naive))).toBe('failed');
    const basicless = CASES['C5.2']?.[1] ?? [];
    expect(clientVerdict(basicless, judgeSession(basicless))).toBe('passed');
    expect(clientVerdict([], judgeSession([]))).toBe('not-judged');
  });

  it('reads a recording line by line and refuses a line it does not know', () => {
    const lines = session(token(), read()).map((e) => JSON.stringify(e));
    expect(parseRecording(`${lines.join('\n')}\n`).map((e) => e.seq)).toEqual([1, 2]);
    expect(() => parseRecording('{"v":2}\n')).toThrow(/line 1/);
    expect(() => parseRecording('nope')).toThrow(/not JSON/);
  });
});

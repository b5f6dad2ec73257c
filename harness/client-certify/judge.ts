import type { Provocation, RecordedExchange } from '../../contract/client-clauses/exchange.ts';
import { CLIENT_CLAUSES, type ClientClause } from '../../contract/client-clauses/index.ts';
import { API_PREFIX } from '../../contract/constants.ts';

/**
 * The client judge: a sandbox recording against the client clause catalogue (docs/client-clauses.md, which also
 * gives the readings of docs/ambiguities.md CL1 to CL7). A clause the session never exercised is "not judged" with
 * the reason, never a pass.
 */
export type ClientOutcome = 'pass' | 'fail' | 'warn' | 'not-judged';

export interface ClientJudgement {
  clauseId: string;
  level: ClientClause['level'];
  title: string;
  /** fail for a MUST broken, warn for a SHOULD broken (reported, not a failed verdict). */
  outcome: ClientOutcome;
  /** Why: what was seen, or why nothing could be. */
  reason: string;
  /** The `seq` of the exchanges that show a breach (empty for a pass or a clause not judged). */
  evidence: number[];
}

export type ClientVerdict = 'passed' | 'failed' | 'not-judged';

type Finding =
  | { kind: 'kept'; reason: string }
  | { kind: 'breach'; reason: string; evidence: number[] }
  | { kind: 'unseen'; reason: string };

const kept = (reason: string): Finding => ({ kind: 'kept', reason });
const unseen = (reason: string): Finding => ({ kind: 'unseen', reason });
const breach = (reason: string, evidence: RecordedExchange[]): Finding => ({
  kind: 'breach',
  reason,
  evidence: [...new Set(evidence.map((exchange) => exchange.seq))].sort((a, b) => a - b),
});

const TOKEN_PATH = `${API_PREFIX}/oauth/token`;
const RESERVATIONS_PATH = `${API_PREFIX}/reservations`;
const QUOTES_PATH = `${API_PREFIX}/quotes`;
/** C5.3b, docs/ambiguities.md CL1: renewing within the last minute of a token is not "a token per call". */
const RENEWAL_MARGIN_MS = 60_000;
const BAD_BODY_CODES = new Set(['VALIDATION_ERROR', 'MALFORMED_JSON', 'MALFORMED_XML', 'REQUEST_TOO_LARGE']);
const BODY_TYPES = /^(application\/json|application\/xml|text\/xml)\s*(;|$)/i;

const isTokenRequest = (e: RecordedExchange) => e.method === 'POST' && e.path === TOKEN_PATH;
/** A business call (spec 4): under the prefix, not the token endpoint, not the published contract document. */
const isBusiness = (e: RecordedExchange) =>
  e.path.startsWith(`${API_PREFIX}/`) && e.path !== TOKEN_PATH && e.path !== `${API_PREFIX}/openapi.json`;
const isBooking = (e: RecordedExchange) => e.method === 'POST' && e.path === RESERVATIONS_PATH;
/** A read or a cancel of one reservation by its id: GET /reservations/{id}, POST /reservations/{id}/cancel. */
const BY_ID = new RegExp(`^${RESERVATIONS_PATH}/([^/]+)(/cancel)?$`);
/** The reservation a successful exchange showed the client (a booking's answer, a read or a cancel by id). */
function observedReservation(e: RecordedExchange): string | undefined {
  if (e.status < 200 || e.status >= 300) return undefined;
  if (isBooking(e)) return e.booking?.reservationId ?? undefined;
  const id = BY_ID.exec(e.path)?.[1];
  return id === undefined ? undefined : decodeURIComponent(id);
}
/** The reservation a POST /reservations/{id}/cancel acts on. */
function cancelledReservation(e: RecordedExchange): string | undefined {
  const match = e.method === 'POST' ? BY_ID.exec(e.path) : null;
  return match?.[2] && match[1] ? decodeURIComponent(match[1]) : undefined;
}
/** An answer after which the client cannot know whether the booking was made (C4.7d). */
const isLostAnswer = (e: RecordedExchange) => e.status >= 500 || e.errorCode === 'IDEMPOTENT_REPLAY_IN_FLIGHT';
const clientOf = (e: RecordedExchange) => e.clientId ?? '(unknown client)';
const bodyField = (e: RecordedExchange, field: string): unknown => {
  const body = e.booking?.body;
  return typeof body === 'object' && body !== null ? (body as Record<string, unknown>)[field] : undefined;
};
const describe = (e: RecordedExchange) =>
  `#${e.seq} ${e.method} ${e.path} → ${e.status}${e.errorCode ? ` ${e.errorCode}` : ''}`;

/**
 * What the code of each provoked error calls for next, when it calls for anything (a declined booking calls for
 * nothing): the client's recovery, found among its later exchanges.
 */
const RECOVERY: Partial<
  Record<Provocation, { what: string; is: (e: RecordedExchange, later: RecordedExchange) => boolean }>
> = {
  '429': { what: 'a call to the same limit', is: (e, later) => isBusiness(later) === isBusiness(e) },
  'lost-answer': {
    what: 'the booking sent again',
    is: (e, later) => isBooking(later) && later.bodySha256 === e.bodySha256,
  },
  'in-flight': {
    what: 'the booking sent again',
    is: (e, later) => isBooking(later) && later.bodySha256 === e.bodySha256,
  },
  'token-expired': { what: 'a new token', is: (_e, later) => isTokenRequest(later) },
  'quote-expired': { what: 'a new quote', is: (_e, later) => later.method === 'POST' && later.path === QUOTES_PATH },
  'quote-stale': { what: 'a new quote', is: (_e, later) => later.method === 'POST' && later.path === QUOTES_PATH },
};

/** The client's first later exchange that is the recovery its code calls for, if any. */
function recoveryOf(all: RecordedExchange[], e: RecordedExchange): RecordedExchange | undefined {
  const recovery = e.provoked ? RECOVERY[e.provoked] : undefined;
  return recovery ? laterOfSameClient(all, e).find((later) => recovery.is(e, later)) : undefined;
}

/** One thing the scenario provoked and what the client did next (for the report). */
export interface ScenarioEvent {
  seq: number;
  provoked: Provocation;
  step: string | null;
  /** The client's reaction: its recovery, or for a declined booking the same booking sent again; null if none. */
  reaction: number | null;
  /** A lost answer: the reservation that was made, and whether the client's reaction was its replay. */
  withheldReservationId: string | null;
  replayed: boolean;
}

export function scenarioEvents(exchanges: readonly RecordedExchange[]): ScenarioEvent[] {
  const all = [...exchanges].sort((a, b) => a.seq - b.seq);
  return all.flatMap((e) => {
    if (!e.provoked) return [];
    const reaction =
      e.provoked === 'declined'
        ? laterOfSameClient(all, e).find((later) => isBooking(later) && later.bodySha256 === e.bodySha256)
        : recoveryOf(all, e);
    const withheldReservationId = e.withheld?.reservationId ?? null;
    return [
      {
        seq: e.seq,
        provoked: e.provoked,
        step: e.scenarioStep ?? null,
        reaction: reaction?.seq ?? null,
        withheldReservationId,
        replayed:
          withheldReservationId !== null &&
          reaction?.idempotentReplay === true &&
          reaction.booking?.reservationId === withheldReservationId,
      },
    ];
  });
}

/** Two requests the service cannot tell apart: the same call, body, credentials and key. */
function identical(a: RecordedExchange, b: RecordedExchange): boolean {
  return (
    a.method === b.method &&
    a.path === b.path &&
    a.query === b.query &&
    a.bodySha256 === b.bodySha256 &&
    a.headers.authorization?.scheme === b.headers.authorization?.scheme &&
    a.headers.authorization?.tokenHash === b.headers.authorization?.tokenHash &&
    a.headers.idempotencyKey === b.headers.idempotencyKey &&
    clientOf(a) === clientOf(b)
  );
}

/** The exchanges of the same client after `e`. */
function laterOfSameClient(all: RecordedExchange[], e: RecordedExchange): RecordedExchange[] {
  return all.filter((other) => other.seq > e.seq && clientOf(other) === clientOf(e));
}

function everyOf(
  exchanges: RecordedExchange[],
  ok: (e: RecordedExchange) => boolean,
  what: string,
  none: string,
  broken: string,
): Finding {
  if (exchanges.length === 0) return unseen(none);
  const bad = exchanges.filter((e) => !ok(e));
  return bad.length === 0 ? kept(`${exchanges.length} ${what}, all kept it`) : breach(`${bad.length} ${broken}`, bad);
}

function noneAnswered(
  exchanges: RecordedExchange[],
  answered: (e: RecordedExchange) => boolean,
  what: string,
  none: string,
  broken: string,
): Finding {
  if (exchanges.length === 0) return unseen(none);
  const bad = exchanges.filter(answered);
  return bad.length === 0
    ? kept(`${exchanges.length} ${what}, none answered so`)
    : breach(`${broken}: ${bad.map(describe).join('; ')}`, bad);
}

/** A quote-level error (QUOTE_EXPIRED, QUOTE_STALE) is never followed by a booking of the same quoteId. */
function quoteAbandoned(all: RecordedExchange[], code: string): Finding {
  const refused = all.filter((e) => isBooking(e) && e.errorCode === code);
  if (refused.length === 0) return unseen(`no booking was answered ${code}`);
  const bad = refused.flatMap((e) => {
    const again = laterOfSameClient(all, e).find(
      (later) => isBooking(later) && bodyField(later, 'quoteId') === bodyField(e, 'quoteId'),
    );
    return again ? [e, again] : [];
  });
  return bad.length === 0
    ? kept(`${refused.length} booking(s) answered ${code}; the quote was not booked again`)
    : breach(`the same quoteId was booked again after ${code}`, bad);
}

const JUDGES: Record<string, (all: RecordedExchange[]) => Finding> = {
  C2a: (all) =>
    noneAnswered(
      all.filter((e) => isBusiness(e) && e.bodyBytes > 0),
      (e) => BAD_BODY_CODES.has(e.errorCode ?? '') || e.status === 413,
      'business calls with a body',
      'no business call carried a body',
      'bodies refused as invalid',
    ),
  'C2.1a': () => unseen('outside the traffic: what a client computes never reaches the wire'),
  'C2.1b': () => unseen('outside the traffic: how a client reads a field never reaches the wire'),
  'C4.1a': (all) =>
    everyOf(
      all.filter(isTokenRequest),
      (e) => /^application\/x-www-form-urlencoded\s*(;|$)/i.test(e.headers.contentType ?? ''),
      'token requests',
      'the client never requested a token',
      'token requests not form-encoded',
    ),
  'C4.1b': (all) =>
    everyOf(
      all.filter(isTokenRequest),
      (e) => e.tokenRequest?.grantType === 'client_credentials',
      'token requests',
      'the client never requested a token',
      'token requests without grant_type=client_credentials',
    ),
  'C4.1c': (all) =>
    noneAnswered(
      all.filter(isTokenRequest),
      (e) => e.errorCode === 'invalid_scope',
      'token requests',
      'the client never requested a token',
      'scopes beyond the grant were requested',
    ),
  'C4.1d': (all) =>
    everyOf(
      all.filter(isTokenRequest),
      (e) => !(/^basic$/i.test(e.headers.authorization?.scheme ?? '') && e.tokenRequest?.clientSecretInForm),
      'token requests',
      'the client never requested a token',
      'token requests sent client_secret in the form beside Basic credentials',
    ),
  'C4.7a': (all) =>
    everyOf(
      all.filter(isBooking),
      (e) => (e.headers.idempotencyKey ?? '') !== '',
      'bookings',
      'the client never booked',
      'bookings without an Idempotency-Key',
    ),
  'C4.7b': (all) =>
    everyOf(
      all.filter((e) => isBooking(e) && e.headers.idempotencyKey !== null),
      (e) => {
        const length = [...(e.headers.idempotencyKey ?? '')].length;
        return length >= 8 && length <= 200;
      },
      'keyed bookings',
      'the client never sent a booking with a key',
      'Idempotency-Keys outside 8 to 200 characters',
    ),
  'C4.7c': (all) => {
    const keyed = all.filter((e) => isBooking(e) && e.headers.idempotencyKey);
    if (keyed.length === 0) return unseen('the client never sent a booking with a key');
    const byKey = new Map<string, RecordedExchange[]>();
    for (const e of keyed) {
      const key = `${clientOf(e)} ${e.headers.idempotencyKey}`;
      byKey.set(key, [...(byKey.get(key) ?? []), e]);
    }
    const bad = [...byKey.values()].filter(
      (uses) =>
        new Set(uses.map((e) => e.bodySha256)).size > 1 || uses.some((e) => e.errorCode === 'IDEMPOTENCY_CONFLICT'),
    );
    return bad.length === 0
      ? kept(`${byKey.size} key(s), each sent with one body`)
      : breach(`${bad.length} key(s) reused for a different body`, bad.flat());
  },
  'C4.7d': (all) => {
    const retries = all
      .filter((e) => isBooking(e) && isLostAnswer(e))
      .flatMap((e) => {
        const retry = laterOfSameClient(all, e).find((later) => isBooking(later) && later.bodySha256 === e.bodySha256);
        return retry ? [[e, retry] as const] : [];
      });
    if (retries.length === 0) return unseen('no booking answered 5xx or IDEMPOTENT_REPLAY_IN_FLIGHT was retried');
    const bad = retries.filter(([e, retry]) => retry.headers.idempotencyKey !== e.headers.idempotencyKey);
    return bad.length === 0
      ? kept(`${retries.length} retry(ies) of a lost answer, each with the same key and body`)
      : breach(`${bad.length} retry(ies) of a lost answer under a new key: a second reservation`, bad.flat());
  },
  'C4.7e': (all) => {
    const inFlight = all.filter((e) => isBooking(e) && e.errorCode === 'IDEMPOTENT_REPLAY_IN_FLIGHT');
    if (inFlight.length === 0) return unseen('no booking was answered IDEMPOTENT_REPLAY_IN_FLIGHT');
    const bad = inFlight.filter(
      (e) =>
        !laterOfSameClient(all, e).some(
          (later) =>
            isBooking(later) &&
            later.headers.idempotencyKey === e.headers.idempotencyKey &&
            later.bodySha256 === e.bodySha256,
        ),
    );
    return bad.length === 0
      ? kept(`${inFlight.length} IDEMPOTENT_REPLAY_IN_FLIGHT answer(s), each retried`)
      : breach(`${bad.length} IDEMPOTENT_REPLAY_IN_FLIGHT answer(s) never retried`, bad);
  },
  'C4.7f': (all) => {
    const referenced = all.filter((e) => isBooking(e) && typeof bodyField(e, 'partnerReference') === 'string');
    if (referenced.length === 0) return unseen('no booking carried a partnerReference');
    const bad = referenced.flatMap((e) => {
      if (e.errorCode === 'DUPLICATE_PARTNER_REFERENCE') return [e];
      // Only a reference that named a made rental is spent: after a refused booking it may be used again.
      if (e.status !== 201 && e.status !== 200) return [];
      const reused = laterOfSameClient(all, e).filter(
        (later) =>
          isBooking(later) &&
          bodyField(later, 'partnerReference') === bodyField(e, 'partnerReference') &&
          later.headers.idempotencyKey !== e.headers.idempotencyKey,
      );
      return reused.length > 0 ? [e, ...reused] : [];
    });
    return bad.length === 0
      ? kept(`${referenced.length} booking(s) with a partnerReference, none reused for another rental`)
      : breach('a partnerReference of a made rental was sent again under another key', bad);
  },
  'C4.10': (all) => {
    const patches = all.filter((e) => e.method === 'PATCH' && e.path.startsWith(`${RESERVATIONS_PATH}/`));
    if (patches.length > 0) return breach(`${patches.length} PATCH of a reservation`, patches);
    return all.some(isBooking) ? kept('the client booked and never sent a PATCH') : unseen('the client never booked');
  },
  'C4.13a': (all) =>
    noneAnswered(
      all.filter(isBusiness),
      (e) => e.status === 406,
      'business calls',
      'the client made no business call',
      'Accept headers the service cannot satisfy',
    ),
  'C4.13b': (all) =>
    everyOf(
      all.filter((e) => isBusiness(e) && e.bodyBytes > 0),
      (e) => BODY_TYPES.test(e.headers.contentType ?? ''),
      'business calls with a body',
      'no business call carried a body',
      'business calls with a body of another Content-Type',
    ),
  'C5.2': (all) =>
    everyOf(
      all.filter(isTokenRequest),
      (e) => /^basic$/i.test(e.headers.authorization?.scheme ?? ''),
      'token requests',
      'the client never requested a token',
      'token requests authenticated without HTTP Basic',
    ),
  'C5.3a': (all) =>
    everyOf(
      all.filter(isBusiness),
      (e) => /^bearer$/i.test(e.headers.authorization?.scheme ?? ''),
      'business calls',
      'the client made no business call',
      'business calls without Authorization: Bearer',
    ),
  'C5.3b': (all) => {
    const issued = all.filter((e) => isTokenRequest(e) && e.issuedToken);
    if (issued.length === 0 || !all.some(isBusiness)) {
      return unseen('the client never got a token and then made a business call');
    }
    const bad: RecordedExchange[] = [];
    const last = new Map<string, RecordedExchange>();
    for (const e of issued) {
      // Tokens for different requested scopes are different tokens (docs/ambiguities.md CL1).
      const group = `${clientOf(e)} ${e.tokenRequest?.scope ?? ''}`;
      const previous = last.get(group);
      last.set(group, e);
      if (!previous?.issuedToken) continue;
      const hash = previous.issuedToken.tokenHash;
      const expiresAtMs = previous.respondedAtMs + previous.issuedToken.expiresInS * 1000;
      const refused = all.some(
        (use) => use.seq < e.seq && use.headers.authorization?.tokenHash === hash && use.errorCode === 'INVALID_TOKEN',
      );
      if (!refused && e.receivedAtMs < expiresAtMs - RENEWAL_MARGIN_MS) bad.push(previous, e);
    }
    return bad.length === 0
      ? kept(`${issued.length} token(s), each requested once the previous one expired or was refused`)
      : breach('new tokens requested while the previous one was valid', bad);
  },
  'C5.7': (all) => {
    if (!all.some((e) => e.protocol === 'https')) return unseen('the sandbox served plain HTTP');
    return everyOf(all, (e) => e.protocol === 'https', 'exchanges', 'no exchange', 'exchanges over plain HTTP');
  },
  C6: (all) => {
    // docs/ambiguities.md CL7: state is observed by polling, each read "at least once" (spec 6); the one action a
    // client takes on a reservation it holds is its cancel (4.10: no change but cancel and re-book), so a cancel sent
    // again once one succeeded is an observation processed twice.
    const seen = new Map<string, number>();
    for (const e of all) {
      const id = observedReservation(e);
      if (id !== undefined) seen.set(`${clientOf(e)} ${id}`, (seen.get(`${clientOf(e)} ${id}`) ?? 0) + 1);
    }
    const repeated = [...seen.values()].filter((count) => count > 1).length;
    if (repeated === 0)
      return unseen('no reservation was observed twice (its booking answer, reads and cancels by id)');
    const done = new Set<string>();
    const again: RecordedExchange[] = [];
    for (const e of all) {
      const id = cancelledReservation(e);
      if (id === undefined) continue;
      const group = `${clientOf(e)} ${id}`;
      if (done.has(group)) again.push(e);
      else if (e.status >= 200 && e.status < 300) done.add(group);
    }
    return again.length === 0
      ? kept(`${repeated} reservation(s) observed more than once, none cancelled again once a cancel succeeded`)
      : breach(
          `reservations cancelled again once a cancel had succeeded: ${again.slice(0, 3).map(describe).join('; ')}`,
          again,
        );
  },
  'C7.2a': (all) => {
    // docs/ambiguities.md CL5: a client that acts on the code recovers from a code whatever its wording; what a
    // client does after an error is otherwise its own choice (it may give up), so only a difference is a breach.
    const met = all.filter((e) => e.messageReworded && e.provoked && RECOVERY[e.provoked]);
    if (met.length === 0) {
      return unseen(
        all.some((e) => e.messageReworded)
          ? 'no error the scenario provoked came with a reworded message'
          : 'no error message was reworded (a scenario that rewords them, such as resilience, shows it)',
      );
    }
    const read = met.map((e) => ({
      e,
      recovered: recoveryOf(all, e) !== undefined,
      wentOn: laterOfSameClient(all, e).length > 0,
    }));
    const byCode = new Map<string, typeof read>();
    for (const entry of read) {
      const group = `${clientOf(entry.e)} ${entry.e.errorCode}`;
      byCode.set(group, [...(byCode.get(group) ?? []), entry]);
    }
    const uneven = [...byCode.values()].filter(
      (group) => group.some((entry) => entry.recovered) && group.some((entry) => !entry.recovered && entry.wentOn),
    );
    if (uneven.length > 0) {
      return breach(
        'the same code, worded differently, was recovered from once and not again although the session went on',
        uneven.flat().map((entry) => entry.e),
      );
    }
    const recovered = read.filter((entry) => entry.recovered);
    if (recovered.length === 0) {
      return unseen(
        `the client went on from none of the ${met.length} reworded error(s): what it read cannot be told from the traffic`,
      );
    }
    const codes = [...new Set(recovered.map((entry) => entry.e.errorCode))].join(', ');
    return kept(`${recovered.length} of ${met.length} reworded error(s) met with what their code calls for (${codes})`);
  },
  'C7.2b': (all) => {
    const final = all.filter(
      (e) => e.retryable === false || (isTokenRequest(e) && e.status >= 400 && e.status < 500 && e.status !== 429),
    );
    if (final.length === 0) return unseen('no request was answered with a non-retryable error');
    const bad = final.flatMap((e) => {
      const again = laterOfSameClient(all, e).find((later) => identical(later, e));
      return again ? [e, again] : [];
    });
    return bad.length === 0
      ? kept(`${final.length} non-retryable error(s), none retried identically`)
      : breach('identical retries of non-retryable errors', bad);
  },
  'C7.3a': (all) => quoteAbandoned(all, 'QUOTE_EXPIRED'),
  'C7.3b': (all) => quoteAbandoned(all, 'QUOTE_STALE'),
  'C7.3c': (all) => {
    const rejected = all.filter((e) => isBooking(e) && e.errorCode === 'RESERVATION_REJECTED');
    if (rejected.length === 0) return unseen('no booking was answered RESERVATION_REJECTED');
    const bad = rejected.flatMap((e) => {
      const again = laterOfSameClient(all, e).find((later) => isBooking(later) && later.bodySha256 === e.bodySha256);
      return again ? [e, again] : [];
    });
    return bad.length === 0
      ? kept(`${rejected.length} rejected booking(s), none sent again`)
      : breach('a rejected booking was sent again', bad);
  },
  'C8.3': (all) => {
    const limited = all.filter((e) => e.status === 429 && e.retryAfterS !== null);
    if (limited.length === 0) return unseen('the client was never answered 429 with Retry-After');
    // docs/ambiguities.md CL6: a limit is one client's (8.13); the token endpoint and the business calls are two (8.16a).
    const bucket = (e: RecordedExchange) => (isTokenRequest(e) ? 'token' : isBusiness(e) ? 'business' : 'other');
    const bad = limited.flatMap((e) => {
      const until = e.respondedAtMs + (e.retryAfterS ?? 0) * 1000;
      // Sent after the 429 was answered (a request already on its way is not a reaction to it), before it allowed.
      const early = all.filter(
        (other) =>
          clientOf(other) === clientOf(e) &&
          bucket(other) === bucket(e) &&
          other.receivedAtMs >= e.respondedAtMs &&
          other.seq !== e.seq &&
          other.receivedAtMs < until,
      );
      return early.length > 0 ? [e, ...early] : [];
    });
    return bad.length === 0
      ? kept(`${limited.length} 429(s), Retry-After waited out each time`)
      : breach('requests sent before Retry-After had passed', bad);
  },
};

/** Judges a recorded session against every clause of the client clause catalogue, in its order. */
export function judgeSession(exchanges: readonly RecordedExchange[]): ClientJudgement[] {
  const all = [...exchanges].sort((a, b) => a.seq - b.seq);
  return CLIENT_CLAUSES.map((clause) => {
    const judge = JUDGES[clause.id];
    const finding = judge ? judge(all) : unseen('no judgement written for this clause yet');
    const base = { clauseId: clause.id, level: clause.level, title: clause.title, reason: finding.reason };
    if (finding.kind === 'kept') return { ...base, outcome: 'pass', evidence: [] };
    if (finding.kind === 'unseen') return { ...base, outcome: 'not-judged', evidence: [] };
    return { ...base, outcome: clause.level === 'MUST' ? 'fail' : 'warn', evidence: finding.evidence };
  });
}

/** Exit codes as for servers: failed (1) on any MUST broken, not-judged (2) when the client never called. */
export function clientVerdict(
  exchanges: readonly RecordedExchange[],
  judgements: readonly ClientJudgement[],
): ClientVerdict {
  if (exchanges.length === 0) return 'not-judged';
  return judgements.some((judgement) => judgement.outcome === 'fail') ? 'failed' : 'passed';
}

/** Every clause has a judge: a clause added to the clause catalogue without one is caught by judge.test.ts. */
export const JUDGED_CLAUSE_IDS: readonly string[] = Object.keys(JUDGES);

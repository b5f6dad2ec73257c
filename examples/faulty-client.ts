/**
 * The sample client (partner-client.ts, as good-client.ts runs it) with one named client fault switched on: the
 * client-side counterpart of the reference's named faults. Each fault breaks one client clause (docs/client-clauses.md,
 * "Which client fault proves each clause"), so the client certification is shown to catch it:
 *
 *   CLIENT_FAULT=token-per-call npx partner-api-certify client -- npx tsx examples/faulty-client.ts
 *   CLIENT_FAULT=ignore-retry-after npx partner-api-certify client --scenario limits -- npx tsx examples/faulty-client.ts
 *   npx tsx examples/faulty-client.ts --list        (the table below as JSON: name, clause, scenario, description)
 *
 * A fault sits between the sample and Node's fetch and changes what goes on the wire (or what the sample reads back),
 * so the sample itself stays the one a partner copies, with no fault in it. Do not copy this file.
 */
import { randomUUID } from 'node:crypto';
import { runSessions } from './partner-client.ts';

/** One request as the sample sends it (a URL string, its method, its headers, a string body or none). */
interface Outgoing {
  url: string;
  method: string;
  headers: Headers;
  body: string | undefined;
}
type Send = (request: Outgoing) => Promise<Response>;
/** A fault: what it does to each request, given the way to send one. */
type Middleware = (request: Outgoing, send: Send) => Promise<Response>;

/** The scenario under which the sandbox exposes the fault (a fault a scenario never provokes cannot be seen). */
type Scenario = 'happy-path' | 'resilience' | 'limits';

interface ClientFault {
  name: string;
  /** The client clause the fault breaks. */
  clause: string;
  scenario: Scenario;
  description: string;
  /** A fresh middleware, its state its own. */
  make: () => Middleware;
}

const pathOf = (request: Outgoing) => new URL(request.url).pathname;
const isTokenRequest = (request: Outgoing) => request.method === 'POST' && pathOf(request).endsWith('/oauth/token');
const isBooking = (request: Outgoing) => request.method === 'POST' && pathOf(request).endsWith('/reservations');
const isCancel = (request: Outgoing) => request.method === 'POST' && pathOf(request).endsWith('/cancel');

function changed(request: Outgoing, change: { headers?: Record<string, string | null>; body?: string }): Outgoing {
  const headers = new Headers(request.headers);
  for (const [name, value] of Object.entries(change.headers ?? {})) {
    if (value === null) headers.delete(name);
    else headers.set(name, value);
  }
  return { ...request, headers, body: change.body ?? request.body };
}

function changedForm(request: Outgoing, change: (form: URLSearchParams) => void): Outgoing {
  const form = new URLSearchParams(request.body ?? '');
  change(form);
  return changed(request, { body: form.toString() });
}

function changedJson(request: Outgoing, change: (body: Record<string, unknown>) => void): Outgoing {
  const body = JSON.parse(request.body ?? '{}') as Record<string, unknown>;
  change(body);
  return changed(request, { body: JSON.stringify(body) });
}

/** The 7.2 envelope's code and retryable of an answer, read from a copy (the sample still reads the answer). */
async function errorOf(response: Response): Promise<{ code?: string; retryable?: boolean }> {
  if (response.ok) return {};
  const value = (await response
    .clone()
    .json()
    .catch(() => ({}))) as { error?: { code?: string; retryable?: boolean } };
  return typeof value.error === 'object' && value.error !== null ? value.error : {};
}

/** An answer after which the sample cannot know whether its booking was made: it sends the booking again. */
const isLostAnswer = (response: Response, code: string | undefined) =>
  response.status >= 500 || code === 'IDEMPOTENT_REPLAY_IN_FLIGHT';

/** A booking answered `code` sent once more with the same body under a new key, the second answer the sample's. */
const bookAgainAfter =
  (code: string): Middleware =>
  async (request, send) => {
    const response = await send(request);
    if (!isBooking(request) || (await errorOf(response)).code !== code) return response;
    await response.body?.cancel();
    return send(changed(request, { headers: { 'idempotency-key': randomUUID() } }));
  };

const CLIENT_FAULTS: readonly ClientFault[] = [
  {
    name: 'invalid-body',
    clause: 'C2a',
    scenario: 'happy-path',
    description:
      'An availability search carries a property the schema does not have ("channel"): 400 VALIDATION_ERROR.',
    make: () => async (request, send) =>
      send(
        request.method === 'POST' && pathOf(request).endsWith('/availability')
          ? changedJson(request, (body) => {
              body.channel = 'web';
            })
          : request,
      ),
  },
  {
    name: 'token-form-as-text',
    clause: 'C4.1a',
    scenario: 'happy-path',
    description: 'The token request form is sent as text/plain (a string body without its Content-Type).',
    make: () => async (request, send) =>
      send(
        isTokenRequest(request)
          ? changed(request, { headers: { 'content-type': 'text/plain;charset=UTF-8' } })
          : request,
      ),
  },
  {
    name: 'no-grant-type',
    clause: 'C4.1b',
    scenario: 'happy-path',
    description: 'The token request leaves grant_type out of the form.',
    make: () => async (request, send) =>
      send(isTokenRequest(request) ? changedForm(request, (form) => form.delete('grant_type')) : request),
  },
  {
    name: 'scope-beyond-grant',
    clause: 'C4.1c',
    scenario: 'happy-path',
    description:
      'The token request asks for a scope beyond the grant (fleet:write), and only after the 400 invalid_scope for what it holds.',
    make: () => async (request, send) => {
      if (!isTokenRequest(request)) return send(request);
      const response = await send(changedForm(request, (form) => form.set('scope', 'fleet:read fleet:write')));
      if (response.status !== 400) return response;
      await response.body?.cancel();
      return send(request);
    },
  },
  {
    name: 'basic-and-form-secret',
    clause: 'C4.1d',
    scenario: 'happy-path',
    description: 'The token request sends client_id and client_secret in the form as well as the Basic credentials.',
    make: () => async (request, send) => {
      const credentials = isTokenRequest(request) ? basicCredentials(request) : undefined;
      if (!credentials) return send(request);
      return send(
        changedForm(request, (form) => {
          form.set('client_id', credentials.id);
          form.set('client_secret', credentials.secret);
        }),
      );
    },
  },
  {
    name: 'no-idempotency-key',
    clause: 'C4.7a',
    scenario: 'happy-path',
    description: 'Bookings are sent without an Idempotency-Key.',
    make: () => async (request, send) =>
      send(isBooking(request) ? changed(request, { headers: { 'idempotency-key': null } }) : request),
  },
  {
    name: 'key-too-short',
    clause: 'C4.7b',
    scenario: 'happy-path',
    description: 'The Idempotency-Key of a booking is cut to 7 characters.',
    make: () => async (request, send) =>
      send(
        isBooking(request)
          ? changed(request, {
              headers: { 'idempotency-key': (request.headers.get('idempotency-key') ?? '').slice(0, 7) },
            })
          : request,
      ),
  },
  {
    name: 'key-too-long',
    clause: 'C4.7b',
    scenario: 'happy-path',
    description: 'The Idempotency-Key of a booking is 201 characters (the key and a padding of "x").',
    make: () => async (request, send) =>
      send(
        isBooking(request)
          ? changed(request, {
              headers: { 'idempotency-key': (request.headers.get('idempotency-key') ?? '').padEnd(201, 'x') },
            })
          : request,
      ),
  },
  {
    name: 'one-key-for-every-booking',
    clause: 'C4.7c',
    scenario: 'happy-path',
    description: 'The first Idempotency-Key is sent with every later booking, another rental under the same key.',
    make: () => {
      let first: string | undefined;
      return async (request, send) => {
        if (!isBooking(request)) return send(request);
        first ??= request.headers.get('idempotency-key') ?? undefined;
        return send(first ? changed(request, { headers: { 'idempotency-key': first } }) : request);
      };
    },
  },
  {
    name: 'body-changed-on-retry',
    clause: 'C4.7c',
    scenario: 'resilience',
    description:
      'The retry of a booking whose answer was lost keeps its key but makes a new partnerReference: another body under the key.',
    make: () => {
      const lost = new Set<string>();
      return async (request, send) => {
        if (!isBooking(request)) return send(request);
        const key = request.headers.get('idempotency-key') ?? '';
        const sent = lost.has(key)
          ? changedJson(request, (body) => {
              body.partnerReference = `faulty-${randomUUID()}`;
            })
          : request;
        const response = await send(sent);
        if (isLostAnswer(response, (await errorOf(response)).code)) lost.add(key);
        return response;
      };
    },
  },
  {
    name: 'fresh-key-on-retry',
    clause: 'C4.7d',
    scenario: 'resilience',
    description: 'The retry of a booking whose answer was lost (503) goes under a new Idempotency-Key.',
    make: () => {
      const lost = new Set<string>();
      return async (request, send) => {
        if (!isBooking(request)) return send(request);
        const key = request.headers.get('idempotency-key') ?? '';
        const response = await send(
          lost.has(key) ? changed(request, { headers: { 'idempotency-key': randomUUID() } }) : request,
        );
        if (isLostAnswer(response, (await errorOf(response)).code)) lost.add(key);
        return response;
      };
    },
  },
  {
    name: 'in-flight-given-up',
    clause: 'C4.7e',
    scenario: 'resilience',
    description:
      'IDEMPOTENT_REPLAY_IN_FLIGHT is taken as final (its retryable read as false): the booking is given up.',
    make: () => async (request, send) => {
      const response = await send(request);
      if ((await errorOf(response)).code !== 'IDEMPOTENT_REPLAY_IN_FLIGHT') return response;
      const value = (await response.json()) as { error: Record<string, unknown> };
      value.error.retryable = false;
      return new Response(JSON.stringify(value), { status: response.status, headers: response.headers });
    },
  },
  {
    name: 'partner-reference-reused',
    clause: 'C4.7f',
    scenario: 'happy-path',
    description: 'The first partnerReference is sent with every later rental.',
    make: () => {
      let first: unknown;
      return async (request, send) => {
        if (!isBooking(request)) return send(request);
        return send(
          changedJson(request, (body) => {
            first ??= body.partnerReference;
            body.partnerReference = first;
          }),
        );
      };
    },
  },
  {
    name: 'patch-before-cancel',
    clause: 'C4.10',
    scenario: 'happy-path',
    description: 'Before cancelling, the client tries to change the reservation with a PATCH (answered 501).',
    make: () => async (request, send) => {
      if (isCancel(request)) {
        const reservation = request.url.replace(/\/cancel$/, '');
        const patched = await send({
          ...changed(request, { body: JSON.stringify({ pickupTime: '11:00' }) }),
          url: reservation,
          method: 'PATCH',
        });
        await patched.body?.cancel();
      }
      return send(request);
    },
  },
  {
    name: 'cancel-twice',
    clause: 'C6',
    scenario: 'happy-path',
    description:
      'A reservation is processed once per observation, not once: after its cancel succeeded, the client cancels it again.',
    make: () => async (request, send) => {
      const response = await send(request);
      if (!isCancel(request) || !response.ok) return response;
      const again = await send(request);
      await again.body?.cancel();
      return response;
    },
  },
  {
    name: 'accept-html',
    clause: 'C4.13a',
    scenario: 'happy-path',
    description: 'Business calls send Accept: text/html.',
    make: () => async (request, send) =>
      send(isTokenRequest(request) ? request : changed(request, { headers: { accept: 'text/html' } })),
  },
  {
    name: 'body-as-text',
    clause: 'C4.13b',
    scenario: 'happy-path',
    description: 'Business calls with a body send Content-Type: text/plain.',
    make: () => async (request, send) =>
      send(
        !isTokenRequest(request) && request.body !== undefined
          ? changed(request, { headers: { 'content-type': 'text/plain' } })
          : request,
      ),
  },
  {
    name: 'secret-in-form',
    clause: 'C5.2',
    scenario: 'happy-path',
    description: 'The token request authenticates with client_secret_post instead of the preferred HTTP Basic.',
    make: () => async (request, send) => {
      const credentials = isTokenRequest(request) ? basicCredentials(request) : undefined;
      if (!credentials) return send(request);
      const posted = changedForm(request, (form) => {
        form.set('client_id', credentials.id);
        form.set('client_secret', credentials.secret);
      });
      return send(changed(posted, { headers: { authorization: null } }));
    },
  },
  {
    name: 'token-wrong-scheme',
    clause: 'C5.3a',
    scenario: 'happy-path',
    description:
      'The first business call sends the token as "Authorization: Token …"; refused, the client falls back to Bearer.',
    make: () => {
      let schemeFound = false;
      return async (request, send) => {
        const bearer = request.headers.get('authorization') ?? '';
        if (schemeFound || isTokenRequest(request) || !/^Bearer /.test(bearer)) return send(request);
        schemeFound = true;
        const first = await send(changed(request, { headers: { authorization: bearer.replace(/^Bearer/, 'Token') } }));
        if (first.status !== 401) return first;
        await first.body?.cancel();
        return send(request);
      };
    },
  },
  {
    name: 'token-per-call',
    clause: 'C5.3b',
    scenario: 'happy-path',
    description: 'A new token is requested before every business call.',
    make: () => {
      let tokenRequest: Outgoing | undefined;
      return async (request, send) => {
        if (isTokenRequest(request)) {
          tokenRequest = request;
          return send(request);
        }
        if (!tokenRequest) return send(request);
        const issued = await send(tokenRequest);
        if (!issued.ok) return issued;
        const { access_token } = (await issued.json()) as { access_token: string };
        return send(changed(request, { headers: { authorization: `Bearer ${access_token}` } }));
      };
    },
  },
  {
    name: 'retry-non-retryable',
    clause: 'C7.2b',
    scenario: 'resilience',
    description:
      'A refused call that is not a booking (nor a 429) is sent again once, identically, whatever its retryable says: the token the scenario expired is sent twice.',
    make: () => async (request, send) => {
      const response = await send(request);
      if (isTokenRequest(request) || isBooking(request) || response.status === 429) return response;
      if ((await errorOf(response)).retryable !== false) return response;
      await response.body?.cancel();
      return send(request);
    },
  },
  {
    name: 'book-expired-quote-again',
    clause: 'C7.3a',
    scenario: 'resilience',
    description: 'A booking answered QUOTE_EXPIRED is sent again with the same quoteId under a new key.',
    make: () => bookAgainAfter('QUOTE_EXPIRED'),
  },
  {
    name: 'book-stale-quote-again',
    clause: 'C7.3b',
    scenario: 'resilience',
    description: 'A booking answered QUOTE_STALE is sent again with the same quoteId under a new key.',
    make: () => bookAgainAfter('QUOTE_STALE'),
  },
  {
    name: 'rebook-declined',
    clause: 'C7.3c',
    scenario: 'resilience',
    description: 'A booking answered RESERVATION_REJECTED is sent again under a new key.',
    make: () => bookAgainAfter('RESERVATION_REJECTED'),
  },
  {
    name: 'ignore-retry-after',
    clause: 'C8.3',
    scenario: 'limits',
    description: "Retry-After is not read: a 429 is retried on the sample's own backoff (250 ms, then doubling).",
    make: () => async (request, send) => {
      const response = await send(request);
      if (!response.headers.has('retry-after')) return response;
      const headers = new Headers(response.headers);
      headers.delete('retry-after');
      return new Response(await response.arrayBuffer(), { status: response.status, headers });
    },
  },
];

/** The id and secret of a token request's Basic credentials (form-urlencoded, then base64: RFC 6749 2.3.1). */
function basicCredentials(request: Outgoing): { id: string; secret: string } | undefined {
  const [scheme, encoded = ''] = (request.headers.get('authorization') ?? '').split(' ', 2);
  if (scheme !== 'Basic') return undefined;
  const decoded = Buffer.from(encoded, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  return { id: decodeURIComponent(decoded.slice(0, colon)), secret: decodeURIComponent(decoded.slice(colon + 1)) };
}

if (process.argv.includes('--list')) {
  const table = CLIENT_FAULTS.map(({ name, clause, scenario, description }) => ({
    name,
    clause,
    scenario,
    description,
  }));
  console.log(JSON.stringify(table, null, 2));
} else {
  const fault = CLIENT_FAULTS.find((candidate) => candidate.name === process.env.CLIENT_FAULT);
  if (!fault) {
    throw new Error(`CLIENT_FAULT must name one of: ${CLIENT_FAULTS.map((candidate) => candidate.name).join(', ')}`);
  }
  const realFetch = globalThis.fetch;
  const send: Send = (request) =>
    realFetch(request.url, {
      method: request.method,
      headers: request.headers,
      ...(request.body !== undefined ? { body: request.body } : {}),
    });
  const middleware = fault.make();
  globalThis.fetch = async (input, init) =>
    middleware(
      {
        url: String(input),
        method: init?.method ?? 'GET',
        headers: new Headers(init?.headers),
        body: typeof init?.body === 'string' ? init.body : undefined,
      },
      send,
    );
  console.log(`faulty client: ${fault.name} (${fault.clause}) switched on`);
  await runSessions();
}

import fc from 'fast-check';
import { ERROR_CODE_CLAUSE } from '../../contract/clause-refs.ts';
import { API_PREFIX, MEDIA_TYPES } from '../../contract/constants.ts';
import { ENDPOINTS, type Endpoint } from '../../contract/endpoints.ts';
import type { ReservationRequest } from '../../contract/types.ts';
import {
  acceptCases,
  availabilityRequest,
  type BodyCase,
  contentTypeCases,
  type Expectation,
  type HeaderCase,
  idempotencyKeyCases,
  isRejection,
  jsonAttacks,
  negotiate,
  quoteRequest,
  renderBody,
  reservationRequest,
  type TargetListings,
  xmlAttacks,
} from '../../generators/index.ts';
import type { ApiResult, CheckContext } from '../../harness/check/check.ts';
import type { EvidenceExchange } from '../../harness/check/outcome-and-evidence.ts';
import type { Role } from '../../harness/config/target-config.ts';
import { type HttpRequest, type HttpResponse, send, toEvidence } from '../../harness/http/client.ts';
import { toApiResult } from '../../harness/http/partner-client.ts';
import { profileRank } from '../../harness/run-settings.ts';
import { judgeAnswer, type Violation } from './fuzz-rules.ts';
import type { SecretWatch } from './secret-watch.ts';

/**
 * The steps of a fuzz campaign (README "Fuzz campaigns"), as fast-check commands: stateful sequences across two
 * partners (quote, book, replay, conflict, cancel twice, read, list, PATCH) between valid and hostile listing reads
 * and shopping. fast-check draws sequences and, when a step meets a new kind of violation, shrinks the sequence to a
 * minimal one.
 */

export interface FuzzModel {
  quotes: { role: Role; quoteId: string }[];
  reservations: { role: Role; id: string; key: string; body: ReservationRequest }[];
}

/** A violation of a new kind: fails the property so fast-check shrinks the sequence that led to it. */
export class FuzzFailure extends Error {
  constructor(readonly violation: Violation) {
    super(`${violation.rule} [${violation.clauseId}]: ${violation.message}`);
  }
}

export interface FuzzReal {
  t: CheckContext;
  roles: Role[];
  cat: TargetListings;
  /** Secrets no answer may echo. */
  secrets: SecretWatch;
  /** Signatures of failures already recorded (not shrunk again). */
  known: Set<string>;
  counts: { requests: number; violations: number };
  /** Every violation seen, by signature, with the first answer it was seen in. */
  seen: Map<string, { violation: Violation; count: number }>;
  /** partnerReference prefix of every booking (the end-of-run cleanup cancels them). */
  referencePrefix: string;
  /** The exchanges of the sequence running now (raw: evidence is built only for a failure), and the failing one's. */
  trace: RawExchange[];
  failingTrace: EvidenceExchange[];
  /** Hostile Authorization values (generators/hostile-bearer.ts), made once per campaign: they need signing. */
  bearerCases: HeaderCase[];
}

/** A hostile case's own expectation, judged beside the universal rules, under the clause the case breaks. */
interface CaseJudgement {
  name: string;
  expect: Expectation;
  /** The clause a wrong answer fails; by default the 7.3 row of the first code the case expects. */
  clauseId?: string;
}

/** An exchange as sent and answered; turned into redacted evidence (with its curl line) only when it is needed. */
export interface RawExchange {
  req: HttpRequest;
  res: HttpResponse;
  ms: number;
}

/** Only the latest exchanges of a sequence are kept: a minimal failing sequence is short. */
const TRACE_KEPT = 30;

type Step = fc.AsyncCommand<FuzzModel, FuzzReal, true>;

const endpointOf = (method: string, template: string): Endpoint =>
  ENDPOINTS.find((e) => e.method === method && e.path === `${API_PREFIX}${template}`) as Endpoint;

/** Sends one request and judges its answer; a new kind of violation fails the property. */
async function exchange(
  real: FuzzReal,
  role: Role,
  endpoint: Endpoint | undefined,
  request: {
    method: string;
    path: string;
    headers?: Readonly<Record<string, string | null>>;
    body?: Uint8Array | unknown;
  },
  hostile?: CaseJudgement,
): Promise<ApiResult> {
  const client = real.t.client(role);
  const given = request.headers ?? {};
  const headers: Record<string, string> = {};
  if (!('authorization' in given)) {
    const token = await client.token();
    real.secrets.addIssued(token);
    headers.authorization = `Bearer ${token}`;
  }
  if (!('accept' in given)) headers.accept = MEDIA_TYPES.json;
  for (const [name, value] of Object.entries(given)) if (value !== null) headers[name] = value;
  let body: Uint8Array | string | undefined;
  if (request.body instanceof Uint8Array) body = request.body;
  else if (request.body !== undefined) {
    body = JSON.stringify(request.body);
    headers['content-type'] ??= MEDIA_TYPES.json;
  }
  const accept = 'accept' in given ? (given.accept ?? null) : MEDIA_TYPES.json;
  const req: HttpRequest = {
    method: request.method,
    url: `${real.t.settings.target.baseUrl}${API_PREFIX}${request.path}`,
    headers,
    ...(body !== undefined ? { body } : {}),
  };
  const started = performance.now();
  // Not recorded as evidence one by one: a campaign sends a million requests, and only a failing one needs a curl.
  const res = await send(req, { record: false, role });
  real.trace.push({ req, res, ms: Math.round(performance.now() - started) });
  if (real.trace.length > TRACE_KEPT) real.trace.shift();
  const result = toApiResult(res);
  real.counts.requests += 1;
  const negotiated = negotiate(accept);
  const violations = judgeAnswer({
    endpoint,
    wantsXml: negotiated === 'xml' || negotiated === 'text-xml' || negotiated === 'either-xml',
    result,
    secrets: real.secrets,
  });
  const refused = hostile ? refusalViolation(hostile, operationOf(endpoint), result) : undefined;
  if (refused) violations.push(refused);
  for (const violation of violations) {
    real.counts.violations += 1;
    const entry = real.seen.get(violation.signature);
    if (entry) entry.count += 1;
    else real.seen.set(violation.signature, { violation, count: 1 });
    if (!real.known.has(violation.signature)) {
      real.failingTrace = real.trace.map((x) => toEvidence(x.req, x.res, x.ms));
      throw new FuzzFailure(violation);
    }
  }
  return result;
}

const operationOf = (endpoint: Endpoint | undefined) => endpoint?.operationId ?? 'unknown-path';

/**
 * A case the spec says MUST be refused is judged by its status only (the codes are the suites' to judge, with
 * their ambiguities): accepted, or refused with another status, fails the clause the case breaks.
 */
function refusalViolation(hostile: CaseJudgement, operation: string, result: ApiResult): Violation | undefined {
  const { expect } = hostile;
  if (!isRejection(expect) || expect.level !== 'MUST') return undefined;
  const statuses = expect.reject.map((a) => a.status);
  if (statuses.includes(result.status)) return undefined;
  const code = expect.reject[0]?.codes[0];
  const clauseId = hostile.clauseId ?? (code ? ERROR_CODE_CLAUSE[code] : '7.3.36');
  return {
    rule: 'hostile-refused',
    clauseId,
    message: `${operation}: ${hostile.name} answered HTTP ${result.status}, not ${statuses.join(' or ')} (${expect.basis})`,
    signature: `hostile-refused|${operation}|${hostile.name}|${result.status}`,
  };
}

function step(name: string, when: (m: FuzzModel) => boolean, run: (m: FuzzModel, r: FuzzReal) => Promise<void>): Step {
  return { check: async (m) => when(m), run, toString: () => name };
}

const roleOf = (real: FuzzReal, i: number) => real.roles[i % real.roles.length] as Role;

/** GET of the listings, with any Accept of the negotiation cases. */
function listingReads(cat: TargetListings): fc.Arbitrary<Step> {
  const paths: [string, string][] = [
    ['/fleet', '/fleet'],
    ['/locations', '/locations'],
    ['/rates', '/rates'],
    ...cat.vehicles.slice(0, 5).map((v): [string, string] => [`/fleet/${v.vehicleCode}`, '/fleet/{vehicleCode}']),
    ...cat.locations
      .slice(0, 5)
      .map((l): [string, string] => [`/locations/${l.locationCode}`, '/locations/{locationCode}']),
    ['/fleet/ZZ-FUZZ-UNKNOWN', '/fleet/{vehicleCode}'],
    ['/fleet/lower-case', '/fleet/{vehicleCode}'],
    ['/locations/ZZ-FUZZ-UNKNOWN', '/locations/{locationCode}'],
  ];
  const accepts: HeaderCase[] = acceptCases();
  return fc
    .tuple(fc.constantFrom(...paths), fc.constantFrom(...accepts), fc.nat())
    .map(([[path, template], accept, r]) =>
      step(
        `GET ${path} (${accept.name})`,
        () => true,
        async (_m, real) => {
          await exchange(real, roleOf(real, r), endpointOf('GET', template), {
            method: 'GET',
            path,
            headers: accept.headers,
          });
        },
      ),
    );
}

/** POST /availability and /quotes: generated valid bodies in JSON or XML, and every hostile body of the generators. */
function shopping(cat: TargetListings): fc.Arbitrary<Step> {
  const shop = (kind: 'availability' | 'quotes', value: object, hostile: boolean) => {
    const cases: BodyCase[] = hostile ? [...jsonAttacks(value), ...xmlAttacks(value), ...contentTypeCases(value)] : [];
    return fc
      .tuple(
        fc.constantFrom<'json' | 'xml'>('json', 'xml'),
        cases.length > 0 ? fc.constantFrom(...cases) : fc.constant(undefined),
        fc.nat(),
      )
      .map(([representation, attack, r]) => {
        const endpoint = endpointOf('POST', `/${kind}`);
        const rendered = attack
          ? { contentType: attack.contentType, bytes: attack.bytes }
          : renderBody(value, representation);
        const headers: Record<string, string | null> = { 'content-type': rendered.contentType };
        const accept = representation === 'xml' ? MEDIA_TYPES.xml : MEDIA_TYPES.json;
        return step(
          `POST /${kind} ${attack ? attack.name : `valid ${representation}`}`,
          () => true,
          async (model, real) => {
            const res = await exchange(
              real,
              roleOf(real, r),
              endpoint,
              { method: 'POST', path: `/${kind}`, headers: { ...headers, accept }, body: rendered.bytes },
              attack ? { name: attack.name, expect: attack.expect } : undefined,
            );
            const quoteId = (res.body as { quoteId?: unknown } | undefined)?.quoteId;
            if (kind === 'quotes' && res.status === 201 && typeof quoteId === 'string') {
              model.quotes.push({ role: roleOf(real, r), quoteId });
            }
          },
        );
      });
  };
  return fc.oneof(
    availabilityRequest(cat).chain((value) => shop('availability', value, false)),
    quoteRequest(cat).chain((value) => shop('quotes', value, false)),
    availabilityRequest(cat).chain((value) => shop('availability', value, true)),
    quoteRequest(cat).chain((value) => shop('quotes', value, true)),
  );
}

/** Idempotency-Key faults (spec 4.7, 8.3), each refused before anything is booked. */
const KEY_CASES = idempotencyKeyCases().map((c) => ({
  ...c,
  clauseId: c.headers['idempotency-key'] === null ? '4.7.1' : '8.3',
}));

/**
 * Bookings from the model's quotes: a new key, the same key and body again, the same key with another body, and a
 * new booking under a hostile Idempotency-Key.
 */
function bookings(t: CheckContext): fc.Arbitrary<Step> {
  const body = reservationRequest('placeholder-quote-id', t.settings.date, { partnerReferencePrefix: '' });
  return fc
    .tuple(
      body,
      fc.constantFrom('new', 'replay', 'conflict', 'hostile-key'),
      fc.nat(),
      fc.constantFrom<'json' | 'xml'>('json', 'xml'),
      fc.constantFrom(...KEY_CASES),
    )
    .map(([generated, mode, n, representation, keyCase]) =>
      step(
        `POST /reservations (${mode === 'hostile-key' ? keyCase.name : mode}, ${representation})`,
        (m) => m.quotes.length > 0 && (mode === 'new' || mode === 'hostile-key' || m.reservations.length > 0),
        async (model, real) => {
          const endpoint = endpointOf('POST', '/reservations');
          let role: Role;
          let key: string;
          let request: ReservationRequest;
          if (mode === 'new' || mode === 'hostile-key') {
            const quote = model.quotes[n % model.quotes.length] as FuzzModel['quotes'][number];
            role = quote.role;
            key = `fuzz-${real.counts.requests}-${n}`;
            request = {
              ...generated,
              quoteId: quote.quoteId,
              partnerReference: `${real.referencePrefix}${real.counts.requests}`.slice(0, 64),
            };
          } else {
            const previous = model.reservations[n % model.reservations.length] as FuzzModel['reservations'][number];
            role = previous.role;
            key = previous.key;
            request = mode === 'replay' ? previous.body : { ...previous.body, remarks: `changed ${n}` };
          }
          const accept = representation === 'xml' ? MEDIA_TYPES.xml : MEDIA_TYPES.json;
          const rendered = renderBody(request, representation);
          const hostile = mode === 'hostile-key';
          const res = await exchange(
            real,
            role,
            endpoint,
            {
              method: 'POST',
              path: '/reservations',
              headers: {
                'content-type': rendered.contentType,
                accept,
                'idempotency-key': key,
                ...(hostile ? keyCase.headers : {}),
              },
              body: rendered.bytes,
            },
            hostile ? keyCase : undefined,
          );
          const id = (res.body as { reservationId?: unknown } | undefined)?.reservationId;
          if (res.status === 201 && typeof id === 'string') {
            real.t.recordReservation(id);
            if (!hostile) model.reservations.push({ role, id, key, body: request });
          }
        },
      ),
    );
}

/**
 * Hostile Authorization values (forged, unsigned, expired, truncated, look-alikes of a genuine token) on every
 * authenticated operation the profile allows; each must be refused with 401 (spec 5.6a).
 */
function hostileAuth(cat: TargetListings, cases: HeaderCase[], rank: number): fc.Arbitrary<Step> {
  const vehicle = cat.vehicles[0]?.vehicleCode ?? 'ZZ-FUZZ-UNKNOWN';
  const targets: { method: string; path: string; template: string; body?: () => fc.Arbitrary<object> }[] = [
    { method: 'GET', path: '/fleet', template: '/fleet' },
    { method: 'GET', path: `/fleet/${vehicle}`, template: '/fleet/{vehicleCode}' },
    { method: 'GET', path: '/locations', template: '/locations' },
    { method: 'GET', path: '/rates', template: '/rates' },
  ];
  if (rank >= profileRank('shop')) {
    targets.push(
      { method: 'POST', path: '/availability', template: '/availability', body: () => availabilityRequest(cat) },
      { method: 'POST', path: '/quotes', template: '/quotes', body: () => quoteRequest(cat) },
    );
  }
  if (rank >= profileRank('book')) {
    targets.push(
      { method: 'GET', path: '/reservations', template: '/reservations' },
      { method: 'GET', path: '/reservations/RES-FUZZ-UNKNOWN', template: '/reservations/{reservationId}' },
    );
  }
  return fc
    .tuple(fc.constantFrom(...targets), fc.constantFrom(...cases), fc.constantFrom<'json' | 'xml'>('json', 'xml'))
    .chain(([target, attack, representation]) =>
      (target.body ? target.body() : fc.constant(undefined)).map((value) => {
        const rendered = value ? renderBody(value, representation) : undefined;
        const accept = representation === 'xml' ? MEDIA_TYPES.xml : MEDIA_TYPES.json;
        return step(
          `${target.method} ${target.path} (${attack.name}, ${representation})`,
          () => true,
          async (_m, real) => {
            await exchange(
              real,
              'partnerA',
              endpointOf(target.method, target.template),
              {
                method: target.method,
                path: target.path,
                headers: {
                  accept,
                  ...(rendered ? { 'content-type': rendered.contentType } : {}),
                  ...attack.headers,
                },
                ...(rendered ? { body: rendered.bytes } : {}),
              },
              { name: attack.name, expect: attack.expect, clauseId: '5.6a' },
            );
          },
        );
      }),
    );
}

/** Reads, cancels (twice) and PATCHes of the model's reservations, by their partner and by the other one. */
function reservationOps(): fc.Arbitrary<Step> {
  return fc.tuple(fc.constantFrom('get', 'get-foreign', 'cancel', 'patch', 'list'), fc.nat()).map(([op, n]) =>
    step(
      `${op} reservation`,
      (m) => op === 'list' || m.reservations.length > 0,
      async (model, real) => {
        if (op === 'list') {
          const role = roleOf(real, n);
          const res = await exchange(real, role, endpointOf('GET', '/reservations'), {
            method: 'GET',
            path: '/reservations?limit=100',
          });
          const foreign = new Set(model.reservations.filter((r) => r.role !== role).map((r) => r.id));
          const listed = (res.body as { reservations?: { reservationId?: string }[] } | undefined)?.reservations ?? [];
          const leaked = listed.find((r) => foreign.has(r.reservationId ?? ''));
          if (leaked) {
            throw new FuzzFailure({
              rule: 'own-data',
              clauseId: '1.4a',
              message: `GET /reservations of ${role} lists another partner's reservation`,
              signature: 'own-data|list',
            });
          }
          return;
        }
        const reservation = model.reservations[n % model.reservations.length] as FuzzModel['reservations'][number];
        const others = real.roles.filter((role) => role !== reservation.role);
        const role = op === 'get-foreign' ? others[0] : reservation.role;
        if (role === undefined) return;
        const path = `/reservations/${encodeURIComponent(reservation.id)}`;
        if (op === 'get' || op === 'get-foreign') {
          const res = await exchange(real, role, endpointOf('GET', '/reservations/{reservationId}'), {
            method: 'GET',
            path,
          });
          if (op === 'get-foreign' && res.status !== 404) {
            throw new FuzzFailure({
              rule: 'own-data',
              clauseId: '1.4b',
              message: `another partner's reservation answered HTTP ${res.status}, not 404`,
              signature: `own-data|get|${res.status}`,
            });
          }
        } else if (op === 'cancel') {
          await exchange(real, role, endpointOf('POST', '/reservations/{reservationId}/cancel'), {
            method: 'POST',
            path: `${path}/cancel`,
            body: { reason: 'fuzz campaign' },
          });
        } else {
          await exchange(real, role, endpointOf('PATCH', '/reservations/{reservationId}'), {
            method: 'PATCH',
            path,
            body: { remarks: 'fuzz' },
          });
        }
      },
    ),
  );
}

/** Token requests: valid, with a wrong secret, without or with another grant type, and a JSON body. */
function tokenRequests(): fc.Arbitrary<Step> {
  return fc
    .tuple(
      fc.constantFrom('valid', 'wrong-secret', 'no-grant', 'password-grant', 'json-body', 'unknown-scope'),
      fc.nat(),
    )
    .map(([kind, n]) =>
      step(
        `token request (${kind})`,
        () => true,
        async (_m, real) => {
          const role = roleOf(real, n);
          const credentials = real.t.settings.target.clients[role];
          if (!credentials) return;
          const form = new URLSearchParams();
          if (kind !== 'no-grant')
            form.set('grant_type', kind === 'password-grant' ? 'password' : 'client_credentials');
          if (kind === 'unknown-scope') form.set('scope', 'fleet:read admin:everything');
          form.set('client_id', credentials.clientId);
          form.set(
            'client_secret',
            kind === 'wrong-secret' ? `${credentials.clientSecret}x` : credentials.clientSecret,
          );
          const json = kind === 'json-body';
          const res = await real.t.client(role).raw({
            method: 'POST',
            path: '/oauth/token',
            headers: { 'content-type': json ? MEDIA_TYPES.json : MEDIA_TYPES.form, accept: MEDIA_TYPES.json },
            body: json ? JSON.stringify(Object.fromEntries(form)) : form.toString(),
          });
          real.counts.requests += 1;
          const token = (res.body as { access_token?: unknown } | undefined)?.access_token;
          const violations = judgeAnswer({
            endpoint: endpointOf('POST', '/oauth/token'),
            wantsXml: false,
            result: res,
            secrets: real.secrets,
            ...(typeof token === 'string' ? { own: token } : {}),
          });
          if (typeof token === 'string') real.secrets.addIssued(token);
          for (const violation of violations) {
            real.counts.violations += 1;
            const entry = real.seen.get(violation.signature);
            if (entry) entry.count += 1;
            else real.seen.set(violation.signature, { violation, count: 1 });
            if (!real.known.has(violation.signature)) throw new FuzzFailure(violation);
          }
        },
      ),
    );
}

/** The commands the run's profile allows (catalog: reads and tokens; shop: + shopping; book: + reservations). */
export function fuzzCommands(t: CheckContext, real: FuzzReal): fc.Arbitrary<Step>[] {
  const { cat } = real;
  const rank = profileRank(t.settings.profile);
  const commands = [listingReads(cat), tokenRequests()];
  if (real.bearerCases.length > 0) commands.push(hostileAuth(cat, real.bearerCases, rank));
  if (rank >= profileRank('shop')) commands.push(shopping(cat));
  if (rank >= profileRank('book') && t.settings.allowBookings) commands.push(bookings(t), reservationOps());
  return commands;
}

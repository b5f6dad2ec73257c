import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Scope } from '../../contract/scopes.ts';
import type { AvailabilityOffer, FieldError, JsonValue, Reservation, ReservationStatus } from '../../contract/types.ts';
import type { RateLimitDecision } from '../http/rate-limit/types.ts';

/**
 * Named deviations of the reference implementation: a `fault` breaks exactly one clause of the spec; a
 * `benign` variant does something the spec allows that the reference does not choose. The mutation harness
 * certifies the reference once per name and expects each fault failed on its own clause and each variant passed.
 * Partners can switch them on to rehearse a misbehaving server (README "How the verdicts are proven").
 */
export type FaultKind = 'fault' | 'benign';

/** Rules the reference enforces that a fault may switch off (`enforce(rule)` is true unless a fault says no). */
export type Rule =
  | 'api.enabled'
  | 'token.expiry'
  | 'token.signature'
  | 'scope'
  | 'partner.active'
  | 'rateLimit'
  | 'token.addressLimit'
  | 'location.active'
  | 'location.oneWay'
  | 'window.order'
  | 'vehicle.published'
  | 'vehicle.complete'
  | 'account.enabled'
  | 'rate.valid'
  | 'rate.approved'
  | 'driver.adult'
  | 'idempotency.required'
  | 'idempotency.keyLength'
  | 'idempotency.replay'
  | 'idempotency.conflict'
  | 'idempotency.inFlight'
  | 'idempotency.forget'
  | 'partnerReference.unique'
  | 'quote.partner'
  | 'quote.expiry'
  | 'quote.price'
  | 'booking.decline'
  | 'cancel.money'
  | 'cancel.state'
  | 'reservations.ownOnly'
  | 'token.partnerActive'
  | 'token.scopeWithinGrant';

/** Values the reference computes that a fault may change: the value and what it was computed from. */
export interface Adjustments {
  'token.scopes': {
    value: Scope[];
    input: { partnerId: string; clientScopes: readonly string[]; partnerScopes: readonly string[] };
  };
  /**
   * A token request naming scopes the client holds but its partner does not (spec 5.5): 'refuse' (400 invalid_scope,
   * the reference's reading of "the grant") or 'narrow' (200 with the requested scopes both hold, ambiguity #55).
   */
  'token.beyondGrant': { value: 'refuse' | 'narrow'; input: { requested: readonly string[] } };
  offers: { value: AvailabilityOffer[]; input: { partnerId: string } };
  cancellable: { value: readonly ReservationStatus[]; input: { status: ReservationStatus } };
  'reservations.list': { value: Reservation[]; input: { partnerId: string; limit: number } };
  'reservations.count': { value: number; input: { partnerId: string; listed: number } };
  rateLimit: { value: RateLimitDecision; input: { key: string; limit: number } };
  'rateLimit.key': { value: string; input: { clientId: string; ip: string } };
  'quote.validityMs': { value: number; input: Record<string, never> };
  /** The idempotency-forget hook's bound: keys made at or before this instant (service clock, ms) are forgotten. */
  'idempotency.forgetCutoffMs': { value: number; input: Record<string, never> };
  validation: { value: FieldError[]; input: { schema: string } };
  /** The decoded request body (JSON or XML alike) before it is validated. */
  body: { value: JsonValue; input: { schema: string } };
  'xml.limits': { value: { maxBytes: number; maxDepth: number; maxNodes: number }; input: Record<string, never> };
  'rateLimit.limit': { value: number; input: { clientId: string } };
  /** The status a new reservation is stored with (spec 1.3a: confirmed). */
  'reservation.initialStatus': { value: ReservationStatus; input: Record<string, never> };
  /**
   * How a booking keeps its partnerReference unique (spec 4.7.7): the store's unique index on the insert, and the
   * pause between the domain's own lookup of the reference and that insert.
   */
  'partnerReference.guard': { value: ReferenceGuard; input: { partnerId: string } };
}

/** The reference holds a partnerReference by the store's unique index; the lookup before the insert is a courtesy. */
export interface ReferenceGuard {
  /** false: a clash at the unique index is ignored and the rental stored all the same (a check-then-insert). */
  uniqueIndex: boolean;
  /** Milliseconds between the lookup and the insert (0: only the work in between). */
  checkToInsertMs: number;
}

export type AdjustmentPoint = keyof Adjustments;

/** A request as the onRequest seam sees it: headers may be changed, or the fault may answer itself. */
export interface FaultRequest {
  request: FastifyRequest;
  /** The operation of the route (e.g. 'createReservation'), or null for a path no route holds. */
  operation: string | null;
  /** Answers the request at once with this status and JSON body (the reference's own answer never runs). */
  respond(status: number, body: unknown, headers?: Record<string, string>): void;
}

/** A response as the onSend seam sees it, before it leaves: status, headers and the JSON-shaped body. */
export interface FaultResponse {
  request: FastifyRequest;
  reply: FastifyReply;
  operation: string | null;
  status: number;
  /** 'json', 'xml', or 'other' (a body this seam does not parse). */
  representation: 'json' | 'xml' | 'other';
  /** The parsed body (JSON, or typed XML as its JSON-shaped value); replace or mutate it. */
  value: unknown;
  /** Set to change the status. */
  setStatus(status: number): void;
  header(name: string): string | undefined;
  setHeader(name: string, value: string): void;
  removeHeader(name: string): void;
}

export interface Fault {
  name: string;
  kind: FaultKind;
  /** fault: the clause it breaks. benign: the clause whose freedom it uses. */
  clause: string;
  /** What the server does differently, in words. */
  description: string;
  /** A composite: switching it on switches these on instead (it has no seam of its own). */
  includes?: readonly string[];
  /** Before routing hooks: may rewrite request headers or answer. */
  request?(r: FaultRequest): void;
  /** After the body is read, before the handler: may replace the raw body. */
  body?(raw: Buffer, request: FastifyRequest): Buffer;
  /** Before the response leaves: may change status, headers and body. */
  response?(r: FaultResponse): void;
  /** The serialized body, last: may rewrite its text (XML prefixes, whitespace, key order). */
  text?(text: string, r: FaultResponse): string;
  /**
   * Rules this fault switches off: false (always) or a function of the request being served (undefined outside
   * one) returning whether the rule still holds.
   */
  enforce?: Partial<Record<Rule, false | ((request: FastifyRequest | undefined) => boolean)>>;
  /** Values this fault changes; `request` is the request being served, if any. */
  adjust?: {
    [P in AdjustmentPoint]?: (
      value: Adjustments[P]['value'],
      input: Adjustments[P]['input'],
      request: FastifyRequest | undefined,
    ) => Adjustments[P]['value'];
  };
}

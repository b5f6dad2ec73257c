import type { FastifyRequest } from 'fastify';
import { ERROR_CODES, type ErrorCode } from '../../contract/errors.ts';
import type { FieldError } from '../../contract/types.ts';
import type { FaultResponse } from './types.ts';

/** Small tools the fault registry shares: find the resources inside a response body, build an error body. */

type Obj = Record<string, unknown>;

function isObj(value: unknown): value is Obj {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Calls fn on every object of `value` (depth first) that `test` accepts. */
export function eachObject(value: unknown, test: (o: Obj) => boolean, fn: (o: Obj) => void): void {
  if (Array.isArray(value)) {
    for (const item of value) eachObject(item, test, fn);
    return;
  }
  if (!isObj(value)) return;
  if (test(value)) fn(value);
  for (const child of Object.values(value)) eachObject(child, test, fn);
}

export const isMoney = (o: Obj) => 'currency' in o && 'amount' in o && 'exponent' in o && 'display' in o;
export const isVehicle = (o: Obj) => 'vehicleCode' in o && 'sippCode' in o && 'dataQuality' in o;
export const isLocation = (o: Obj) => 'locationCode' in o && 'timezone' in o && 'branchCode' in o;
export const isRatePlan = (o: Obj) => 'rateCode' in o && 'rateType' in o && 'status' in o && 'accountCode' in o;
export const isOffer = (o: Obj) => 'quoteExpiresAt' in o && 'estimatedTotal' in o;
export const isQuote = (o: Obj) => 'charges' in o && 'rental' in o && 'payment' in o;
export const isReservation = (o: Obj) => 'reservationId' in o && 'rocketBookingCode' in o;

export function each(kind: (o: Obj) => boolean, fn: (o: Obj) => void) {
  return (r: FaultResponse) => eachObject(r.value, kind, fn);
}

/** The `error` object of an envelope body, if the body is one. */
export function envelopeError(value: unknown): Obj | undefined {
  return isObj(value) && isObj(value.error) && typeof value.error.code === 'string' ? value.error : undefined;
}

/** Replaces the response with an envelope of `code` (status and retryable of the table unless given). */
export function answerError(
  r: FaultResponse,
  code: ErrorCode | string,
  options: { status?: number; retryable?: boolean; message?: string; fields?: FieldError[] } = {},
): void {
  const row = ERROR_CODES[code as ErrorCode];
  r.setStatus(options.status ?? row?.status ?? 400);
  const error: Obj = {
    code,
    message: options.message ?? row?.condition ?? 'error',
    requestId: r.header('x-request-id') ?? String(r.request.id),
    retryable: options.retryable ?? row?.retryable ?? false,
  };
  if (options.fields) error.fields = options.fields;
  r.value = { error };
}

/** Changes the status (and optionally retryable) of every envelope carrying `code`. */
export function rowOf(code: ErrorCode, change: { status?: number; retryable?: boolean }) {
  return (r: FaultResponse) => {
    const error = envelopeError(r.value);
    if (error?.code !== code) return;
    if (change.status !== undefined) r.setStatus(change.status);
    if (change.retryable !== undefined) error.retryable = change.retryable;
  };
}

/** Every value this process answered on its own routes is remembered by faults that need history: bounded. */
export class Remembered<T> {
  private readonly items: T[] = [];
  constructor(private readonly max = 5_000) {}
  add(item: T): void {
    this.items.push(item);
    if (this.items.length > this.max) this.items.shift();
  }
  all(): readonly T[] {
    return this.items;
  }
}

/** The partner of the request being answered (after authentication), if any. */
export function partnerOf(request: FastifyRequest | undefined): string | undefined {
  return request?.ctx?.caller?.partnerId;
}

/** Whether the request asked for XML (the representation negotiated for it). */
export function asksXml(request: FastifyRequest | undefined): boolean {
  return request?.ctx?.representation?.kind === 'xml';
}

/** Field errors without the ones `drop` matches (a validation rule the server forgets). */
export function dropFields(drop: (f: FieldError) => boolean) {
  return (fields: FieldError[]) => fields.filter((f) => !drop(f));
}

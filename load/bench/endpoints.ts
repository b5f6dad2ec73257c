import { randomBytes } from 'node:crypto';
import { API_PREFIX } from '../../contract/constants.ts';
import type { HttpRequestSpec } from '../engine-neutral/model.ts';
import { driver } from '../engine-neutral/partner-api.ts';
import { availabilityBody, type BenchAccess, quoteBody } from './access.ts';

/** One benchmarked operation: how to build each request (fresh Idempotency-Key per booking). */
export interface BenchEndpoint {
  name: string;
  method: 'GET' | 'POST';
  path: string;
  request(baseUrl: string, access: BenchAccess): HttpRequestSpec;
}

let keys = 0;
const keyPrefix = randomBytes(6).toString('hex');

function spec(
  endpoint: Omit<BenchEndpoint, 'request'>,
  baseUrl: string,
  access: BenchAccess,
  body?: unknown,
  extra: Record<string, string> = {},
): HttpRequestSpec {
  const headers: Record<string, string> = {
    authorization: `Bearer ${access.token}`,
    accept: 'application/json',
    ...extra,
  };
  const out: HttpRequestSpec = { method: endpoint.method, url: `${baseUrl}${endpoint.path}`, headers, step: 'bench' };
  if (body !== undefined) {
    headers['content-type'] = 'application/json';
    out.body = JSON.stringify(body);
  }
  return out;
}

function endpoint(
  name: string,
  method: 'GET' | 'POST',
  path: string,
  body?: (access: BenchAccess) => unknown,
  headers?: () => Record<string, string>,
): BenchEndpoint {
  const base = { name, method, path: `${API_PREFIX}${path}` };
  return { ...base, request: (baseUrl, access) => spec(base, baseUrl, access, body?.(access), headers?.()) };
}

export const BENCH_ENDPOINTS: BenchEndpoint[] = [
  endpoint('GET /locations', 'GET', '/locations'),
  endpoint('POST /availability', 'POST', '/availability', () => availabilityBody()),
  endpoint('POST /quotes', 'POST', '/quotes', () => quoteBody()),
  endpoint(
    'POST /reservations',
    'POST',
    '/reservations',
    (access) => ({ quoteId: access.quoteId, driver: driver() }),
    () => ({ 'idempotency-key': `bench-${keyPrefix}-${++keys}` }),
  ),
];

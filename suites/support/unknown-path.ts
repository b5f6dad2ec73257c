/**
 * Paths no endpoint of the table holds (spec 6, 9.1). 9.1 asks only that such a path is not served; the 7.2 envelope
 * covers the operations of the table, so for a path outside it the envelope is a SHOULD (docs/ambiguities.md #40,
 * RS22, RS23). These helpers judge under the calling check's own clause and file nothing elsewhere: a plain-text
 * 404 of the framework must not fail 7.2.1 or 4.13 through a check about unknown paths. Only typed XML that cannot
 * be read at all is filed elsewhere, under the 4.14 rule it breaks, and blocks the check.
 */
import { expect } from 'vitest';
import { MEDIA_TYPES } from '../../contract/constants.ts';
import { schemaViolations } from '../../contract/validation.ts';
import type { ApiResult } from '../../harness/check/check.ts';
import { errorCodeOf, requireParsed } from '../../harness/check/expect-api.ts';
import type { Representation } from '../../harness/http/representation.ts';

/** MUST: refused with a 4xx, never served (2xx, 3xx) nor a server error (5xx). */
export function expectNotServed(res: ApiResult, what: string): void {
  expect(res.status, `${what}: ${res.excerpt}`).toBeGreaterThanOrEqual(400);
  expect(res.status, `${what}: ${res.excerpt}`).toBeLessThan(500);
}

/**
 * SHOULD: the refusal is the 7.2 envelope in the negotiated representation, with `code` when one is given. Only
 * plain assertions: the check (a SHOULD) warns, no other clause is touched.
 */
export function expectEnvelopeOnUnknownPath(
  res: ApiResult,
  representation: Representation,
  what: string,
  code?: string,
): void {
  expectNotServed(res, what);
  const media = representation === 'xml' ? [MEDIA_TYPES.xml, MEDIA_TYPES.textXml] : [MEDIA_TYPES.json];
  expect(media, `${what}: Content-Type of the HTTP ${res.status} answer`).toContain(res.mediaType);
  // Typed XML that cannot be read breaks a 4.14 rule whatever the path: filed there, and nothing is left to judge.
  if (res.parseFailure?.representation === 'xml') requireParsed(res, `${what}: the error body`);
  expect(res.body, `${what}: a readable envelope body (${res.excerpt})`).toBeDefined();
  const violations = schemaViolations('ErrorEnvelope', res.body).map((v) => `${v.field} ${v.message}`);
  expect(violations, `${what}: the 7.2 envelope`).toEqual([]);
  if (code !== undefined) expect(errorCodeOf(res), `${what}: error.code`).toBe(code);
}

import { readFileSync } from 'node:fs';
import { ERROR_CODES, OAUTH_ERRORS } from '../errors.ts';
import { serializeTypedXml } from '../xml/index.ts';

/**
 * The OpenAPI document's examples. Path parameters, request bodies and success bodies come from examples.json,
 * recorded from the reference implementation answering requests built from its fixtures (`npm run
 * openapi:examples`); error bodies are built here from the code tables of spec 7, one example per code.
 */
type Json = Record<string, unknown>;

interface RecordedExamples {
  parameters: {
    vehicleCode: string;
    locationCode: string;
    reservationId: string;
    limit: number;
    idempotencyKey: string;
  };
  operations: Record<string, { request?: Json; response: Json }>;
}

export const RECORDED: RecordedExamples = JSON.parse(
  readFileSync(new URL('./examples.json', import.meta.url), 'utf8'),
) as RecordedExamples;

export function recordedOperation(operationId: string): { request?: Json; response: Json } {
  const recorded = RECORDED.operations[operationId];
  if (!recorded) throw new Error(`examples.json has no example of ${operationId} (npm run openapi:examples)`);
  return recorded;
}

/** The XML form of a JSON example (spec 4.14), as a string example of the XML media types. */
export function xmlExample(value: Json, root: 'request' | 'response'): string {
  return serializeTypedXml(value as never, root);
}

const EXAMPLE_REQUEST_ID = '0b6f3c1e-5d2a-4c47-9a43-2f4f3f7d9b10';

function sentence(condition: string): string {
  return `${condition.charAt(0).toUpperCase()}${condition.slice(1)}.`;
}

/** One error envelope (7.2) per code of the 7.3 table with this HTTP status; keyed by code. */
export function envelopeExamples(status: number): Record<string, { value: Json }> {
  const out: Record<string, { value: Json }> = {};
  for (const [code, entry] of Object.entries(ERROR_CODES)) {
    if (entry.status !== status) continue;
    const error: Json = {
      code,
      message: sentence(entry.condition),
      requestId: EXAMPLE_REQUEST_ID,
      retryable: entry.retryable,
    };
    if (code === 'VALIDATION_ERROR') error.fields = [{ field: 'pickupDate', message: 'must be a date (YYYY-MM-DD)' }];
    out[code] = { value: { error } };
  }
  return out;
}

/** One OAuth error (7.1) per error value of the token endpoint with this HTTP status. */
export function oauthExamples(status: number): Record<string, { value: Json }> {
  const out: Record<string, { value: Json }> = {};
  for (const [error, entry] of Object.entries(OAUTH_ERRORS)) {
    if (entry.status === status) out[error] = { value: { error, error_description: sentence(entry.condition) } };
  }
  return out;
}

/** The XML forms of envelope examples. */
export function xmlExamples(examples: Record<string, { value: Json }>): Record<string, { value: string }> {
  return Object.fromEntries(
    Object.entries(examples).map(([name, example]) => [name, { value: xmlExample(example.value, 'response') }]),
  );
}

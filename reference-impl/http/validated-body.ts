import type { FastifyRequest } from 'fastify';
import type { SchemaName } from '../../contract/schemas/index.ts';
import { validate } from '../../contract/validation.ts';
import { apiError } from '../domain/failure.ts';
import { decodeBusinessBody } from './body.ts';

/** Decodes the body in either representation and validates it against the contract's schema (spec 4.14). */
export function validatedBody<T>(request: FastifyRequest, schema: SchemaName): T {
  const decoded = decodeBusinessBody(request);
  const value = decoded === undefined ? undefined : request.server.faults.adjust('body', decoded, { schema });
  if (value === undefined) {
    throw apiError('VALIDATION_ERROR', 'The request body is required.', {
      fields: [{ field: 'body', message: 'is required' }],
    });
  }
  const result = validate(schema, value);
  const fields = result.valid ? [] : request.server.faults.adjust('validation', result.fields, { schema });
  if (fields.length > 0) throw apiError('VALIDATION_ERROR', 'The request body failed validation.', { fields });
  return value as T;
}

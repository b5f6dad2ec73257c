import type { FastifyRequest } from 'fastify';
import type { SchemaName } from '../../contract/schemas/index.ts';
import { validate } from '../../contract/validation.ts';
import { apiError } from '../domain/failure.ts';
import { decodeBusinessBody } from './body.ts';

/** Decodes the body in either representation and validates it against the contract's schema (spec 4.14). */
export function validatedBody<T>(request: FastifyRequest, schema: SchemaName): T {
  const value = decodeBusinessBody(request);
  if (value === undefined) {
    throw apiError('VALIDATION_ERROR', 'The request body is required.', {
      fields: [{ field: 'body', message: 'is required' }],
    });
  }
  const result = validate(schema, value);
  if (!result.valid)
    throw apiError('VALIDATION_ERROR', 'The request body failed validation.', { fields: result.fields });
  return value as T;
}

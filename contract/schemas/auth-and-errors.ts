import { LIMITS } from '../limits.ts';
import { closedObject, closedObjectAllRequired, type JsonSchema } from './building-blocks.ts';

/**
 * Open on purpose: RFC 6749 section 3.2 makes the server ignore unrecognised token request parameters, and
 * grant_type is a plain string so a wrong value reaches the unsupported_grant_type check (5.4), not validation.
 */
export const TokenRequest = {
  description:
    'Spec 4.1 TokenRequest: the application/x-www-form-urlencoded fields as an object. grant_type must be client_credentials; client_id and client_secret only for client_secret_post; scope is a space-delimited subset of the grant.',
  type: 'object',
  properties: {
    grant_type: { type: 'string', minLength: 1 },
    client_id: { type: 'string' },
    client_secret: { type: 'string' },
    scope: { type: 'string' },
  },
  required: ['grant_type'],
} as const satisfies JsonSchema;

export const TokenResponse = closedObjectAllRequired(
  {
    access_token: { type: 'string' },
    token_type: { const: 'Bearer' },
    expires_in: { const: LIMITS.accessTokenLifetimeSeconds, description: 'seconds' },
    scope: { type: 'string', description: 'space-delimited' },
  },
  { description: 'Spec 4.1 TokenResponse: always JSON; sent with Cache-Control: no-store; no refresh token.' },
);

export const OAuthError = closedObjectAllRequired(
  { error: { type: 'string' }, error_description: { type: 'string' } },
  { description: 'Spec 7.1 OAuthError: the error shape of the token endpoint only.' },
);

export const ErrorEnvelope = closedObjectAllRequired(
  {
    error: closedObject(
      {
        code: { type: 'string', description: 'stable; clients switch on it, never on message' },
        message: { type: 'string', description: 'human-safe; no customer data or internals' },
        requestId: { type: 'string', description: 'same as X-Request-Id' },
        retryable: { type: 'boolean', description: 'true only when retrying the identical request may succeed' },
        fields: {
          type: 'array',
          items: closedObjectAllRequired({ field: { type: 'string' }, message: { type: 'string' } }),
        },
      },
      ['code', 'message', 'requestId', 'retryable'],
    ),
  },
  { description: 'Spec 7.2 ErrorEnvelope: the error body of every operation but the token endpoint.' },
);

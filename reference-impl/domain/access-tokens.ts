import { randomUUID, type webcrypto } from 'node:crypto';
import { jwtVerify, SignJWT } from 'jose';
import { LIMITS } from '../../contract/limits.ts';
import { isScope, type Scope } from '../../contract/scopes.ts';
import { isCanonicalJws } from './canonical-jws.ts';
import { hmacKey } from './hmac-key.ts';

export interface TokenSubject {
  clientId: string;
  partnerId: string;
  scopes: Scope[];
}

export interface VerifiedToken extends TokenSubject {
  /** When the token was issued (service clock, ms). */
  issuedAtMs: number;
}

const ISSUER = 'partner-api-reference';
const AUDIENCE = 'partner-api-v1';
const TYPE = 'at+jwt';
/** Verified tokens remembered: a few per client is plenty; beyond it a token is only verified again. */
const MAX_REMEMBERED = 10_000;

/**
 * Bearer tokens of spec 5.3: signed JWTs (HS256, RFC 9068 `at+jwt`) valid 600 s on the service clock. The key is
 * in the store, so any instance verifies any other's tokens; the quote key is a different one.
 */
export class AccessTokens {
  private readonly key: Promise<webcrypto.CryptoKey>;
  /**
   * Tokens already verified, with their expiry: a token is verified once and then only its expiry is compared
   * (a token serves many requests). Bounded; the oldest entries go first.
   */
  private readonly verified = new Map<string, { token: VerifiedToken; expiresAtMs: number }>();

  constructor(secret: string) {
    this.key = hmacKey(secret);
  }

  async issue(subject: TokenSubject, nowMs: number): Promise<{ token: string; expiresIn: number }> {
    // A NumericDate may be fractional (RFC 7519 section 2): millisecond issue times let the tokens.expire hook cut
    // at the millisecond instead of waiting for the second to end.
    const iat = nowMs / 1000;
    const expiresIn = LIMITS.accessTokenLifetimeSeconds;
    const token = await new SignJWT({
      client_id: subject.clientId,
      pid: subject.partnerId,
      scope: subject.scopes.join(' '),
    })
      .setProtectedHeader({ alg: 'HS256', typ: TYPE })
      .setIssuer(ISSUER)
      .setAudience(AUDIENCE)
      .setSubject(subject.clientId)
      .setJti(randomUUID())
      .setIssuedAt(iat)
      .setExpirationTime(iat + expiresIn)
      .sign(await this.key);
    return { token, expiresIn };
  }

  /** The token's subject, or null for a malformed, forged or expired token (all INVALID_TOKEN, spec 5.6). */
  async verify(token: string, nowMs: number): Promise<VerifiedToken | null> {
    const known = this.verified.get(token);
    if (known) return nowMs < known.expiresAtMs ? known.token : null;
    if (!isCanonicalJws(token)) return null;
    try {
      const { payload } = await jwtVerify(token, await this.key, {
        algorithms: ['HS256'],
        issuer: ISSUER,
        audience: AUDIENCE,
        typ: TYPE,
        currentDate: new Date(nowMs),
        clockTolerance: 0,
        requiredClaims: ['exp', 'iat', 'sub'],
      });
      if (typeof payload.pid !== 'string' || typeof payload.scope !== 'string' || typeof payload.sub !== 'string')
        return null;
      const verified: VerifiedToken = {
        clientId: payload.sub,
        partnerId: payload.pid,
        scopes: payload.scope.split(' ').filter(isScope),
        issuedAtMs: (payload.iat ?? 0) * 1000,
      };
      this.remember(token, verified, (payload.exp ?? 0) * 1000);
      return verified;
    } catch {
      return null;
    }
  }

  /**
   * The subject a token claims, its signature and expiry unchecked: only for the fault that accepts forged tokens
   * (faults/registry, 5.6a), never on the normal path.
   */
  claimedSubject(token: string): VerifiedToken | null {
    try {
      const payload = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8')) as Record<
        string,
        unknown
      >;
      const { sub, pid, scope, iat } = payload;
      if (typeof sub !== 'string' || typeof pid !== 'string' || typeof scope !== 'string') return null;
      return {
        clientId: sub,
        partnerId: pid,
        scopes: scope.split(' ').filter(isScope),
        issuedAtMs: typeof iat === 'number' ? iat * 1000 : 0,
      };
    } catch {
      return null;
    }
  }

  private remember(token: string, verified: VerifiedToken, expiresAtMs: number): void {
    if (this.verified.size >= MAX_REMEMBERED) {
      const oldest = this.verified.keys().next().value;
      if (oldest !== undefined) this.verified.delete(oldest);
    }
    this.verified.set(token, { token: verified, expiresAtMs });
  }
}

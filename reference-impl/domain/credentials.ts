import { createHmac, randomBytes, scrypt, timingSafeEqual } from 'node:crypto';
import type { ClientFixture } from '../../fixtures/types.ts';

/** A client as the server serves it: its fixture with the business rate limit resolved to a number (spec 8). */
export type Client = Omit<ClientFixture, 'rateLimitPerMinute'> & { rateLimitPerMinute: number };

/**
 * The fixture clients as served: an `'ordinary'` client gets the service's ceiling for ordinary clients
 * (RATE_LIMIT_PER_MINUTE), a client with a ceiling of its own keeps it.
 */
export function servedClients(fixtures: readonly ClientFixture[], ordinaryPerMinute: number): Client[] {
  return fixtures.map((fixture) => ({
    ...fixture,
    rateLimitPerMinute: fixture.rateLimitPerMinute === 'ordinary' ? ordinaryPerMinute : fixture.rateLimitPerMinute,
  }));
}

interface StoredClient {
  client: Client;
  salt: Buffer;
  hash: Buffer;
}

const KEY_LENGTH = 32;
// scrypt's defaults (N=16384, r=8, p=1): the OWASP minimum for password-equivalent secrets.
const SCRYPT_OPTIONS = { N: 16384, r: 8, p: 1, maxmem: 64 * 1024 * 1024 };

function scryptAsync(secret: string, salt: Buffer): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scrypt(secret, salt, KEY_LENGTH, SCRYPT_OPTIONS, (err, key) => (err ? reject(err) : resolve(key))),
  );
}

/**
 * API clients with their secrets stored only as salted scrypt hashes, compared in constant time (spec 5.2).
 * A verified secret is remembered as an HMAC under a per-process key so a busy client does not pay scrypt on
 * every token call; the plaintext is never kept.
 */
export class ClientRegistry {
  private readonly clients = new Map<string, StoredClient>();
  private readonly dummy: { salt: Buffer; hash: Buffer };
  private readonly memoKey = randomBytes(32);
  private readonly verified = new Map<string, Buffer>();

  private constructor(dummy: { salt: Buffer; hash: Buffer }) {
    this.dummy = dummy;
  }

  static async create(
    clients: readonly Client[],
    secretOf: (c: Client) => string | undefined,
  ): Promise<ClientRegistry> {
    const dummySalt = randomBytes(16);
    const registry = new ClientRegistry({
      salt: dummySalt,
      hash: await scryptAsync(randomBytes(24).toString('hex'), dummySalt),
    });
    await Promise.all(
      clients.map(async (client) => {
        const secret = secretOf(client);
        if (!secret) return; // a client without a secret cannot authenticate at all
        const salt = randomBytes(16);
        registry.clients.set(client.clientId, { client, salt, hash: await scryptAsync(secret, salt) });
      }),
    );
    return registry;
  }

  /** The client when id and secret match; null otherwise, after the same work as a real check. */
  async authenticate(clientId: string, secret: string): Promise<Client | null> {
    const stored = this.clients.get(clientId);
    const memo = createHmac('sha256', this.memoKey).update(clientId).update('\0').update(secret).digest();
    const known = stored ? this.verified.get(clientId) : undefined;
    if (stored && known && timingSafeEqual(known, memo)) return stored.client;
    const target = stored ?? this.dummy;
    const candidate = await scryptAsync(secret, target.salt);
    const ok = timingSafeEqual(candidate, target.hash) && stored !== undefined;
    if (!ok || !stored) return null;
    this.verified.set(clientId, memo);
    return stored.client;
  }

  byId(clientId: string): Client | undefined {
    return this.clients.get(clientId)?.client;
  }
}

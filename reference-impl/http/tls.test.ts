/** Spec 5.7: with TLS_CERT_FILE and TLS_KEY_FILE the server speaks HTTPS only, TLS 1.2 minimum. */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type ConnectionOptions, connect, createServer, type SecureVersion } from 'node:tls';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_PREFIX } from '../../contract/constants.ts';
import { configFromEnv } from '../config.ts';
import { startTestServer, type TestServer } from '../testing/test-server.ts';

type Handshake = { protocol: string | null; authorized: boolean } | { error: string };

/** A TLS handshake with the versions pinned; resolves with the outcome instead of throwing. */
function handshake(port: number, options: ConnectionOptions): Promise<Handshake> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port, ...options }, () => {
      const result = { protocol: socket.getProtocol(), authorized: socket.authorized };
      socket.end();
      resolve(result);
    });
    socket.setTimeout(5_000, () => socket.destroy(Object.assign(new Error('timeout'), { code: 'TIMEOUT' })));
    socket.once('error', (error: NodeJS.ErrnoException) => resolve({ error: error.code ?? error.message }));
  });
}

/** Only TLS 1.0/1.1 offered; OpenSSL 3's default security level would refuse their ciphers client-side. */
const legacy = (version: SecureVersion): ConnectionOptions => ({
  minVersion: 'TLSv1',
  maxVersion: version,
  ciphers: 'DEFAULT@SECLEVEL=0',
  rejectUnauthorized: false,
});

describe('HTTPS only, TLS 1.2 minimum (spec 5.7)', () => {
  let dir: string;
  let cert: Buffer;
  let key: Buffer;
  let server: TestServer;
  let port: number;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'refimpl-tls-'));
    const keyFile = join(dir, 'key.pem');
    const certFile = join(dir, 'cert.pem');
    // biome-ignore format: the openssl command line as one reads it
    execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', keyFile, '-out', certFile,
      '-days', '2', '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1'], { stdio: 'ignore' });
    cert = readFileSync(certFile);
    key = readFileSync(keyFile);
    server = await startTestServer({ config: { tlsCertFile: certFile, tlsKeyFile: keyFile } });
    port = Number(new URL(server.baseUrl).port);
  });
  afterAll(async () => {
    await server?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('listens on an https:// address', () => {
    expect(server.baseUrl).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
  });

  it.each(['TLSv1.2', 'TLSv1.3'] as const)('%s handshakes, with the configured certificate', async (version) => {
    const result = await handshake(port, { ca: cert, minVersion: version, maxVersion: version });
    expect(result).toEqual({ protocol: version, authorized: true });
  });

  it.each(['TLSv1', 'TLSv1.1'] as const)('%s is refused with a protocol_version alert', async (version) => {
    // Control: this client can offer the old version at all (a server that allows it negotiates it).
    const permissive = createServer({ key, cert, minVersion: 'TLSv1', ciphers: 'DEFAULT@SECLEVEL=0' }, (s) => s.end());
    await new Promise<void>((resolve) => permissive.listen(0, '127.0.0.1', resolve));
    const control = await handshake((permissive.address() as { port: number }).port, legacy(version));
    await new Promise((resolve) => permissive.close(resolve));

    if ('error' in control) {
      // This Node build cannot offer TLS < 1.2: what is left to observe is the server's floor through a 1.2 client.
      const floor = await handshake(port, { ca: cert, minVersion: 'TLSv1.2', maxVersion: 'TLSv1.2' });
      expect(floor).toEqual({ protocol: 'TLSv1.2', authorized: true });
      expect(server.server.app.initialConfig.https).toMatchObject({ minVersion: 'TLSv1.2' });
      return;
    }
    expect(control).toMatchObject({ protocol: version });
    expect(await handshake(port, legacy(version))).toEqual({ error: 'ERR_SSL_TLSV1_ALERT_PROTOCOL_VERSION' });
  });

  it('the API answers over HTTPS (token endpoint)', async () => {
    const creds = server.target.clients.partnerA;
    if (!creds) throw new Error('fixture has no partnerA');
    const { status, body } = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = httpsRequest(
        `${server.apiUrl}/oauth/token`,
        {
          method: 'POST',
          ca: cert,
          headers: {
            authorization: `Basic ${Buffer.from(`${creds.clientId}:${creds.clientSecret}`).toString('base64')}`,
            'content-type': 'application/x-www-form-urlencoded',
          },
        },
        (res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => {
            text += chunk;
          });
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
        },
      );
      req.once('error', reject);
      req.end('grant_type=client_credentials');
    });
    expect(status, body).toBe(200);
    expect(JSON.parse(body).access_token).toEqual(expect.any(String));
  });

  it('plain HTTP on the HTTPS port gets no 2xx', async () => {
    const outcome = await new Promise<number | string>((resolve) => {
      const req = httpRequest(
        { host: '127.0.0.1', port, path: `${API_PREFIX}/locations`, method: 'GET', timeout: 5_000 },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      );
      req.once('timeout', () => req.destroy(new Error('timeout')));
      req.once('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
      req.end();
    });
    if (typeof outcome === 'number') expect(outcome < 200 || outcome > 299, `answered ${outcome}`).toBe(true);
    // Node's TLS server drops a connection whose first bytes are not a ClientHello.
    else expect(outcome).toBe('ECONNRESET');
  });
});

describe('TLS configuration (env)', () => {
  it('both files set: both kept; neither: plain HTTP', () => {
    const config = configFromEnv({ TLS_CERT_FILE: '/c.pem', TLS_KEY_FILE: '/k.pem' });
    expect([config.tlsCertFile, config.tlsKeyFile]).toEqual(['/c.pem', '/k.pem']);
    const plain = configFromEnv({});
    expect([plain.tlsCertFile, plain.tlsKeyFile]).toEqual([undefined, undefined]);
  });

  it.each([{ TLS_CERT_FILE: '/c.pem' }, { TLS_KEY_FILE: '/k.pem' }])('one without the other is refused: %o', (env) => {
    expect(() => configFromEnv(env)).toThrow(/TLS_CERT_FILE and TLS_KEY_FILE must be set together/);
  });
});

/**
 * Transport probes for spec 5.7 ("HTTPS only, TLS 1.2 minimum"): raw TLS handshakes and a plain-HTTP request,
 * below the harness's HTTP client (which only ever speaks what the target URL says).
 */
import { request as httpRequest } from 'node:http';
import { createServer, isIP } from 'node:net';
import { type ConnectionOptions, connect } from 'node:tls';
import { API_PREFIX, MEDIA_TYPES } from '../../contract/constants.ts';
import type { TargetConfig } from '../../harness/config/target-config.ts';
import { trustedCertificates } from '../../harness/config/trusted-ca.ts';

const TIMEOUT_MS = 10_000;

export interface TlsEndpoint {
  host: string;
  port: number;
  /** The base URL's path (no trailing slash): the service may live below the root. */
  basePath: string;
  /** The harness's trust: Node's roots plus the target config's CA file, if any. */
  ca?: string[];
}

export function tlsEndpoint(target: TargetConfig): TlsEndpoint {
  const url = new URL(target.baseUrl);
  const caFile = target.tls?.caFile;
  return {
    host: url.hostname.replace(/^\[|\]$/g, ''),
    port: Number(url.port || 443),
    basePath: url.pathname.replace(/\/+$/, ''),
    ...(caFile ? { ca: trustedCertificates(caFile) } : {}),
  };
}

export type Handshake = { ok: true; protocol: string | null } | { ok: false; error: string };

/** One TLS handshake; never throws: a refusal (alert, reset, timeout) is an outcome. */
export function handshake(endpoint: TlsEndpoint, options: ConnectionOptions): Promise<Handshake> {
  return new Promise((resolve) => {
    const fail = (error: NodeJS.ErrnoException) => resolve({ ok: false, error: error.code ?? error.message });
    let socket: ReturnType<typeof connect>;
    try {
      socket = connect(
        {
          host: endpoint.host,
          port: endpoint.port,
          // SNI carries host names only (RFC 6066 3).
          ...(isIP(endpoint.host) === 0 ? { servername: endpoint.host } : {}),
          ...(endpoint.ca ? { ca: endpoint.ca } : {}),
          ...options,
        },
        () => {
          const protocol = socket.getProtocol();
          socket.end();
          resolve({ ok: true, protocol });
        },
      );
    } catch (error) {
      fail(error as NodeJS.ErrnoException);
      return;
    }
    socket.setTimeout(TIMEOUT_MS, () => socket.destroy(Object.assign(new Error('timed out'), { code: 'TIMEOUT' })));
    socket.once('error', fail);
  });
}

/**
 * A client offering only `version` (TLS 1.0 or 1.1). OpenSSL 3's default security level refuses their ciphers
 * client-side, hence level 0; the certificate is not what this handshake is about.
 */
export function legacyOffer(version: 'TLSv1' | 'TLSv1.1'): ConnectionOptions {
  return { minVersion: version, maxVersion: version, ciphers: 'DEFAULT@SECLEVEL=0', rejectUnauthorized: false };
}

const HELLO_VERSION: Record<'TLSv1' | 'TLSv1.1', number> = { TLSv1: 0x0301, 'TLSv1.1': 0x0302 };

/**
 * Whether this Node build can offer `version` at all: a ClientHello is captured by a local TCP listener and its
 * client_version read (record header 5 bytes, handshake header 4, then the version). Without this, a handshake
 * that fails could be this client's own refusal rather than the target's.
 */
export async function canOffer(version: 'TLSv1' | 'TLSv1.1'): Promise<boolean> {
  let hello: Buffer | undefined;
  const server = createServer((socket) => {
    socket.once('data', (data: Buffer) => {
      hello = data;
      socket.destroy();
    });
    socket.on('error', () => {});
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const { port } = server.address() as { port: number };
    await handshake({ host: '127.0.0.1', port, basePath: '' }, legacyOffer(version));
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
  return (
    hello !== undefined && hello.length >= 11 && hello[0] === 0x16 && hello.readUInt16BE(9) === HELLO_VERSION[version]
  );
}

/**
 * Status of an unauthenticated plain-HTTP GET of a business path of the endpoint's host on `port`, or null when
 * no HTTP answer comes (connection dropped, refused, timed out). Never carries a credential: it travels in clear.
 */
export function plainHttpStatus(endpoint: TlsEndpoint, port: number): Promise<number | null> {
  return new Promise((resolve) => {
    const req = httpRequest(
      {
        host: endpoint.host,
        port,
        path: `${endpoint.basePath}${API_PREFIX}/locations`,
        method: 'GET',
        headers: { accept: MEDIA_TYPES.json },
        timeout: TIMEOUT_MS / 2,
      },
      (res) => {
        res.resume();
        resolve(res.statusCode ?? null);
      },
    );
    req.once('timeout', () => req.destroy());
    req.once('error', () => resolve(null));
    req.end();
  });
}

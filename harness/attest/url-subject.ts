import { connect, type TLSSocket } from 'node:tls';
import { Agent, request } from 'undici';
import { API_PREFIX } from '../../contract/constants.ts';
import type { TargetTls } from '../config/target-config.ts';
import { trustedSecureContext } from '../config/trusted-ca.ts';
import { sha256Hex } from './digests.ts';
import type { ResourceDescriptor } from './statement.ts';

const TIMEOUT_MS = 10_000;

/** The path a target serves its OpenAPI document at, when it serves one (suites/09-versioning.test.ts reads it too). */
export const OPENAPI_PATH = `${API_PREFIX}/openapi.json`;

/** A subject the run could not bind: the record would name a server by its address alone. */
export class SubjectError extends Error {
  override readonly name = 'SubjectError';
}

/**
 * The SHA-256 of the SubjectPublicKeyInfo (DER) of the certificate the server presents, verified by the run's own
 * trust (public roots plus the config's tls.caFile). The key, not the certificate: a renewal with the same key is
 * the same server.
 */
export function tlsPublicKeyDigest(baseUrl: string, tls?: TargetTls): Promise<string> {
  const url = new URL(baseUrl);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const isIp = /^[\d.]+$/.test(host) || host.includes(':');
  return new Promise((resolve, reject) => {
    const socket: TLSSocket = connect({
      host,
      port: Number(url.port || 443),
      ...(isIp ? {} : { servername: host }),
      ...(tls?.caFile ? { secureContext: trustedSecureContext(tls.caFile) } : {}),
    });
    socket.setTimeout(TIMEOUT_MS, () => socket.destroy(new Error('timed out')));
    socket.once('error', (error) => reject(new SubjectError(`the TLS certificate of ${url.host}: ${error.message}`)));
    socket.once('secureConnect', () => {
      const certificate = socket.getPeerX509Certificate();
      socket.end();
      if (!certificate) return reject(new SubjectError(`${url.host} presented no certificate`));
      resolve(sha256Hex(certificate.publicKey.export({ type: 'spki', format: 'der' })));
    });
  });
}

/** The bytes of the target's OpenAPI document, or undefined when it serves none (any answer but 200). */
export async function fetchOpenApi(baseUrl: string, tls?: TargetTls): Promise<Buffer | undefined> {
  const agent = new Agent(tls?.caFile ? { connect: { secureContext: trustedSecureContext(tls.caFile) } } : {});
  try {
    const response = await request(`${baseUrl}${OPENAPI_PATH}`, {
      dispatcher: agent,
      headers: { accept: 'application/json' },
      headersTimeout: TIMEOUT_MS,
      bodyTimeout: TIMEOUT_MS,
    });
    const body = Buffer.from(await response.body.arrayBuffer());
    return response.statusCode === 200 ? body : undefined;
  } catch {
    // Unreachable now is the same as not served: the record then rests on the TLS key (or the URL alone).
    return undefined;
  } finally {
    await agent.close().catch(() => {});
  }
}

export interface UrlProbes {
  tlsPublicKeyDigest: typeof tlsPublicKeyDigest;
  fetchOpenApi: typeof fetchOpenApi;
}

const LIVE: UrlProbes = { tlsPublicKeyDigest, fetchOpenApi };

/**
 * A URL target's subjects: the server by its TLS key (https), and the OpenAPI document it serves. A plain-HTTP
 * target without a document has nothing served to bind to; the subject is then the URL's own digest, and says so.
 */
export async function urlSubjects(
  target: { baseUrl: string; tls?: TargetTls },
  probes: UrlProbes = LIVE,
): Promise<ResourceDescriptor[]> {
  const subjects: ResourceDescriptor[] = [];
  if (target.baseUrl.startsWith('https:')) {
    subjects.push({
      name: target.baseUrl,
      digest: { sha256: await probes.tlsPublicKeyDigest(target.baseUrl, target.tls) },
      annotations: { digestOf: 'SubjectPublicKeyInfo (DER) of the TLS certificate the server presented' },
    });
  }
  const document = await probes.fetchOpenApi(target.baseUrl, target.tls);
  if (document) {
    subjects.push({
      name: `${target.baseUrl}${OPENAPI_PATH}`,
      digest: { sha256: sha256Hex(document) },
      mediaType: 'application/json',
      annotations: { digestOf: 'the OpenAPI document the server served' },
    });
  }
  if (subjects.length === 0) {
    subjects.push({
      name: target.baseUrl,
      digest: { sha256: sha256Hex(target.baseUrl) },
      annotations: { digestOf: 'the base URL itself: plain HTTP and no OpenAPI document served' },
    });
  }
  return subjects;
}

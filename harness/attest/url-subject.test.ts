import { spawnSync } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer as createHttpServer, type RequestListener, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { sha256Hex } from './digests.ts';
import { OPENAPI_PATH, SubjectError, urlSubjects } from './url-subject.ts';

const dir = mkdtempSync(join(tmpdir(), 'attest-url-'));
const certFile = join(dir, 'cert.pem');
const keyFile = join(dir, 'key.pem');
const DOCUMENT = '{"openapi":"3.1.2"}';
const servers: Server[] = [];

const serveDocument: RequestListener = (req, res) => {
  if (req.url === OPENAPI_PATH) res.writeHead(200, { 'content-type': 'application/json' }).end(DOCUMENT);
  else res.writeHead(404).end();
};

async function listen(server: Server): Promise<string> {
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return String((server.address() as AddressInfo).port);
}

const openssl = spawnSync('openssl', ['version'], { stdio: 'ignore' }).status === 0;

beforeAll(() => {
  if (!openssl) return;
  // biome-ignore format: the openssl command line as one reads it
  spawnSync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes',
    '-keyout', keyFile, '-out', certFile, '-days', '2', '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1'],
    { stdio: 'ignore', timeout: 30_000 });
});
afterAll(async () => {
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
  rmSync(dir, { recursive: true, force: true });
});

describe('the subject of a URL record', () => {
  test.skipIf(!openssl)('https: the TLS key the server presented, and the OpenAPI document it serves', async () => {
    const port = await listen(
      createHttpsServer({ cert: readFileSync(certFile), key: readFileSync(keyFile) }, serveDocument),
    );
    const baseUrl = `https://127.0.0.1:${port}`;
    const subjects = await urlSubjects({ baseUrl, tls: { caFile: certFile } });
    const spki = new X509Certificate(readFileSync(certFile)).publicKey.export({ type: 'spki', format: 'der' });
    expect(subjects).toEqual([
      {
        name: baseUrl,
        digest: { sha256: sha256Hex(spki) },
        annotations: { digestOf: 'SubjectPublicKeyInfo (DER) of the TLS certificate the server presented' },
      },
      {
        name: `${baseUrl}${OPENAPI_PATH}`,
        digest: { sha256: sha256Hex(DOCUMENT) },
        mediaType: 'application/json',
        annotations: { digestOf: 'the OpenAPI document the server served' },
      },
    ]);
  });

  test.skipIf(!openssl)('a certificate the run does not trust binds nothing: the record is refused', async () => {
    const port = await listen(
      createHttpsServer({ cert: readFileSync(certFile), key: readFileSync(keyFile) }, serveDocument),
    );
    await expect(urlSubjects({ baseUrl: `https://127.0.0.1:${port}` })).rejects.toThrow(SubjectError);
  });

  test('plain HTTP serving a document: the document alone', async () => {
    const port = await listen(createHttpServer(serveDocument));
    const subjects = await urlSubjects({ baseUrl: `http://127.0.0.1:${port}` });
    expect(subjects.map((s) => s.digest.sha256)).toEqual([sha256Hex(DOCUMENT)]);
  });

  test('plain HTTP and no document: the URL itself, and the record says so', async () => {
    const port = await listen(createHttpServer((_req, res) => res.writeHead(404).end()));
    const baseUrl = `http://127.0.0.1:${port}`;
    const [subject, ...rest] = await urlSubjects({ baseUrl });
    expect(rest).toEqual([]);
    expect(subject).toEqual({
      name: baseUrl,
      digest: { sha256: sha256Hex(baseUrl) },
      annotations: { digestOf: 'the base URL itself: plain HTTP and no OpenAPI document served' },
    });
  });
});

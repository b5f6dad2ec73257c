import { type ConnectionOptions, connect } from 'node:tls';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type StubTarget, startStubTarget } from '../runner/test-support/stub-target.ts';
import { trustedSecureContext } from './trusted-ca.ts';

function handshake(port: number, options: ConnectionOptions): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port, ...options }, () => {
      socket.end();
      resolve('trusted');
    });
    socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
  });
}

describe('trustedSecureContext (the public roots and the target CA, one TLS context per CA file)', () => {
  let stub: StubTarget;
  beforeAll(async () => {
    stub = await startStubTarget({ https: true, clients: {} });
  });
  afterAll(() => stub.close());

  it('is made once per file and trusts the target certificate the public roots alone do not', async () => {
    const caFile = stub.certFile as string;
    const context = trustedSecureContext(caFile);
    expect(trustedSecureContext(caFile)).toBe(context);
    const port = Number(new URL(stub.baseUrl).port);
    expect(await handshake(port, { secureContext: context })).toBe('trusted');
    expect(await handshake(port, {})).toBe('DEPTH_ZERO_SELF_SIGNED_CERT');
  });
});

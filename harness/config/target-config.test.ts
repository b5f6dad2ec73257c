import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fc, test } from '@fast-check/vitest';
import { afterAll, describe, expect, it } from 'vitest';
import { HarnessConfigError, loadTargetConfig, parseTargetConfig, readTargetConfig } from './target-config.ts';
import { trustedCertificates } from './trusted-ca.ts';

const dir = mkdtempSync(join(tmpdir(), 'target-config-test-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let fileCount = 0;
function configFile(content: unknown): string {
  const file = join(dir, `config-${fileCount++}.json`);
  writeFileSync(file, typeof content === 'string' ? content : JSON.stringify(content));
  return file;
}

function thrown(fn: () => unknown): Error {
  try {
    fn();
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected a throw');
}

const SECRET = 'S3cr3t-Value-That-Must-Not-Leak';
/** `${NAME}`, spelled without a template-looking literal. */
const braced = (name: string) => ['$', '{', name, '}'].join('');

describe('loadTargetConfig', () => {
  it('reads roles, hooks (by default under the service) and owned; strips a trailing slash', () => {
    const file = configFile({
      baseUrl: 'https://partner.example.test/',
      clients: {
        partnerA: { clientId: 'a-id', clientSecret: 'a-secret' },
        readOnly: { clientId: 'r', clientSecret: 's' },
        narrowPartner: { clientId: 'n', clientSecret: 't' },
      },
      hooks: { token: 'ctl' },
      owned: true,
    });
    expect(loadTargetConfig(file, {})).toEqual({
      baseUrl: 'https://partner.example.test',
      clients: {
        partnerA: { clientId: 'a-id', clientSecret: 'a-secret' },
        readOnly: { clientId: 'r', clientSecret: 's' },
        narrowPartner: { clientId: 'n', clientSecret: 't' },
      },
      hooks: { baseUrl: 'https://partner.example.test/test-hooks/v1', token: 'ctl' },
      owned: true,
    });
  });

  it('reads the earlier `control` key as hooks under its base URL, with a warning', () => {
    const { config, warnings } = parseTargetConfig(
      { baseUrl: 'http://x.test', control: { baseUrl: 'http://127.0.0.1:9000', token: 'ctl' } },
      {},
    );
    expect(config.hooks).toEqual({ baseUrl: 'http://127.0.0.1:9000/test-hooks/v1', token: 'ctl' });
    expect(warnings.join('\n')).toMatch(/control is now called hooks/);
  });

  it('reads $NAME and braced NAME references from the environment', () => {
    const file = configFile({
      baseUrl: braced('TARGET_URL'),
      clients: { partnerA: { clientId: '$A_ID', clientSecret: braced('A_SECRET') } },
      hooks: { baseUrl: 'http://127.0.0.1:9000/hooks', token: '$CTL' },
    });
    const config = loadTargetConfig(file, {
      TARGET_URL: 'http://127.0.0.1:8080',
      A_ID: 'id-from-env',
      A_SECRET: SECRET,
      CTL: 'control-from-env',
    });
    expect(config.baseUrl).toBe('http://127.0.0.1:8080');
    expect(config.clients.partnerA).toEqual({ clientId: 'id-from-env', clientSecret: SECRET });
    expect(config.hooks).toEqual({ baseUrl: 'http://127.0.0.1:9000/hooks', token: 'control-from-env' });
  });

  it('leaves strings that merely contain a $ alone', () => {
    const file = configFile({
      baseUrl: 'http://x.test',
      clients: { partnerA: { clientId: 'id', clientSecret: 'a$b' } },
    });
    expect(loadTargetConfig(file, {}).clients.partnerA?.clientSecret).toBe('a$b');
  });

  it('names a missing environment variable without echoing any value', () => {
    const file = configFile({
      baseUrl: 'http://x.test',
      clients: {
        partnerA: { clientId: 'id', clientSecret: SECRET },
        partnerB: { clientId: 'b', clientSecret: '$B_SECRET' },
      },
    });
    const error = thrown(() => loadTargetConfig(file, {}));
    expect(error).toBeInstanceOf(HarnessConfigError);
    expect(error.message).toContain('B_SECRET');
    expect(error.message).toContain('clients.partnerB.clientSecret');
    expect(error.message).not.toContain(SECRET);
  });

  it('ignores unknown roles and keys with a warning each', () => {
    const file = configFile({
      baseUrl: 'http://x.test',
      clients: { partnerA: { clientId: 'a', clientSecret: 's' }, superUser: { clientId: 'x', clientSecret: SECRET } },
      extra: 1,
    });
    const { config, warnings } = readTargetConfig(file, {});
    expect(Object.keys(config.clients)).toEqual(['partnerA']);
    expect(warnings).toHaveLength(2);
    expect(warnings.join('\n')).toContain('clients.superUser');
    expect(warnings.join('\n')).not.toContain(SECRET);
    const printed: string[] = [];
    loadTargetConfig(file, {}, (w) => printed.push(w));
    expect(printed).toEqual(warnings);
  });

  it('removes the API prefix from baseUrl with a warning', () => {
    const { config, warnings } = parseTargetConfig({ baseUrl: 'http://x.test/api/partner/v1', clients: {} }, {});
    expect(config.baseUrl).toBe('http://x.test');
    expect(warnings).toHaveLength(1);
  });

  it('rejects invalid JSON without quoting the file', () => {
    const file = configFile(
      `{"baseUrl": "http://x.test", "clients": {"partnerA": {"clientSecret": "${SECRET}" oops}}}`,
    );
    const error = thrown(() => loadTargetConfig(file, {}));
    expect(error).toBeInstanceOf(HarnessConfigError);
    expect(error.message).toMatch(/not valid JSON at line 1/);
    expect(error.message).not.toContain(SECRET);
    // V8 quotes the whole text in this form of its message.
    const quoting = thrown(() => loadTargetConfig(configFile(`{"clientSecret": "${SECRET}", x}`), {}));
    expect(quoting.message).toMatch(/not valid JSON/);
    expect(quoting.message).not.toContain(SECRET);
  });

  it('rejects a missing file, a non-object, and bad fields with clear messages', () => {
    expect(() => loadTargetConfig(join(dir, 'absent.json'), {})).toThrow(/cannot read target config .*ENOENT/);
    expect(() => loadTargetConfig(configFile([1, 2]), {})).toThrow(/must be a JSON object/);
    expect(() => parseTargetConfig({ clients: {} }, {})).toThrow(/baseUrl must be an http\(s\) URL/);
    expect(() => parseTargetConfig({ baseUrl: 'ftp://x.test' }, {})).toThrow(/http or https/);
    expect(() => parseTargetConfig({ baseUrl: 'http://x.test', clients: { partnerA: { clientId: 'a' } } }, {})).toThrow(
      /clients\.partnerA\.clientSecret must be a non-empty string/,
    );
    expect(() => parseTargetConfig({ baseUrl: 'http://x.test', hooks: { token: '' } }, {})).toThrow(/hooks\.token/);
    expect(() => parseTargetConfig({ baseUrl: 'http://x.test', owned: 'yes' }, {})).toThrow(/owned/);
  });

  it('rejects credentials in baseUrl without echoing them', () => {
    const error = thrown(() => parseTargetConfig({ baseUrl: `https://user:${SECRET}@x.test` }, {}));
    expect(error.message).toMatch(/must not carry credentials/);
    expect(error.message).not.toContain(SECRET);
  });

  test.prop([fc.stringMatching(/^[A-Za-z0-9_~.-]{12,40}$/), fc.constantFrom('clientId', 'controlToken', 'baseUrl')])(
    'no configuration error ever echoes a secret value',
    (secret, broken) => {
      const raw: Record<string, unknown> = {
        baseUrl: broken === 'baseUrl' ? `not a url ${secret}` : 'http://x.test',
        clients: { partnerA: { clientId: broken === 'clientId' ? 42 : 'id', clientSecret: secret } },
        hooks: { token: broken === 'controlToken' ? 7 : secret },
      };
      const error = thrown(() => parseTargetConfig(raw, { OTHER: secret }));
      expect(error).toBeInstanceOf(HarnessConfigError);
      expect(error.message).not.toContain(secret);
    },
  );
});

describe('probes', () => {
  const base = { baseUrl: 'http://127.0.0.1:1' };

  it('reads every probe kind', () => {
    const probes = {
      incompleteVehicleCode: 'V-1',
      unpublishedVehicleCode: 'V-2',
      inactiveLocationCode: 'L-1',
      noOneWayPair: { pickupLocation: 'L-2', dropoffLocation: 'L-3' },
      pendingRate: { role: 'partnerA', accountCode: 'A', rateCode: 'R1' },
      expiredRate: { role: 'partnerA', accountCode: 'A', rateCode: 'R2' },
      disabledRate: { role: 'partnerB', accountCode: 'B', rateCode: 'R3' },
    };
    expect(parseTargetConfig({ ...base, probes }, {}).config.probes).toEqual(probes);
  });

  it('rejects unknown probes, empty codes and unknown roles', () => {
    expect(() => parseTargetConfig({ ...base, probes: { nope: 'x' } }, {})).toThrow(
      /probes\.nope is not a known probe/,
    );
    expect(() => parseTargetConfig({ ...base, probes: { inactiveLocationCode: '' } }, {})).toThrow(/non-empty string/);
    expect(() =>
      parseTargetConfig({ ...base, probes: { pendingRate: { role: 'nobody', accountCode: 'A', rateCode: 'R' } } }, {}),
    ).toThrow(/role must be one of/);
  });
});

describe('tls', () => {
  const base = { baseUrl: 'https://127.0.0.1:1' };
  const tlsDir = mkdtempSync(join(dir, 'tls-'));
  const caFile = join(tlsDir, 'ca.pem');
  // biome-ignore format: the openssl command line as one reads it
  execFileSync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes',
    '-keyout', join(tlsDir, 'key.pem'), '-out', caFile, '-days', '1', '-subj', '/CN=test-ca'], { stdio: 'ignore' });

  it('reads tls.caFile, relative to the config file, and checks it holds a certificate', () => {
    const file = join(tlsDir, 'target.json');
    writeFileSync(file, JSON.stringify({ ...base, tls: { caFile: 'ca.pem' } }));
    expect(readTargetConfig(file, {}).config.tls).toEqual({ caFile });
    expect(parseTargetConfig({ ...base, tls: { caFile } }, {}).config.tls).toEqual({ caFile });
    expect(parseTargetConfig(base, {}).config.tls).toBeUndefined();
  });

  it('the trust is the public roots plus the CA file', () => {
    const trusted = trustedCertificates(caFile);
    expect(trusted.length).toBeGreaterThan(100);
    expect(trusted.at(-1)?.trim()).toBe(readFileSync(caFile, 'utf8').trim());
  });

  it('rejects a missing file, a file without a certificate, a broken certificate and a non-string', () => {
    const notPem = join(tlsDir, 'not.pem');
    writeFileSync(notPem, 'hello');
    const broken = join(tlsDir, 'broken.pem');
    writeFileSync(broken, '-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n');
    const cases: [unknown, RegExp][] = [
      [{ caFile: join(tlsDir, 'absent.pem') }, /tls\.caFile: cannot read .*absent\.pem \(ENOENT\)/],
      [{ caFile: notPem }, /tls\.caFile: .*not\.pem holds no PEM certificate/],
      [{ caFile: broken }, /tls\.caFile: .*broken\.pem: certificate #1 is not a valid X\.509 certificate/],
      [{ caFile: 42 }, /tls\.caFile must be a non-empty file name/],
      ['ca.pem', /tls must be an object/],
    ];
    for (const [tls, message] of cases) {
      const error = thrown(() => parseTargetConfig({ ...base, tls }, {}));
      expect(error).toBeInstanceOf(HarnessConfigError);
      expect(error.message).toMatch(message);
    }
  });

  it('warns about unknown tls keys', () => {
    const { warnings } = parseTargetConfig({ ...base, tls: { caFile, insecure: true } }, {});
    expect(warnings).toEqual(['target config: unknown key tls.insecure ignored']);
  });
});

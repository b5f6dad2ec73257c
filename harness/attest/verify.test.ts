import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { countersign } from './countersign.ts';
import { parseEnvelope, renderEnvelope, signEnvelope } from './dsse.ts';
import { embeddedSubject } from './embedded-subject.ts';
import { loadSigningKey, loadVerifyingKey } from './keys.ts';
import { PAYLOAD_TYPE, PREDICATE_TYPE, readStatement } from './statement.ts';
import { type Fixture, keyPair, samplesRemovedAfterAll } from './test-support/record-fixture.ts';
import { type VerifyRequest, verifyRecord } from './verify.ts';

const sample = samplesRemovedAfterAll();

function request(fixture: Fixture, overrides: Partial<VerifyRequest> = {}): VerifyRequest {
  return {
    envelope: parseEnvelope(readFileSync(fixture.record, 'utf8')),
    keys: [loadVerifyingKey(fixture.implementer.publicFile, {})],
    report: { source: 'report.json', bytes: readFileSync(join(fixture.reportDir, 'report.json')) },
    subject: { kind: 'embedded', digest: embeddedSubject(fixture.root).digest.sha256 },
    ...overrides,
  };
}

/** One byte of the buffer flipped (the lowest bit: the smallest change there is). */
function flipped(bytes: Buffer, at: number): Buffer {
  const copy = Buffer.from(bytes);
  copy[at] = (copy[at] ?? 0) ^ 1;
  return copy;
}

describe('a signed record', () => {
  test('verifies: signature, subject, report; and says what was judged and the verdict', async () => {
    const fixture = await sample();
    const result = verifyRecord(request(fixture));
    expect(result.problems).toEqual([]);
    expect(result.valid).toBe(true);
    expect(result.lines[0]).toMatch(/^signature 1 \(keyid SHA256:\S+\): valid, key .*implementer\.pub$/);
    expect(result.lines).toContain(
      `subject matches this installation's reference implementation (sha256:${embeddedSubject(fixture.root).digest.sha256})`,
    );
    expect(result.lines.some((line) => /^report: report\.json matches \(sha256:[a-f0-9]{64}\)$/.test(line))).toBe(true);
    expect(result.lines.at(-1)).toMatch(/^verdict: failed \(exit 1\); clauses: .*1 fail/);
  });

  test('carries what the issue asks of the predicate', async () => {
    const fixture = await sample();
    const envelope = parseEnvelope(readFileSync(fixture.record, 'utf8'));
    expect(envelope.payloadType).toBe(PAYLOAD_TYPE);
    const statement = readStatement(Buffer.from(envelope.payload, 'base64'));
    expect(statement.predicateType).toBe(PREDICATE_TYPE);
    const { predicate } = statement;
    expect(predicate.spec.release).toBe(fixture.report.spec.release);
    expect(predicate.spec.clauseCatalogue.clauses).toBe(fixture.report.coverage.clausesTotal);
    expect(predicate.spec.clauseCatalogue.digest.sha256).toMatch(/^[a-f0-9]{64}$/);
    expect(predicate.tool).toEqual(fixture.report.tool);
    expect(predicate.suites.files).toEqual(['suites/04.03-locations.test.ts', 'suites/09-versioning.test.ts']);
    expect(predicate.run).toMatchObject({ profile: 'book', strict: false, seed: 42, runs: 10, date: '2025-06-01' });
    expect(predicate.run.startedAt).toBe('2025-06-01T10:00:00.000Z');
    expect(predicate.run.finishedAt).toBe('2025-06-01T10:01:00.000Z');
    expect(predicate.verdict).toMatchObject({ passed: false, exitCode: 1 });
    expect(predicate.clauses.find((clause) => clause.id === '4.7.3')).toEqual({
      id: '4.7.3',
      level: 'MUST',
      outcome: 'fail',
      judgedBy: ['live'],
    });
    expect(predicate.clauses).toHaveLength(fixture.report.coverage.clausesTotal);
    expect(predicate.report.name).toBe('report.json');
  });

  test('one byte of the payload flipped: exit-1 material, with the reason', async () => {
    const fixture = await sample();
    const base = request(fixture);
    for (const at of [0, 200, 1000]) {
      const payload = flipped(Buffer.from(base.envelope.payload, 'base64'), at).toString('base64');
      const result = verifyRecord({ ...base, envelope: { ...base.envelope, payload } });
      expect(result.valid).toBe(false);
      expect(result.problems.join('\n')).toMatch(/signature 1 .* does not verify with .*implementer\.pub: the payload/);
      // An unverified payload's claims are not repeated.
      expect(result.lines.some((line) => line.startsWith('verdict:'))).toBe(false);
    }
  });

  test('one byte of the report flipped', async () => {
    const fixture = await sample();
    const base = request(fixture);
    const result = verifyRecord({
      ...base,
      report: { source: 'report.json', bytes: flipped(Buffer.from(base.report?.bytes ?? []), 10) },
    });
    expect(result.valid).toBe(false);
    expect(result.problems).toEqual([
      expect.stringMatching(
        /^report: report\.json is sha256:[a-f0-9]{64}, the record signed sha256:[a-f0-9]{64} \(changed since/,
      ),
    ]);
  });

  test('one byte of the subject flipped: another reference tree, another image digest, another URL', async () => {
    const fixture = await sample();
    writeFileSync(join(fixture.root, 'reference-impl', 'main.ts'), 'export {};\r');
    const changed = embeddedSubject(fixture.root).digest.sha256;
    const tree = verifyRecord(request(fixture, { subject: { kind: 'embedded', digest: changed } }));
    expect(tree.valid).toBe(false);
    expect(tree.problems[0]).toMatch(
      /this installation's reference implementation is sha256:[a-f0-9]{64} \(another version/,
    );

    const image = verifyRecord(
      request(fixture, { subject: { kind: 'image', reference: 'app:1', digests: ['0'.repeat(64)] } }),
    );
    expect(image.problems[0]).toMatch(/^subject: the record judged .*; --image app:1 is sha256:0{64}$/);

    const url = verifyRecord(
      request(fixture, { subject: { kind: 'url', baseUrl: 'https://partner-api.example.test' } }),
    );
    expect(url.problems[0]).toMatch(/not https:\/\/partner-api\.example\.test$/);
  });

  test('a record signed by someone else, or by nobody, is not valid for the key named', async () => {
    const fixture = await sample();
    const stranger = keyPair(fixture.dir, 'stranger', 'p256');
    const result = verifyRecord(request(fixture, { keys: [loadVerifyingKey(stranger.publicFile, {})] }));
    expect(result.valid).toBe(false);
    expect(result.lines[0]).toMatch(/not checked, signed by a key not given$/);
    expect(result.problems).toEqual([expect.stringMatching(/^no signature by .*stranger\.pub \(keyid SHA256:/)]);

    const unsigned = request(fixture);
    expect(verifyRecord({ ...unsigned, envelope: { ...unsigned.envelope, signatures: [] } }).problems).toContain(
      'the envelope has no signature',
    );
  });

  test('a signed payload of another type or predicate is not a certification record', async () => {
    const fixture = await sample();
    const other = signEnvelope(
      PAYLOAD_TYPE,
      Buffer.from(
        '{"_type":"https://in-toto.io/Statement/v1","predicateType":"https://slsa.dev/provenance/v1","subject":[],"predicate":{}}',
      ),
      fixture.key,
    );
    const result = verifyRecord(request(fixture, { envelope: other }));
    expect(result.problems).toEqual([
      expect.stringMatching(/^not a certification record: predicateType "https:\/\/slsa\.dev/),
    ]);
    const text = signEnvelope('text/plain', Buffer.from('hello'), fixture.key);
    expect(verifyRecord(request(fixture, { envelope: text })).problems).toEqual([
      `payloadType is "text/plain", not ${PAYLOAD_TYPE}`,
    ]);
  });
});

describe('countersigning', () => {
  test('a second signature (ECDSA P-256 over Ed25519): both reported, both required when both keys are named', async () => {
    const fixture = await sample();
    const partner = keyPair(fixture.dir, 'partner', 'p256');
    const envelope = countersign(
      parseEnvelope(readFileSync(fixture.record, 'utf8')),
      loadSigningKey(partner.privateFile, {}),
    );
    writeFileSync(fixture.record, renderEnvelope(envelope));
    const keys = [loadVerifyingKey(fixture.implementer.publicFile, {}), loadVerifyingKey(partner.publicFile, {})];
    const result = verifyRecord(request(fixture, { keys }));
    expect(result.valid).toBe(true);
    expect(result.lines.slice(0, 2)).toEqual([
      expect.stringMatching(/^signature 1 \(keyid SHA256:\S+\): valid, key .*implementer\.pub$/),
      expect.stringMatching(/^signature 2 \(keyid SHA256:\S+\): valid, key .*partner\.pub$/),
    ]);
    // The implementer alone still verifies: the partner's signature is reported, not required.
    const alone = verifyRecord(request(fixture));
    expect(alone.valid).toBe(true);
    expect(alone.lines[1]).toMatch(/^signature 2 .*: not checked, signed by a key not given$/);

    // The countersignature broken: the partner's key finds its own signature invalid.
    const broken = parseEnvelope(readFileSync(fixture.record, 'utf8'));
    const sig = Buffer.from(broken.signatures[1]?.sig ?? '', 'base64');
    broken.signatures[1] = {
      keyid: broken.signatures[1]?.keyid ?? '',
      sig: flipped(sig, sig.length - 1).toString('base64'),
    };
    const invalid = verifyRecord(request(fixture, { envelope: broken, keys }));
    expect(invalid.valid).toBe(false);
    expect(invalid.problems).toEqual([expect.stringMatching(/^signature 2 .* does not verify with .*partner\.pub/)]);
  });

  test('the same key twice, or a payload that is no record, is refused', async () => {
    const fixture = await sample();
    const envelope = parseEnvelope(readFileSync(fixture.record, 'utf8'));
    expect(() => countersign(envelope, fixture.key)).toThrow(/has signed this record already/);
    expect(() => countersign({ ...envelope, payload: Buffer.from('{}').toString('base64') }, fixture.key)).toThrow(
      /not an in-toto Statement v1/,
    );
  });
});

describe('what the record holds', () => {
  test("the run's scrub passes over the statement: a target's secret never reaches the signed payload", async () => {
    const fixture = await sample({ scrub: (text) => text.replaceAll('127.0.0.1:4010', '[REDACTED]') });
    const envelope = parseEnvelope(readFileSync(fixture.record, 'utf8'));
    const payload = Buffer.from(envelope.payload, 'base64').toString('utf8');
    expect(payload).not.toContain('127.0.0.1:4010');
    expect(payload).toContain('[REDACTED]');
    expect(verifyRecord(request(fixture)).valid).toBe(true);
  });

  test('no private key material in the record', async () => {
    const fixture = await sample();
    const pem = readFileSync(fixture.implementer.privateFile, 'utf8');
    const body = pem
      .split('\n')
      .filter((line) => line && !line.startsWith('-----'))
      .join('');
    const record = readFileSync(fixture.record, 'utf8');
    expect(record).not.toContain(body);
    expect(Buffer.from(parseEnvelope(record).payload, 'base64').toString('utf8')).not.toContain(body);
  });
});

import { describe, expect, test } from 'vitest';
import { shortFuzzCampaigns } from './test-support/short-fuzz.ts';

/**
 * A short fuzz campaign against a faulty reference (README "Fuzz campaigns"; npm run test:long): each fault's
 * violation found, shrunk and filed under its clause. certify.fuzz.test.ts runs the clean campaign in npm test.
 */
const fuzz = shortFuzzCampaigns('certify-fuzz-faults-');

describe('certify --fuzz against faults', () => {
  test('a faulty reference: the violation is filed under its clause with a minimal sequence to replay', async () => {
    // Two faults: one the universal rules see, one only the hostile bearer cases' own expectation sees.
    const { report, exitCode } = await fuzz(['envelope-extra-field', 'token-signature-unchecked'], 'faulty');
    expect(exitCode).toBe(1);
    const clauses = report.sections.flatMap((s) => s.clauses);
    const envelope = clauses.find((c) => c.id === '7.2.1');
    expect(envelope?.outcome).toBe('fail');
    const observation = envelope?.observations?.[0];
    expect(observation?.message).toMatch(/minimal sequence: .*replay: --fuzz --seed/);
    expect(observation?.exchange?.curl).toMatch(/^curl /);
    const bearer = clauses.find((c) => c.id === '5.6a');
    expect(bearer?.observations?.map((o) => o.message).join('\n')).toMatch(/hostile-refused/);
    // The forged token never reaches a report in the clear: curl lines carry no Authorization value.
    expect(JSON.stringify(report)).not.toMatch(/Bearer ey/);
  }, 120_000);
});

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { buildReport } from '../report/build.ts';
import { renderJson } from '../report/json.ts';
import { CertifyError } from './errors.ts';
import { loadReplayPlan, testNamePatternOf } from './replay.ts';
import { loadWaivers } from './waivers.ts';

const dir = mkdtempSync(join(tmpdir(), 'certify-unit-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function file(name: string, content: string): string {
  const path = join(dir, name);
  writeFileSync(path, content);
  return path;
}

function errorOf(fn: () => unknown): Error {
  try {
    fn();
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected an error');
}

describe('waivers file', () => {
  test('a valid file loads', () => {
    const path = file('ok.json', JSON.stringify([{ clause: '4.0.2', reason: 'ticket 12', expires: '2027-01-31' }]));
    expect(loadWaivers(path)).toEqual([{ clause: '4.0.2', reason: 'ticket 12', expires: '2027-01-31' }]);
  });

  test.each([
    ['missing.json', null, /cannot read .*missing\.json \(ENOENT\)/],
    ['bad.json', '[{', /bad\.json is not valid JSON/],
    ['object.json', '{}', /JSON array/],
    ['clause.json', JSON.stringify([{ clause: '4.99.1', reason: 'x', expires: '2027-01-01' }]), /4\.99\.1/],
    ['date.json', JSON.stringify([{ clause: '4.0.2', reason: 'x', expires: '2027-02-30' }]), /expires/],
    ['reason.json', JSON.stringify([{ clause: '4.0.2', reason: ' ', expires: '2027-01-01' }]), /reason/],
    ['key.json', JSON.stringify([{ clause: '4.0.2', reason: 'x', expiry: '2027-01-01' }]), /expiry/],
  ])('%s is refused with a message naming the problem', (name, content, pattern) => {
    const path = content === null ? join(dir, name) : file(name, content);
    const error = errorOf(() => loadWaivers(path));
    expect(error).toBeInstanceOf(CertifyError);
    expect(error.message).toMatch(/^--expected-failures: /);
    expect(error.message).toMatch(pattern);
  });
});

describe('replay plan', () => {
  const report = buildReport({
    checks: [
      {
        clauseId: '4.0.2',
        name: 'Fleet response carries X-Request-Id (a.b)',
        file: 'suites/x.test.ts',
        representation: 'xml',
        outcome: 'fail',
        durationMs: 3,
      },
      {
        clauseId: '4.0.2',
        name: 'Fleet response carries X-Request-Id (a.b)',
        file: 'suites/x.test.ts',
        representation: 'json',
        outcome: 'pass',
        durationMs: 3,
      },
    ],
    tool: { name: 't', version: '0' },
    target: { baseUrl: 'http://127.0.0.1:1', embedded: true },
    profile: 'shop',
    options: { allowBookings: false, strict: true, seed: 4242, runs: 7, date: '2027-03-04', only: [] },
    timing: { startedAt: '2026-01-01T00:00:00.000Z', finishedAt: '2026-01-01T00:00:01.000Z', durationMs: 1000 },
  });
  const reportFile = file('report.json', renderJson(report));

  test('takes the clause, an exact name pattern, seed, date and settings of the report', () => {
    const plan = loadReplayPlan('4.0.2/Fleet response carries X-Request-Id (a.b)/xml', reportFile);
    expect(plan).toMatchObject({
      clauseId: '4.0.2',
      seed: 4242,
      date: '2027-03-04',
      runs: 7,
      profile: 'shop',
      strict: true,
    });
    const pattern = new RegExp(plan.testNamePattern);
    expect(pattern.test('GET /fleet [4.0.2] Fleet response carries X-Request-Id (a.b) (xml)')).toBe(true);
    expect(pattern.test('[4.0.2] Fleet response carries X-Request-Id (a.b) (xml)')).toBe(true);
    expect(pattern.test('GET /fleet [4.0.2] Fleet response carries X-Request-Id (a.b) (json)')).toBe(false);
    expect(pattern.test('[4.0.2] Fleet response carries X-Request-Id (a.b) (xml) again')).toBe(false);
    expect(pattern.test('[4.0.2] Fleet response carries X-Request-Id (aXb) (xml)')).toBe(false);
  });

  test('an unknown check id names the checks of its clause', () => {
    const error = errorOf(() => loadReplayPlan('4.0.2/nope/json', reportFile));
    expect(error).toBeInstanceOf(CertifyError);
    expect(error.message).toContain('no check "4.0.2/nope/json"');
    expect(error.message).toContain('4.0.2/Fleet response carries X-Request-Id (a.b)/xml');
  });

  test('a file that is not a report is refused', () => {
    expect(errorOf(() => loadReplayPlan('x', file('junk.json', '[]'))).message).toMatch(/not a certification report/);
    expect(errorOf(() => loadReplayPlan('x', join(dir, 'none.json'))).message).toMatch(/--from: cannot read/);
  });

  test('a check without representation is matched by its title alone', () => {
    expect(new RegExp(testNamePatternOf({ name: 'token' }, '4.1.1')).test('[4.1.1] token')).toBe(true);
  });
});

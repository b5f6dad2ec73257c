import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SaxesParser } from 'saxes';
import { afterAll, describe, expect, it } from 'vitest';
import { buildReport } from '../harness/report/build.ts';
import { renderHtml } from '../harness/report/html-report.ts';
import { renderJson } from '../harness/report/json.ts';
import { renderJunit } from '../harness/report/junit.ts';
import { renderMarkdown } from '../harness/report/markdown.ts';
import type { LoadScenarioResult, ReportModel } from '../harness/report/model.ts';
import { sampleInput } from '../harness/report/test-support/sample.ts';
import { LOAD_EXIT, runLoadCli } from './cli-program.ts';

const dirs: string[] = [];
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'load-cli-'));
  dirs.push(dir);
  return dir;
};
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function cli(args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  return runLoadCli(args, { stdout: (t) => out.push(t), stderr: (t) => err.push(t) }).then((code) => ({
    code,
    stdout: out.join(''),
    stderr: err.join(''),
  }));
}

function parseXml(text: string): { suites: Record<string, string>[] } {
  const suites: Record<string, string>[] = [];
  const parser = new SaxesParser();
  parser.on('opentag', (tag) => {
    if (tag.name === 'testsuite') suites.push(tag.attributes as Record<string, string>);
  });
  parser.write(text).close();
  return { suites };
}

describe('npm run load', () => {
  it('rate-limit against the embedded reference passes its checks and writes JSON, HTML and JUnit, also into a report', async () => {
    const out = tempDir();
    const reportDir = tempDir();
    const model: ReportModel = buildReport(sampleInput());
    writeFileSync(join(reportDir, 'report.json'), renderJson(model));
    writeFileSync(join(reportDir, 'report.html'), renderHtml(model));
    writeFileSync(join(reportDir, 'junit.xml'), renderJunit(model));
    writeFileSync(join(reportDir, 'report.md'), renderMarkdown(model));

    const run = await cli(['rate-limit', '--ci', '--out', out, '--report-dir', reportDir]);
    expect(run.stderr).not.toContain('error');
    expect(run.code).toBe(LOAD_EXIT.passed);
    expect(run.stdout).toContain('rate-limit: Rate limit under load: PASSED (native engine');

    const result = JSON.parse(readFileSync(join(out, 'rate-limit.json'), 'utf8')) as LoadScenarioResult;
    expect(result.passed).toBe(true);
    const locations = result.steps[0];
    // 15 a second for 4 s on a fresh window: 30 succeed, the rest are refused.
    expect(locations).toMatchObject({ name: 'locations', count: 60, errors: { RATE_LIMITED: 30 } });
    expect(result.series?.rateLimited.reduce((a, b) => a + b, 0)).toBe(30);
    expect(Math.min(...(result.series?.remaining.rateLimit ?? []).filter((v): v is number => v !== null))).toBe(0);

    const html = readFileSync(join(out, 'rate-limit.html'), 'utf8');
    expect(html).toContain('Load scenarios: 1 of 1 passed');
    expect(html.match(/<svg /g)).toHaveLength(4);
    expect(html).not.toMatch(/<script|style="/);
    expect(parseXml(readFileSync(join(out, 'rate-limit.junit.xml'), 'utf8')).suites[0]).toMatchObject({
      tests: String(result.checks.length + result.thresholds.length),
      failures: '0',
    });

    const merged = JSON.parse(readFileSync(join(reportDir, 'report.json'), 'utf8')) as ReportModel;
    expect(merged.load?.map((r) => r.scenario)).toEqual(['rate-limit']);
    expect(merged.verdict).toEqual(model.verdict);
    // Every format of the report takes the result: HTML, the one junit.xml, report.md.
    expect(readFileSync(join(reportDir, 'report.html'), 'utf8')).toContain('id="load-rate-limit"');
    expect(parseXml(readFileSync(join(reportDir, 'junit.xml'), 'utf8')).suites.map((s) => s.name)).toContain(
      'load rate-limit: Rate limit under load (native)',
    );
    expect(readFileSync(join(reportDir, 'report.md'), 'utf8')).toContain('- rate-limit: passed (native engine)');
    expect(existsSync(join(reportDir, 'report.junit.xml'))).toBe(false);
  }, 90_000);

  it('checks the report to merge into before sending any load: it exists, and judged the same target (exit 2)', async () => {
    const out = tempDir();
    const empty = tempDir();
    const started = Date.now();
    const missing = await cli(['rate-limit', '--ci', '--out', join(out, 'a'), '--report-dir', empty]);
    expect(missing.code).toBe(LOAD_EXIT.error);
    expect(missing.stderr).toContain(`--report-dir: ${join(empty, 'report.json')} does not exist; run npm run certify`);
    expect(missing.stderr).not.toMatch(/\n\s+at /);
    expect(existsSync(join(out, 'a'))).toBe(false);

    const other = tempDir();
    const model = buildReport(sampleInput({ target: { baseUrl: 'https://partner.example.test', embedded: false } }));
    writeFileSync(join(other, 'report.json'), renderJson(model));
    const across = await cli(['rate-limit', '--ci', '--out', join(out, 'b'), '--report-dir', other]);
    expect(across.code).toBe(LOAD_EXIT.error);
    expect(across.stderr).toContain(
      'the report there judged https://partner.example.test, this load run measures the embedded reference',
    );
    expect(existsSync(join(out, 'b'))).toBe(false);
    expect(readFileSync(join(other, 'report.json'), 'utf8')).toBe(renderJson(model));
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('refuses a target that is not on this machine unless the config says it is owned (exit 2, nothing sent)', async () => {
    const dir = tempDir();
    const config = join(dir, 'target.json');
    mkdirSync(dir, { recursive: true });
    writeFileSync(config, JSON.stringify({ baseUrl: 'https://api.partner.example', clients: {} }));
    const run = await cli(['rate-limit', '--config', config, '--out', join(dir, 'out')]);
    expect(run.code).toBe(LOAD_EXIT.error);
    expect(run.stderr).toContain('refusing to send load to api.partner.example');
    expect(existsSync(join(dir, 'out'))).toBe(false);
  });

  it('bounds duration and rate, and names unknown scenarios', async () => {
    expect((await cli(['rate-limit', '--duration', '900'])).stderr).toContain(
      '--duration must be above 0 and at most 600',
    );
    expect((await cli(['rate-limit', '--rate', 'lots'])).stderr).toContain('--rate must be a number');
    const unknown = await cli(['no-such']);
    expect(unknown.code).toBe(LOAD_EXIT.error);
    expect(unknown.stderr).toContain('unknown scenario no-such');
    expect((await cli(['--list'])).stdout).toContain('idempotency-storm');
  });
});

import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { chromium } from 'playwright-core';
import { SaxesParser } from 'saxes';
import { describe, expect, it } from 'vitest';
import { buildReport } from './build.ts';
import { esc } from './html-kit.ts';
import { renderLoadHtml } from './html-load-plots.ts';
import { renderHtml } from './html-report.ts';
import { renderJson } from './json.ts';
import { renderJunit, renderLoadJunit } from './junit.ts';
import type { ReportModel } from './model.ts';
import { CHROMIUM, skipBrowser } from './test-support/chromium.ts';
import { loadResult } from './test-support/load-sample.ts';
import { sampleInput, XSS_PROBE } from './test-support/sample.ts';

const addFormats = addFormatsModule.default;

function withLoad(): ReportModel {
  return {
    ...buildReport(sampleInput()),
    load: [loadResult(), loadResult({ scenario: 'booking-funnel', passed: true, series: undefined })],
  };
}

function junitSuites(xml: string): Record<string, string>[] {
  const suites: Record<string, string>[] = [];
  let root: Record<string, string> = {};
  const parser = new SaxesParser();
  parser.on('opentag', (tag) => {
    if (tag.name === 'testsuite') suites.push(tag.attributes as Record<string, string>);
    if (tag.name === 'testsuites') root = tag.attributes as Record<string, string>;
  });
  parser.write(xml).close();
  return [root, ...suites];
}

describe('load results in the report', () => {
  it('HTML: a section next to the verdict with four inline SVG plots per scenario, all text escaped, no new script or style attribute', () => {
    const model = withLoad();
    const html = renderHtml(model);
    const load = html.indexOf('id="load"');
    expect(load).toBeGreaterThan(html.indexOf('id="verdict"'));
    expect(load).toBeLessThan(html.indexOf('id="matrix-panel"'));
    expect(html).toContain('Load scenarios: 1 of 2 passed');
    expect(html).toContain('<dt>Load</dt><dd>1 of 2 scenarios passed');
    expect(html.match(/<svg /g)).toHaveLength(4);
    expect(html).toContain('No time series');
    expect(html).not.toContain(XSS_PROBE);
    expect(html).toContain(esc(`31 successes ${XSS_PROBE}`));
    expect(html).not.toMatch(/\sstyle="/);
    expect(html.match(/<script>/g)).toHaveLength(1);
    // A bucket without data breaks the latency line rather than dropping to zero.
    const latency = html.slice(html.indexOf('data-plot="Latency over time"'));
    const figure = latency.slice(0, latency.indexOf('</figure>'));
    expect(figure.match(/<polyline/g)?.length).toBe(2);
    expect(figure.match(/<circle/g)?.length).toBe(2);
    expect(renderHtml(buildReport(sampleInput()))).not.toContain('id="load"');
  });

  it('HTML page of load results alone: same CSP, no script', () => {
    const page = renderLoadHtml([loadResult()]);
    expect(page).toMatch(/Content-Security-Policy" content="default-src &#39;none&#39;; style-src &#39;sha256-/);
    expect(page).not.toContain('<script');
    expect(page).toContain('FAILED: Partner API v1 load scenarios (rate-limit)');
  });

  it('JUnit: a testsuite per scenario, a testcase per check and threshold', () => {
    const model = withLoad();
    const [root, ...suites] = junitSuites(renderJunit(model));
    const load = suites.filter((suite) => suite.name?.startsWith('load '));
    expect(load.map((suite) => suite.name)).toEqual([
      `load rate-limit: Rate limit under load ${XSS_PROBE} (native)`,
      `load booking-funnel: Rate limit under load ${XSS_PROBE} (native)`,
    ]);
    expect(load[0]).toMatchObject({ tests: '5', failures: '2', skipped: '1', errors: '0' });
    const base = junitSuites(renderJunit(buildReport(sampleInput())))[0] ?? {};
    expect(Number(root?.tests)).toBe(Number(base.tests) + 10);
    expect(Number(root?.failures)).toBe(Number(base.failures) + 4);
    const [alone] = junitSuites(renderLoadJunit([loadResult()]));
    expect(alone).toMatchObject({ tests: '5', failures: '2', skipped: '1' });
  });

  it('the schema accepts a report with load results and rejects a malformed one', () => {
    const schema = JSON.parse(readFileSync(new URL('./report-model.schema.json', import.meta.url), 'utf8'));
    const ajv = new Ajv2020({ strict: true, allErrors: true });
    addFormats(ajv);
    const validate = ajv.compile(schema);
    const model = JSON.parse(renderJson(withLoad()));
    expect(validate(model), JSON.stringify(validate.errors)).toBe(true);
    model.load[0].engine = 'jmeter';
    expect(validate(model)).toBe(false);
    const noSeries = JSON.parse(renderJson(withLoad()));
    noSeries.load[0].series.requests.locations = [1, -1];
    expect(validate(noSeries)).toBe(false);
  });

  it.skipIf(skipBrowser)(
    'renders the plots in headless Chromium without a CSP violation or a request',
    async () => {
      const dir = mkdtempSync(path.join(tmpdir(), 'load-html-'));
      const browser = await chromium.launch({
        executablePath: CHROMIUM,
        args: ['--no-sandbox', '--headless', '--disable-gpu', '--disable-background-networking', '--no-first-run'],
      });
      try {
        const file = path.join(dir, 'report.html');
        writeFileSync(file, renderHtml(withLoad()));
        const page = await browser.newPage();
        const problems: string[] = [];
        const requests: string[] = [];
        page.on('console', (message) => {
          if (message.type() === 'error') problems.push(message.text());
        });
        page.on('pageerror', (error) => problems.push(error.message));
        page.on('request', (request) => requests.push(request.url()));
        await page.goto(pathToFileURL(file).href);
        const box = await page.locator('#load-rate-limit figure[data-plot="429 responses"] svg').boundingBox();
        expect(box?.width).toBeGreaterThan(200);
        expect(await page.locator('#load-rate-limit rect.bar').count()).toBe(2);
        expect(await page.locator('#load-rate-limit .load-check.o-fail').count()).toBe(1);
        expect(problems).toEqual([]);
        expect(requests).toEqual([pathToFileURL(file).href]);
      } finally {
        await browser.close();
        rmSync(dir, { recursive: true, force: true });
      }
    },
    60_000,
  );
});

import { copyFileSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { type BrowserContext, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildReport } from './build.ts';
import { diffHtml, prettyJson, prettyXml } from './html-body.ts';
import { esc } from './html-kit.ts';
import { renderMutationHtml } from './html-mutation.ts';
import { renderHtml } from './html-report.ts';
import type { ReportModel } from './model.ts';
// In CI the browser checks must run (.ci/run installs chromium); elsewhere they are skipped only without the
// binary, and the end of npm test says so (test-support/chromium.ts ChromiumNote).
import { CHROMIUM, skipBrowser } from './test-support/chromium.ts';
import { mutationSample } from './test-support/mutation-sample.ts';
import { FAILING_CURL, failureEvidence, record, sampleInput, XSS_PROBE } from './test-support/sample.ts';

/** The sample run plus the XSS probe in every kind of text the page shows, and a waived failure. */
function probeModel(): ReportModel {
  const input = sampleInput();
  const model = buildReport({
    ...input,
    checks: [
      ...input.checks,
      record({
        clauseId: '4.7.5',
        name: `probe ${XSS_PROBE}`,
        outcome: 'fail',
        evidence: { ...failureEvidence(XSS_PROBE), message: XSS_PROBE, expected: XSS_PROBE, actual: XSS_PROBE },
      }),
      record({ clauseId: '4.2.3', outcome: 'fail', evidence: failureEvidence() }),
      // 7.2.4 fails only through what a check of 4.2.2 saw; 4.5.1 fails with a JSON body and a multi-line diff.
      record({
        clauseId: '4.2.2',
        name: 'lists the fleet again',
        outcome: 'pass',
        observations: [
          {
            clauseId: '7.2.4',
            message: 'error.requestId is missing from the envelope',
            expected: 'a string',
            actual: 'undefined',
            count: 12,
            exchange: failureEvidence().exchanges[0],
          },
        ],
      }),
      record({
        clauseId: '4.5.1',
        outcome: 'fail',
        evidence: {
          ...failureEvidence('{"error":{"code":"VALIDATION_ERROR","retryable":false,"fields":[{"name":"a"}]}}'),
          message: 'offers are not sorted',
          expected: '[\n  "A",\n  "B",\n  "C"\n]',
          actual: '[\n  "A",\n  "C",\n  "B"\n]',
        },
      }),
    ],
    waivers: [{ clause: '4.2.3', reason: `known ${XSS_PROBE}`, expires: '2030-01-01' }],
    leftovers: [`RES-${XSS_PROBE}`],
    harnessErrors: [{ file: 'suites/x.test.ts', message: XSS_PROBE }],
  });
  const probe = model.sections.flatMap((section) => section.clauses).find((clause) => clause.id === '4.7.5');
  if (!probe) throw new Error('4.7.5 missing');
  probe.text = XSS_PROBE;
  probe.title = `title ${XSS_PROBE}`;
  const exchange = probe.checks[0]?.evidence?.exchanges[0];
  if (exchange) exchange.request.headers['x-probe'] = XSS_PROBE;
  model.mutation = mutationSample();
  return model;
}

describe('renderHtml (markup)', () => {
  it('escapes every character that could open markup', () => {
    expect(esc(`<a href="x" onclick='y'>&amp;</a>`)).toBe(
      '&lt;a href=&quot;x&quot; onclick=&#39;y&#39;&gt;&amp;amp;&lt;/a&gt;',
    );
  });

  it('is one self-contained page: no external reference, a CSP that allows only its own inline blocks', () => {
    const html = renderHtml(probeModel());
    expect(html.startsWith('<!DOCTYPE html>')).toBe(true);
    expect(html).not.toMatch(/<(link|img|iframe|object|embed)\b/i);
    expect(html).not.toMatch(/\b(src|href)="(https?:)?\/\//i);
    expect(html.match(/<script>/g)).toHaveLength(1);
    expect(html.match(/<\/script>/g)).toHaveLength(1);
    expect(html).toMatch(/Content-Security-Policy" content="default-src &#39;none&#39;; style-src &#39;sha256-/);
    expect(html).not.toContain(XSS_PROBE);
    expect(html).toContain(esc(XSS_PROBE));
  });

  it('puts the coverage of judged clauses in the headline and the failing clauses before the matrix', () => {
    const model = probeModel();
    const html = renderHtml(model);
    expect(html).toContain(
      `${model.coverage.clausesJudged} / ${model.coverage.clausesTotal} clauses judged on this target`,
    );
    expect(html.indexOf('id="failure-index"')).toBeGreaterThan(0);
    expect(html.indexOf('id="failure-index"')).toBeLessThan(html.indexOf('id="matrix-panel"'));
    expect(html).toContain('<div class="judged not">not judged: missing-credential: partnerB is not configured</div>');
    expect(html).toContain('<div class="judged">judged live</div>');
  });

  it('pretty-prints and highlights JSON and XML, and marks what differs between expected and actual', () => {
    expect(prettyJson('{"a":[1,true,null,"x"]}')).toBe(
      '{\n  <span class="j-key">&quot;a&quot;</span>: [\n    <span class="j-num">1</span>,\n    <span class="j-lit">true</span>,\n    <span class="j-lit">null</span>,\n    <span class="j-str">&quot;x&quot;</span>\n  ]\n}',
    );
    expect(prettyJson('not json')).toBeUndefined();
    expect(prettyXml('<response><code a="1">X</code><empty/></response>')).toBe(
      [
        '<span class="x-tag">&lt;response</span><span class="x-tag">&gt;</span>',
        '  <span class="x-tag">&lt;code</span> <span class="x-attr">a</span>=<span class="x-val">&quot;1&quot;</span><span class="x-tag">&gt;</span>X<span class="x-tag">&lt;/code</span><span class="x-tag">&gt;</span>',
        '  <span class="x-tag">&lt;empty</span><span class="x-tag">/&gt;</span>',
        '<span class="x-tag">&lt;/response</span><span class="x-tag">&gt;</span>',
      ].join('\n'),
    );
    expect(prettyXml('<a><b></a>')).toBeUndefined();
    expect(diffHtml('expected 200', 'expected 422')).toEqual({
      expected: 'expected <del class="diff">200</del>',
      actual: 'expected <ins class="diff">422</ins>',
    });
    expect(diffHtml('a\nb\nc', 'a\nc\nd').actual).toBe('a\nc\n<ins class="diff">d</ins>');
  });

  it('renders the mutation matrix in the report and as a page of its own', () => {
    const html = renderHtml(probeModel());
    expect(html).toContain('id="mutation"');
    expect(html).toContain('1 of 3 faults caught on their own clause (33.3%)');
    expect(html).toContain('<a href="#clause-7.2.4"><code>7.2.4</code></a>');
    const alone = renderMutationHtml(mutationSample());
    expect(alone).toContain('FAILED: Partner API v1 mutation matrix');
    expect(alone).toContain('<tr class="mutation-row o-missed" data-fault="quote-single-use">');
    expect(alone).not.toContain('<script>');
    expect(alone).not.toContain(XSS_PROBE);
  });

  it('masks a credential header even if one slipped into the model', () => {
    const model = buildReport(sampleInput());
    const exchange = model.sections
      .flatMap((section) => section.clauses)
      .flatMap((clause) => clause.checks)
      .find((check) => check.evidence?.exchanges.length)?.evidence?.exchanges[0];
    if (!exchange) throw new Error('no exchange');
    exchange.request.headers.authorization = 'Bearer leaked-token-value';
    exchange.curl = "curl -H 'Authorization: Bearer leaked-token-value' http://x";
    const html = renderHtml(model);
    expect(html).not.toContain('leaked-token-value');
    expect(html).toContain('authorization: Bearer [REDACTED]');
  });
});

describe.skipIf(skipBrowser)('renderHtml in headless Chromium', () => {
  let dir: string;
  let context: BrowserContext;
  let page: Page;
  const dialogs: string[] = [];
  const requests: string[] = [];
  const pageErrors: string[] = [];
  let fileUrl: string;

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'report-html-'));
    const file = path.join(dir, 'report.html');
    writeFileSync(file, renderHtml(probeModel()));
    fileUrl = pathToFileURL(file).href;
    context = await chromium.launchPersistentContext(path.join(dir, 'profile'), {
      executablePath: CHROMIUM,
      headless: true,
      args: [
        '--no-sandbox',
        '--headless',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
      ],
    });
    page = context.pages()[0] ?? (await context.newPage());
    page.on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    page.on('request', (request) => requests.push(request.url()));
    page.on('pageerror', (error) => pageErrors.push(error.message));
    await page.goto(fileUrl);
  }, 60_000);

  afterAll(async () => {
    await context?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('shows the verdict and the section-by-outcome matrix', async () => {
    await expect(page.locator('#verdict').textContent()).resolves.toContain('FAILED');
    expect(await page.locator('#matrix').isVisible()).toBe(true);
    const model = probeModel();
    expect(await page.locator('#matrix tbody tr').count()).toBe(model.sections.length);
    const failCell = page.locator('#matrix tbody tr[data-section="4.7"] button[data-outcome="fail"]');
    // 4.7.3 and 4.7.5 fail; 4.7.4 errors.
    expect(await failCell.textContent()).toBe('2');
    expect(await page.locator('#coverage').textContent()).toContain('clauses judged on this target');
    expect(pageErrors).toEqual([]);
    expect(requests).toEqual([fileUrl]);
  });

  it('hides passing rows when pass is unchecked, and filters by text and by matrix cell', async () => {
    const passing = page.locator('[id="clause-4.2.2"]');
    const failing = page.locator('[id="clause-4.7.3"]');
    expect(await passing.isVisible()).toBe(true);
    await page.locator('#filters input[value="pass"]').uncheck();
    expect(await passing.isVisible()).toBe(false);
    expect(await failing.isVisible()).toBe(true);
    await page.locator('#filters input[value="pass"]').check();
    expect(await passing.isVisible()).toBe(true);

    await page.locator('#filter-text').fill('4.7.3');
    expect(await page.locator('details.clause:visible').count()).toBe(1);
    expect(await failing.isVisible()).toBe(true);
    await page.locator('#show-all').click();

    await page.locator('#matrix tbody tr[data-section="4.7"] button[data-outcome="fail"]').click();
    const visible = await page.locator('details.clause:visible').evaluateAll((rows) => rows.map((row) => row.id));
    expect(visible).toEqual(['clause-4.7.3', 'clause-4.7.5']);
    await page.locator('#show-all').click();
    expect(await passing.isVisible()).toBe(true);
  });

  it("shows a failure's evidence after expanding its clause", async () => {
    const failing = page.locator('[id="clause-4.7.3"]');
    const curl = failing.locator('pre.curl-line');
    expect(await curl.isVisible()).toBe(false);
    await failing.locator('summary').first().click();
    expect(await curl.isVisible()).toBe(true);
    expect(await curl.textContent()).toBe(FAILING_CURL);
    expect(await failing.locator('.status').first().textContent()).toBe('HTTP 422');
    expect(await failing.locator('pre.response').first().textContent()).toContain('HTTP 422');
    expect(await failing.locator('pre.expected').first().textContent()).toBe('200');
    expect(await failing.locator('pre.actual').first().textContent()).toBe('422');
    expect(await failing.locator('.seed').first().textContent()).toContain('run seed 42');
    expect(await failing.locator('button.copy').first().isVisible()).toBe(true);
  });

  it('shows waived failures and leftovers apart', async () => {
    expect(await page.locator('#waived').isVisible()).toBe(true);
    expect(await page.locator('#waived .waived-check').count()).toBe(1);
    expect(await page.locator('#waived').textContent()).toContain('4.2.3');
    expect(await page.locator('#waivers tr.w-used').count()).toBe(1);
    expect(await page.locator('#leftovers').textContent()).toContain(`RES-${XSS_PROBE}`);
  });

  it('shows the XSS probe literally and never runs it', async () => {
    const probe = page.locator('[id="clause-4.7.5"]');
    await probe.locator('summary').first().click();
    expect(await probe.locator('blockquote.clause-text').textContent()).toBe(XSS_PROBE);
    expect(await probe.locator('.title').textContent()).toBe(`title ${XSS_PROBE}`);
    expect(await probe.locator('pre.response').first().textContent()).toContain(XSS_PROBE);
    expect(await probe.locator('pre.request').first().textContent()).toContain(`x-probe: ${XSS_PROBE}`);
    expect(await probe.locator('pre.message').first().textContent()).toBe(XSS_PROBE);
    expect(await page.locator('#harness-errors').textContent()).toContain(XSS_PROBE);
    expect(await page.locator('img').count()).toBe(0);
    expect(await page.locator('script').count()).toBe(1);
    expect(dialogs).toEqual([]);
    expect(pageErrors).toEqual([]);
  });

  it('shows a clause failed only by other checks as failed, with the message, the check that saw it (linked) and its curl', async () => {
    const observed = page.locator('[id="clause-7.2.4"]');
    expect(await observed.getAttribute('data-outcome')).toBe('fail');
    const observation = observed.locator('.observation').first();
    expect(await observation.locator('pre.message').textContent()).toBe('error.requestId is missing from the envelope');
    const link = observation.locator('a').first();
    expect(await link.textContent()).toBe('4.2.2/lists the fleet again');
    const target = await link.getAttribute('href');
    expect(await page.locator(`[id="${target?.slice(1)}"]`).count()).toBe(1);
    expect(await observation.locator('pre.curl-line').textContent()).toBe(FAILING_CURL);
    expect(await observation.locator('.failing-mark').count()).toBe(1);
  });

  it('pretty-prints a JSON body and shows a diff of expected and actual', async () => {
    const clause = page.locator('[id="clause-4.5.1"]');
    await clause.locator('summary').first().click();
    const response = await clause.locator('pre.response').first().textContent();
    expect(response).toContain('{\n  "error": {\n    "code": "VALIDATION_ERROR",');
    expect(await clause.locator('pre.response .j-key').count()).toBeGreaterThan(3);
    // Lines only one side has are marked: the order of B and C (and so their commas) differs.
    expect(await clause.locator('pre.expected del.diff').allTextContents()).toEqual(['  "B",', '  "C"']);
    expect(await clause.locator('pre.actual ins.diff').allTextContents()).toEqual(['  "C",', '  "B"']);
  });

  it('lands a link jump below the sticky filter bar', async () => {
    await page.locator('#show-all').click();
    // Scroll far enough that the filter bar is stuck to the top, then follow a link from the failure index.
    await page.evaluate('window.scrollTo(0, document.body.scrollHeight / 2); location.hash = ""');
    await page.locator('#failure-index a[href="#clause-4.5.1"]').click();
    await page.waitForFunction('location.hash === "#clause-4.5.1"');
    await page.waitForTimeout(100);
    // Evaluated in the page (strings: the project's TypeScript has no DOM types).
    const positions = (await page.evaluate(`(() => {
      const bar = document.getElementById('filters').getBoundingClientRect();
      const header = document.querySelector('[id="clause-4.5.1"] > summary').getBoundingClientRect();
      return { barBottom: bar.bottom, headerTop: header.top, viewport: window.innerHeight };
    })()`)) as { barBottom: number; headerTop: number; viewport: number };
    expect(positions.headerTop).toBeGreaterThanOrEqual(positions.barBottom);
    expect(positions.headerTop).toBeLessThan(positions.viewport);
  });

  for (const width of [1400, 800]) {
    it(`fits ${width} px without horizontal overflow (screenshot)`, async () => {
      await page.setViewportSize({ width, height: 900 });
      await page.locator('#show-all').click();
      // Open every clause: the widest content (bodies, curl lines, tables) must wrap, not scroll the page.
      await page.evaluate('for (const details of document.querySelectorAll("details")) details.open = true');
      const sizes = (await page.evaluate(`({
        page: document.documentElement.scrollWidth,
        viewport: document.documentElement.clientWidth,
        matrix: document.getElementById('matrix').scrollWidth,
        panel: document.getElementById('matrix-panel').clientWidth,
      })`)) as { page: number; viewport: number; matrix: number; panel: number };
      expect(sizes.matrix).toBeLessThanOrEqual(sizes.panel);
      expect(sizes.page).toBeLessThanOrEqual(sizes.viewport);
      const shot = path.join(dir, `report-${width}.png`);
      await page.evaluate('window.scrollTo(0, 0)');
      await page.screenshot({ path: shot });
      expect(existsSync(shot)).toBe(true);
      if (process.env.REPORT_SCREENSHOTS_DIR)
        copyFileSync(shot, path.join(process.env.REPORT_SCREENSHOTS_DIR, `report-${width}.png`));
    });
  }
});

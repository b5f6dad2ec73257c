import { describe, expect, it } from 'vitest';
import { CLAUSES } from '../../contract/clauses/index.ts';
import { buildReport } from './build.ts';
import { MARKDOWN_BUDGET_BYTES, mdCode, mdInline, renderMarkdown } from './markdown.ts';
import { FAILING_CURL, failureEvidence, record, sampleInput, XSS_PROBE } from './test-support/sample.ts';

describe('renderMarkdown', () => {
  it('summarises verdict, counts by clause, coverage of judged clauses and each section by clause', () => {
    const model = buildReport(sampleInput());
    const text = renderMarkdown(model);
    expect(text.startsWith('# Partner API v1 certification: FAILED\n')).toBe(true);
    expect(text).toContain('| Verdict | FAILED (exit 1) |');
    expect(text).toContain(
      `| Clauses | pass 2 · fail 1 · warn 1 · error 1 · n/a 1 · not checked ${CLAUSES.length - 6} |`,
    );
    expect(text).toContain(
      `| Coverage | 4 / ${CLAUSES.length} clauses judged on this target (1.1%): live 4; checks: 0 properties / 5 examples (0% properties) |`,
    );
    // 4.7: 4.7.3 fails, 4.7.4 errors, the rest not checked; 1 of 15 judged.
    expect(text).toContain('| 4.7 POST /reservations | 0 | 1 | 0 | 1 | 0 | 13 | 0 | 1/15 |');
    const passing = renderMarkdown(
      buildReport(sampleInput({ checks: [record({ clauseId: '4.2.1', outcome: 'pass' })] })),
    );
    expect(passing.startsWith('# Partner API v1 certification: PASSED\n')).toBe(true);
    expect(passing).toContain('## Failing clauses (0)\n\nNone.');
  });

  it('lists the failing clauses with cause, expected and actual, and the curl line', () => {
    const text = renderMarkdown(buildReport(sampleInput()));
    expect(text).toContain('### fail 4.7.3: ');
    expect(text).toContain('### error 4.7.4: ');
    expect(text).toContain('expected 200, got 422');
    expect(text).toContain('expected: 200\nactual:   422');
    expect(text).toContain(`\`\`\`sh\n${FAILING_CURL}\n\`\`\``);
    expect(text).toContain('→ HTTP 422');
    expect(text).toContain('## Warnings (1 SHOULD clauses)\n\n5.7b');
    expect(text).not.toContain('### pass');
  });

  it('shows the root cause first, a clause failed only by observations with who saw it, and the run notes', () => {
    const observed = {
      clauseId: '7.2.4',
      message: 'error envelope without requestId',
      count: 30,
      exchange: failureEvidence().exchanges[0],
    };
    const model = buildReport(
      sampleInput({
        checks: [
          record({ clauseId: '4.2.1', outcome: 'fail', evidence: failureEvidence() }),
          record({ clauseId: '4.2.2', outcome: 'pass', observations: [observed] }),
        ],
      }),
    );
    const text = renderMarkdown(model);
    expect(text.indexOf('### fail 7.2.4')).toBeGreaterThan(0);
    expect(text.indexOf('### fail 7.2.4')).toBeLessThan(text.indexOf('### fail 4.2.1'));
    // The group names the request it was seen on, from the exchange it prints.
    expect(text).toContain('error envelope without requestId — POST /reservations (seen 30× by other checks)');
    expect(text).toContain('Seen by 4.2.2/check of 4.2.2.');
  });

  it('shows the baseline comparison first, after the verdict', () => {
    const before = buildReport(sampleInput({ checks: [record({ clauseId: '4.2.1', outcome: 'pass' })] }));
    const text = renderMarkdown(buildReport(sampleInput({ baseline: before })));
    expect(text.indexOf('## Since the baseline')).toBeLessThan(text.indexOf('| Verdict |'));
    expect(text).toContain('- new failures 2: 4.7.3, 4.7.4');
  });

  it('stays under 20 KB for any run: every clause failing with long messages and curl lines', () => {
    const long = 'x'.repeat(5_000);
    const checks = CLAUSES.flatMap((clause, index) => [
      record({
        clauseId: clause.id,
        name: `check ${index} ${long}`,
        outcome: index % 3 === 0 ? 'error' : 'fail',
        evidence: {
          ...failureEvidence(long),
          message: `${clause.id} broke in its own way ${index} ${long}`,
          exchanges: failureEvidence().exchanges.map((exchange) => ({ ...exchange, curl: `curl ${long}` })),
        },
      }),
    ]);
    const model = buildReport(
      sampleInput({ checks, harnessErrors: Array.from({ length: 50 }, () => ({ message: long })) }),
    );
    const text = renderMarkdown(model);
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(MARKDOWN_BUDGET_BYTES);
    expect(Buffer.byteLength(text)).toBeLessThan(20_000);
    expect(text).toContain('# Partner API v1 certification: FAILED');
    expect(text).toContain('| Verdict | FAILED (exit 2) |');
    expect(text).toContain('## Failing clauses (');
    // A passing catalog run and an empty one are small too.
    expect(Buffer.byteLength(renderMarkdown(buildReport(sampleInput({ checks: [] }))))).toBeLessThan(20_000);
  });

  it('lists waivers and leftovers apart', () => {
    const model = buildReport(
      sampleInput({
        waivers: [{ clause: '4.7.4', reason: 'tracked in PAR-7', expires: '2030-01-01' }],
        leftovers: ['RES-1'],
      }),
    );
    const text = renderMarkdown(model);
    expect(text).not.toContain('### error 4.7.4');
    expect(text).toContain('Waived failing clauses: 4.7.4.');
    expect(text).toContain('| 4.7.4 | 2030-01-01 | used | tracked in PAR-7 |');
    expect(text).toContain('## Leftover reservations');
    expect(text).toContain('RES-1');
  });

  it('lets no raw HTML or fence break out of the text it renders', () => {
    const model = buildReport(sampleInput());
    const failing = model.sections.flatMap((section) => section.clauses).find((clause) => clause.id === '4.7.3');
    if (!failing?.checks[0]?.evidence?.exchanges[0]) throw new Error('sample failure missing');
    failing.title = XSS_PROBE;
    failing.checks[0].evidence.exchanges[0].curl = "curl 'x' ```\n# heading";
    const text = renderMarkdown(model);
    expect(text).not.toContain('<img');
    expect(text).not.toContain('</script>');
    expect(text).toContain('&lt;/script&gt;&lt;img src=x onerror=alert(1)&gt;');
    expect(text).toContain("````sh\ncurl 'x' ```\n# heading\n````");
    expect(mdCode('a ````` b')).toBe('``````\na ````` b\n``````');
    expect(mdInline('a|b*c_d`e\nf')).toBe('a\\|b\\*c\\_d\\`e f');
  });
});

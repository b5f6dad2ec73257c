import { describe, expect, it } from 'vitest';
import { CLAUSES } from '../../contract/clauses/index.ts';
import { buildReport } from './build.ts';
import { mdCode, mdInline, renderMarkdown } from './markdown.ts';
import { FAILING_CURL, record, sampleInput, XSS_PROBE } from './test-support/sample.ts';

describe('renderMarkdown', () => {
  it('summarises verdict, counts, coverage and each section', () => {
    const model = buildReport(sampleInput());
    const text = renderMarkdown(model);
    expect(text.startsWith('# Partner API v1 certification: FAILED\n')).toBe(true);
    expect(text).toContain('| Checks | pass 3 · fail 1 · warn 1 · error 1 · n/a 2 |');
    expect(text).toContain(`| Coverage | 5/${CLAUSES.length} clauses with a check that ran`);
    for (const section of model.sections)
      expect(text).toContain(`| ${mdInline(section.id)} | ${mdInline(section.title)} |`);
    expect(text).toContain('| 4.7 | POST /reservations | 1 | 1 | 0 | 1 | 0 | 0 |');
    const passing = renderMarkdown(
      buildReport(sampleInput({ checks: [record({ clauseId: '4.2.1', outcome: 'pass' })] })),
    );
    expect(passing.startsWith('# Partner API v1 certification: PASSED\n')).toBe(true);
    expect(passing).toContain('## Failures\n\nNone.');
  });

  it('lists every failure with its clause id, clause text and curl line', () => {
    const model = buildReport(sampleInput());
    const text = renderMarkdown(model);
    expect(text).toContain('### fail \\[4.7.3\\]');
    expect(text).toContain('### error \\[4.7.4\\]');
    expect(text).not.toContain('### pass');
    expect(text).toContain(`\`\`\`sh\n${FAILING_CURL}\n\`\`\``);
    expect(text).toContain('→ HTTP 422');
    expect(text).toContain('run seed 42');
    expect(text).toContain('## Warnings\n\n- \\[5.7b\\]');
    expect(text).toContain('## Not applicable');
  });

  it('lists waived failures, waivers and leftovers apart', () => {
    const model = buildReport(
      sampleInput({
        waivers: [{ clause: '4.7.4', reason: 'tracked in PAR-7', expires: '2030-01-01' }],
        leftovers: ['RES-1'],
      }),
    );
    const text = renderMarkdown(model);
    expect(text).not.toContain('### error \\[4.7.4\\]');
    expect(text).toContain('## Waived failures\n\n- error \\[4.7.4\\]');
    expect(text).toContain('| 4.7.4 | 2030-01-01 | used | tracked in PAR-7 |');
    expect(text).toContain('## Leftover reservations');
    expect(text).toContain('- RES-1');
  });

  it('lets no raw HTML or fence break out of the text it renders', () => {
    const model = buildReport(sampleInput());
    const failing = model.sections.flatMap((section) => section.clauses).find((clause) => clause.id === '4.7.3');
    if (!failing?.checks[0]?.evidence?.exchanges[0]) throw new Error('sample failure missing');
    failing.text = XSS_PROBE;
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

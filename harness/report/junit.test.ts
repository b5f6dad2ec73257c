import { SaxesParser } from 'saxes';
import { describe, expect, it } from 'vitest';
import { CLAUSES } from '../../contract/clauses/index.ts';
import { buildReport } from './build.ts';
import { renderJunit } from './junit.ts';
import { failureEvidence, record, sampleInput, XSS_PROBE } from './test-support/sample.ts';

interface XmlElement {
  name: string;
  attributes: Record<string, string>;
  children: XmlElement[];
  text: string;
}

/** A small DOM from saxes (which throws at the first well-formedness error). */
function parseXml(xml: string): XmlElement {
  const parser = new SaxesParser();
  const root: XmlElement = { name: '#document', attributes: {}, children: [], text: '' };
  const stack: XmlElement[] = [root];
  parser.on('opentag', (tag) => {
    const element: XmlElement = {
      name: tag.name,
      attributes: { ...(tag.attributes as Record<string, string>) },
      children: [],
      text: '',
    };
    stack.at(-1)?.children.push(element);
    stack.push(element);
  });
  parser.on('text', (text) => {
    const current = stack.at(-1);
    if (current) current.text += text;
  });
  parser.on('closetag', () => {
    stack.pop();
  });
  parser.write(xml).close();
  const [top] = root.children;
  if (!top) throw new Error('no root element');
  return top;
}

function child(element: XmlElement, name: string): XmlElement | undefined {
  return element.children.find((item) => item.name === name);
}

describe('renderJunit', () => {
  const withWaiver = () => {
    const input = sampleInput();
    const checks = [
      ...input.checks,
      record({
        clauseId: '4.7.5',
        outcome: 'fail',
        name: `probe ${XSS_PROBE} \u0001`,
        evidence: failureEvidence(XSS_PROBE),
      }),
      record({ clauseId: '4.2.3', outcome: 'fail', evidence: failureEvidence() }),
    ];
    return buildReport({
      ...input,
      checks,
      waivers: [{ clause: '4.2.3', reason: 'known & tracked', expires: '2030-01-01' }],
    });
  };

  it('parses, with a verdict suite first, then one testsuite per section and one testcase per clause', () => {
    const model = withWaiver();
    const root = parseXml(renderJunit(model));
    expect(root.name).toBe('testsuites');
    const [verdict, ...suites] = root.children.filter((item) => item.name === 'testsuite');
    expect(verdict?.attributes).toMatchObject({ name: 'verdict', tests: '0' });
    const property = (name: string) =>
      child(verdict as XmlElement, 'properties')?.children.find((p) => p.attributes.name === name)?.attributes.value;
    expect(property('exitCode')).toBe('1');
    expect(property('clausesJudged')).toBe(String(model.coverage.clausesJudged));
    expect(suites.map((suite) => suite.attributes.name)).toEqual(
      model.sections.map((section) => `${section.id} ${section.title}`),
    );
    for (const suite of suites) {
      const cases = suite.children.filter((item) => item.name === 'testcase');
      const count = (tag: string) => cases.filter((item) => child(item, tag)).length;
      expect(Number(suite.attributes.tests)).toBe(cases.length);
      expect(Number(suite.attributes.failures)).toBe(count('failure'));
      expect(Number(suite.attributes.errors)).toBe(count('error'));
      expect(Number(suite.attributes.skipped)).toBe(count('skipped'));
      const sectionId = suite.attributes.name?.split(' ')[0];
      for (const item of cases) expect(item.attributes.classname).toBe(sectionId);
    }
    // Every clause once: the counting unit is the clause.
    const names = suites.flatMap((suite) => suite.children.filter((c) => c.name === 'testcase'));
    expect(names).toHaveLength(CLAUSES.length);
    const bySection = (id: string) => suites.find((suite) => suite.attributes.name?.startsWith(`${id} `))?.attributes;
    // 4.2: 4.2.1 and 4.2.2 pass, 4.2.3 waived → skipped, 4.2.4 and 4.2.5 not checked → skipped.
    expect(bySection('4.2')).toMatchObject({ tests: '5', failures: '0', errors: '0', skipped: '3' });
    // 4.7: 4.7.3 and 4.7.5 fail, 4.7.4 errors, the other twelve are not checked.
    expect(bySection('4.7')).toMatchObject({ tests: '15', failures: '2', errors: '1', skipped: '12' });
    // Passing testcases are judged clauses only (4.2.1, 4.2.2 and the warned 5.7b).
    expect(root.attributes).toMatchObject({
      tests: String(CLAUSES.length),
      failures: '2',
      errors: '1',
      skipped: String(CLAUSES.length - 6),
    });
    expect(root.attributes.name).toContain(`${model.coverage.clausesJudged}/${CLAUSES.length} clauses judged`);
  });

  it('carries the evidence in failures and the reason in skips, escaped', () => {
    const root = parseXml(renderJunit(withWaiver()));
    const cases = root.children.flatMap((suite) => suite.children);
    const probe = cases.find((item) => item.attributes.name?.startsWith('[4.7.5]'));
    const failure = probe && child(probe, 'failure');
    expect(failure?.attributes.message).toBe('expected 200, got 422');
    expect(failure?.text).toContain(XSS_PROBE);
    expect(failure?.text).toContain(`check 4.7.5/probe ${XSS_PROBE} \uFFFD`);
    expect(failure?.text).toContain("curl: curl -sS -X POST 'http://127.0.0.1:4010/api/partner/v1/reservations'");
    expect(failure?.text).toContain('HTTP 422');
    const notApplicable = cases.find((item) => item.attributes.name?.startsWith('[4.3.1]'));
    expect(notApplicable && child(notApplicable, 'skipped')?.attributes.message).toBe(
      'not judged: missing-credential: partnerB is not configured',
    );
    const notChecked = cases.find((item) => item.attributes.name?.startsWith('[4.7.1]'));
    expect(notChecked && child(notChecked, 'skipped')?.attributes.message).toBe(
      'not judged: no check judges this clause yet',
    );
    const waived = cases.find((item) => item.attributes.name?.startsWith('[4.2.3]'));
    expect(waived && child(waived, 'skipped')?.attributes.message).toBe(
      'waived until 2030-01-01: known & tracked (fail)',
    );
    const warn = cases.find((item) => item.attributes.name?.startsWith('[5.7b]'));
    expect(warn && child(warn, 'system-out')?.text).toContain('WARN');
  });

  it('fails a clause seen failing only by other checks, with the message, who saw it and the curl', () => {
    const model = buildReport(
      sampleInput({
        checks: [
          record({
            clauseId: '4.2.1',
            outcome: 'pass',
            observations: [
              {
                clauseId: '7.2.4',
                message: 'error envelope without requestId',
                expected: 'a string',
                actual: 'undefined',
                count: 4,
                exchange: failureEvidence().exchanges[0],
              },
            ],
          }),
        ],
      }),
    );
    const cases = parseXml(renderJunit(model)).children.flatMap((suite) => suite.children);
    const observed = cases.find((item) => item.attributes.name?.startsWith('[7.2.4]'));
    const failure = observed && child(observed, 'failure');
    expect(failure?.attributes.message).toBe('error envelope without requestId');
    expect(failure?.text).toContain('seen 4× by 4.2.1/check of 4.2.1');
    expect(failure?.text).toContain('curl: curl -sS -X POST');
  });

  it('names clauses outside --only as not selected', () => {
    const model = buildReport(
      sampleInput({
        checks: [record({ clauseId: '4.2.1', outcome: 'pass' })],
        options: { ...sampleInput().options, only: ['4.2'] },
      }),
    );
    const cases = parseXml(renderJunit(model)).children.flatMap((suite) => suite.children);
    const outside = cases.find((item) => item.attributes.name?.startsWith('[4.7.1]'));
    expect(outside && child(outside, 'skipped')?.attributes.message).toBe('not selected (--only 4.2)');
    const inside = cases.find((item) => item.attributes.name?.startsWith('[4.2.4]'));
    expect(inside && child(inside, 'skipped')?.attributes.message).toBe('not judged: no check judges this clause yet');
  });

  it('adds a harness testsuite for harness errors', () => {
    const model = buildReport(sampleInput({ harnessErrors: [{ file: 'suites/a.test.ts', message: 'boom <x>' }] }));
    const root = parseXml(renderJunit(model));
    const harness = root.children.find((item) => item.attributes.name === 'harness');
    expect(harness?.attributes).toMatchObject({ tests: '1', errors: '1' });
    expect(harness?.children[0] && child(harness.children[0], 'error')?.attributes.message).toBe('boom <x>');
  });
});

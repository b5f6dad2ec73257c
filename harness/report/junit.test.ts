import { SaxesParser } from 'saxes';
import { describe, expect, it } from 'vitest';
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

  it('parses, with one testsuite per section and the right counts', () => {
    const model = withWaiver();
    const root = parseXml(renderJunit(model));
    expect(root.name).toBe('testsuites');
    const suites = root.children.filter((item) => item.name === 'testsuite');
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
    const bySection = (id: string) => suites.find((suite) => suite.attributes.name?.startsWith(`${id} `))?.attributes;
    // 4.2: 4.2.1 pass (json) + n/a (xml), 4.2.2 pass, 4.2.3 waived failure → skipped.
    expect(bySection('4.2')).toMatchObject({ tests: '4', failures: '0', errors: '0', skipped: '2' });
    // 4.7: 4.7.3 fail + pass, 4.7.4 error, 4.7.5 fail.
    expect(bySection('4.7')).toMatchObject({ tests: '4', failures: '2', errors: '1', skipped: '0' });
    expect(root.attributes).toMatchObject({ tests: '10', failures: '2', errors: '1', skipped: '3' });
  });

  it('carries the evidence in failures and the reason in skips, escaped', () => {
    const root = parseXml(renderJunit(withWaiver()));
    const cases = root.children.flatMap((suite) => suite.children);
    const probe = cases.find((item) => item.attributes.name?.startsWith('[4.7.5]'));
    expect(probe?.attributes.name).toBe(`[4.7.5] probe ${XSS_PROBE} \uFFFD`);
    const failure = probe && child(probe, 'failure');
    expect(failure?.attributes.message).toBe('expected 200, got 422');
    expect(failure?.text).toContain(XSS_PROBE);
    expect(failure?.text).toContain("curl: curl -sS -X POST 'http://127.0.0.1:4010/api/partner/v1/reservations'");
    expect(failure?.text).toContain('HTTP 422');
    const notApplicable = cases.find((item) => item.attributes.name === '[4.2.1] check of 4.2.1 (xml)');
    expect(notApplicable && child(notApplicable, 'skipped')?.attributes.message).toBe('profile: needs shop');
    const waived = cases.find((item) => item.attributes.name?.startsWith('[4.2.3]'));
    expect(waived && child(waived, 'skipped')?.attributes.message).toBe(
      'waived until 2030-01-01: known & tracked (fail)',
    );
    const warn = cases.find((item) => item.attributes.name?.startsWith('[5.7b]'));
    expect(warn && child(warn, 'system-out')?.text).toContain('WARN');
  });

  it('adds a harness testsuite for harness errors', () => {
    const model = buildReport(sampleInput({ harnessErrors: [{ file: 'suites/a.test.ts', message: 'boom <x>' }] }));
    const root = parseXml(renderJunit(model));
    const harness = root.children.find((item) => item.attributes.name === 'harness');
    expect(harness?.attributes).toMatchObject({ tests: '1', errors: '1' });
    expect(harness?.children[0] && child(harness.children[0], 'error')?.attributes.message).toBe('boom <x>');
  });
});

import { describe, expect, it } from 'vitest';
import { buildReport } from './build.ts';
import { renderJson } from './json.ts';
import { failureEvidence, record, sampleInput } from './test-support/sample.ts';

describe('renderJson', () => {
  it('is byte-identical for the same input, whatever order the records and headers came in', () => {
    const first = renderJson(buildReport(sampleInput()));
    expect(renderJson(buildReport(sampleInput()))).toBe(first);
    const input = sampleInput();
    const reordered = buildReport({ ...input, checks: [...input.checks].reverse() });
    expect(renderJson(reordered)).toBe(first);
  });

  it('does not depend on the order a target sent its headers in', () => {
    const withHeaders = (headers: Record<string, string>) => {
      const evidence = failureEvidence();
      const exchange = evidence.exchanges[0];
      if (exchange?.response) exchange.response.headers = headers;
      return renderJson(
        buildReport(sampleInput({ checks: [record({ clauseId: '4.7.3', outcome: 'fail', evidence })] })),
      );
    };
    const a = withHeaders({ 'x-request-id': 'r', 'content-type': 'application/json', etag: '"1"' });
    const b = withHeaders({ etag: '"1"', 'content-type': 'application/json', 'x-request-id': 'r' });
    expect(a).toBe(b);
    expect(a).toContain('"content-type": "application/json",\n');
  });

  it('sorts keys at every depth, indents by 2 and ends with a newline', () => {
    const text = renderJson(buildReport(sampleInput()));
    expect(text.endsWith('}\n')).toBe(true);
    expect(text.startsWith('{\n  "coverage": {\n    "byMethod"')).toBe(true);
    const walk = (value: unknown): void => {
      if (Array.isArray(value)) value.forEach(walk);
      else if (value && typeof value === 'object') {
        const keys = Object.keys(value);
        expect(keys).toEqual([...keys].sort());
        Object.values(value).forEach(walk);
      }
    };
    walk(JSON.parse(text));
  });

  it('round-trips to the same model', () => {
    const model = buildReport(sampleInput());
    expect(JSON.parse(renderJson(model))).toEqual(JSON.parse(JSON.stringify(model)));
  });
});

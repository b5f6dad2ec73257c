import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { buildReport } from './build.ts';
import { renderJson } from './json.ts';
import { failureEvidence, record, sampleInput } from './test-support/sample.ts';

// ajv-formats is CommonJS; its `default` property is the plugin (as in contract/validation.ts).
const addFormats = addFormatsModule.default;
const schema = JSON.parse(readFileSync(new URL('./report-model.schema.json', import.meta.url), 'utf8'));

function validator() {
  const ajv = new Ajv2020({ strict: true, allErrors: true });
  addFormats(ajv);
  return ajv.compile(schema);
}

function fullReport() {
  const checks = [
    ...sampleInput().checks,
    record({
      clauseId: '4.5.1',
      outcome: 'fail',
      evidence: { ...failureEvidence(), property: { seed: -17, path: '3:1', counterexample: '[{"days":0}]' } },
    }),
  ];
  const baseline = buildReport(sampleInput({ checks: [record({ clauseId: '4.2.1', outcome: 'fail' })] }));
  return buildReport(
    sampleInput({
      baseline,
      options: { ...sampleInput().options, failOn: 'new' },
      checks,
      waivers: [
        { clause: '4.7.4', reason: 'known', expires: '2025-12-31' },
        { clause: '4.2.2', reason: 'fixed', expires: '2025-12-31' },
        { clause: '4.7.3', reason: 'old', expires: '2024-01-01' },
      ],
      leftovers: ['R-9'],
      harnessErrors: [{ file: 'suites/x.test.ts', test: 'a > b', message: 'hook failed' }],
    }),
  );
}

describe('report-model.schema.json', () => {
  it('accepts a built report, also after a JSON round trip', () => {
    const validate = validator();
    const model = fullReport();
    expect(model.baseline?.fixed).toEqual(['4.2.1']);
    expect(model.verdict.exitCode).toBe(2);
    expect(model.verdict.notes?.length).toBeGreaterThan(0);
    expect(model.waivers.map((waiver) => waiver.status).sort()).toEqual(['expired', 'unused-passing', 'used']);
    const valid = validate(JSON.parse(renderJson(model)));
    expect(validate.errors ?? []).toEqual([]);
    expect(valid).toBe(true);
    expect(validate(buildReport(sampleInput({ checks: [] })))).toBe(true);
  });

  it('rejects what the model does not allow', () => {
    const validate = validator();
    const mutations: ((model: Record<string, unknown> & ReturnType<typeof fullReport>) => void)[] = [
      (model) => {
        model.extra = true;
      },
      (model) => {
        (model.verdict.counts as Record<string, number>).skipped = 1;
      },
      (model) => {
        const check = model.sections[0]?.clauses[0];
        if (check) (check as { outcome: string }).outcome = 'skipped';
      },
      (model) => {
        (model.waivers[0] as { status: string }).status = 'maybe';
      },
      (model) => {
        (model.timing as { startedAt: string }).startedAt = 'yesterday';
      },
      (model) => {
        (model as { schemaVersion: number }).schemaVersion = 2;
      },
      (model) => {
        (model.verdict as { exitCode: number }).exitCode = 3;
      },
      (model) => {
        (model.baseline as { newFailures: unknown }).newFailures = 'none';
      },
    ];
    for (const mutate of mutations) {
      const model = JSON.parse(renderJson(fullReport()));
      mutate(model);
      expect(validate(model)).toBe(false);
    }
  });
});

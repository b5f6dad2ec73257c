import type { ReportMutation } from '../model.ts';
import { XSS_PROBE } from './sample.ts';

/** A mutation matrix with every result: a fault caught, one caught elsewhere, one missed, variants passed and failed. */
export function mutationSample(): ReportMutation {
  return {
    startedAt: '2031-01-01T10:00:00.000Z',
    durationMs: 600_000,
    seed: 7,
    summary: {
      faults: 3,
      caughtOnClause: 1,
      score: 1 / 3,
      extraMedian: 1,
      extraMax: 2,
      benign: 2,
      benignPassed: 1,
      runsWithErrors: 0,
      baselinePassed: true,
    },
    breaches: ['mutation score 33.3% is below 90.0%'],
    rows: [
      {
        name: 'replay-without-header',
        kind: 'fault',
        clause: '4.7.3',
        description: 'A replay answers without Idempotent-Replay.',
        result: 'caught',
        otherFailed: [],
        errors: 0,
      },
      {
        name: 'request-id-missing-on-success',
        kind: 'fault',
        clause: '4.0.2',
        description: `No X-Request-Id ${XSS_PROBE}`,
        result: 'elsewhere',
        otherFailed: ['7.2.4', '4.7.4'],
        errors: 0,
      },
      {
        name: 'quote-single-use',
        kind: 'fault',
        clause: '4.6.1',
        description: 'A quote books once.',
        result: 'missed',
        otherFailed: [],
        errors: 1,
      },
      {
        name: 'benign-json-key-order',
        kind: 'benign',
        clause: '2.0.1',
        description: 'Keys in another order.',
        result: 'passed',
        otherFailed: [],
        errors: 0,
      },
      {
        name: 'benign-xml-prefix',
        kind: 'benign',
        clause: '4.14.1',
        description: 'A namespace prefix.',
        result: 'failed',
        otherFailed: ['4.14.3'],
        errors: 0,
      },
    ],
  };
}

import type { Measurement } from './measure.ts';
import { p99Ratio, SCALE_P99_GOAL, type ScaleRow, type SeedingRow, scaleVerdict } from './scale.ts';
import { type SuiteTiming, suiteVerdict } from './suite-timing.ts';

export interface ComparisonRow {
  store: string;
  operation: string;
  reference: Measurement;
  bare: Measurement;
}

const ratio = (a: number, b: number) => (b > 0 ? (a / b).toFixed(a / b < 10 ? 3 : 1) : '-');
const num = (value: number) => (value >= 100 ? value.toFixed(0) : value.toFixed(value >= 10 ? 1 : 2));

function errors(m: Measurement): string {
  const entries = Object.entries(m.errors);
  return entries.length === 0 ? '0' : entries.map(([code, n]) => `${code} ${n}`).join(', ');
}

function table(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => (row[i] ?? '').length)));
  const line = (cells: string[]) =>
    `| ${cells.map((cell, i) => (i < 2 ? cell.padEnd(widths[i] ?? 0) : cell.padStart(widths[i] ?? 0))).join(' | ')} |`;
  const rule = `|${widths.map((w, i) => (i < 2 ? `:${'-'.repeat(w + 1)}` : `${'-'.repeat(w + 1)}:`)).join('|')}|`;
  return [line(header), rule, ...rows.map(line)].join('\n');
}

/** The goals (load/README.md "Benchmark"): a ratio to bare, an absolute rate for durable writes, a p50 bound. */
export interface Goal {
  ratio?: number;
  requestsPerSecond?: number;
  p50Ms?: number;
}

/** The goals (load/README.md "Benchmark"): the read ratios on either store, a booking rate for each. */
export function goalOf(store: string, operation: string): Goal | undefined {
  switch (operation) {
    case 'GET /locations':
      return { ratio: 0.6 };
    case 'POST /availability':
      return { ratio: 0.3, p50Ms: 5 };
    case 'POST /quotes':
      return { ratio: 0.4 };
    case 'POST /reservations':
      return { requestsPerSecond: store === 'postgres' ? 1500 : 2000 };
    default:
      return undefined;
  }
}

function goalText(goal: Goal | undefined): string {
  if (!goal) return '-';
  const parts: string[] = [];
  if (goal.ratio !== undefined) parts.push(`ratio ≥ ${goal.ratio.toFixed(2)}`);
  if (goal.requestsPerSecond !== undefined) parts.push(`≥ ${goal.requestsPerSecond} req/s`);
  if (goal.p50Ms !== undefined) parts.push(`p50 < ${goal.p50Ms} ms`);
  return parts.join(', ');
}

function verdict(goal: Goal | undefined, r: Measurement, b: Measurement): string {
  if (!goal) return '-';
  const met =
    (goal.ratio === undefined ||
      (b.requestsPerSecond > 0 && r.requestsPerSecond / b.requestsPerSecond >= goal.ratio)) &&
    (goal.requestsPerSecond === undefined || r.requestsPerSecond >= goal.requestsPerSecond) &&
    (goal.p50Ms === undefined || r.p50Ms < goal.p50Ms);
  return met ? 'met' : 'NOT met';
}

const micros = (m: Measurement) => (m.cpuUsPerRequest === undefined ? '-' : m.cpuUsPerRequest.toFixed(0));
const clientMicros = (m: Measurement) =>
  m.clientCpuUsPerRequest === undefined ? '-' : m.clientCpuUsPerRequest.toFixed(1);

/**
 * Reference vs bare per operation: throughput ratio (ref/bare, below 1) and latency ratios (ref/bare, above 1), the
 * server CPU per request of each, and its goal with the verdict.
 */
export function formatComparison(rows: ComparisonRow[]): string {
  return table(
    [
      'store',
      'operation',
      'ref req/s',
      'bare req/s',
      'req/s ratio',
      'ref p50 ms',
      'bare p50 ms',
      'p50 ratio',
      'ref p99 ms',
      'bare p99 ms',
      'p99 ratio',
      'ref CPU µs/req',
      'bare CPU µs/req',
      'ref non-2xx',
      'goal',
      'verdict',
    ],
    rows.map(({ store, operation, reference: r, bare: b }) => [
      store,
      operation,
      num(r.requestsPerSecond),
      num(b.requestsPerSecond),
      ratio(r.requestsPerSecond, b.requestsPerSecond),
      num(r.p50Ms),
      num(b.p50Ms),
      ratio(r.p50Ms, b.p50Ms),
      num(r.p99Ms),
      num(b.p99Ms),
      ratio(r.p99Ms, b.p99Ms),
      micros(r),
      micros(b),
      errors(r),
      goalText(goalOf(store, operation)),
      verdict(goalOf(store, operation), r, b),
    ]),
  );
}

export function formatTopRate(native: Measurement, cannon: Measurement, connections: number, seconds: number): string {
  return [
    `Load generator top rate on the bare server (GET, ${connections} connections, ${seconds} s in runs taken in turns; client CPU: the engine's own process):`,
    table(
      [
        'engine',
        'vs',
        'req/s',
        'p50 ms',
        'p99 ms',
        'errors',
        'client CPU µs/req',
        'server CPU µs/req',
        'req/s ratio',
        'goal',
        'verdict',
      ],
      [
        [
          'native (undici)',
          '',
          num(native.requestsPerSecond),
          num(native.p50Ms),
          num(native.p99Ms),
          errors(native),
          clientMicros(native),
          micros(native),
          ratio(native.requestsPerSecond, cannon.requestsPerSecond),
          'ratio ≥ 0.95',
          cannon.requestsPerSecond > 0 && native.requestsPerSecond / cannon.requestsPerSecond >= 0.95
            ? 'met'
            : 'NOT met',
        ],
        [
          'autocannon',
          '',
          num(cannon.requestsPerSecond),
          num(cannon.p50Ms),
          num(cannon.p99Ms),
          errors(cannon),
          clientMicros(cannon),
          micros(cannon),
          '1.000',
          '-',
          '-',
        ],
      ],
    ),
  ].join('\n');
}

/** The scale rows (scale.ts): per store, size and operation, p99 against the same operation before seeding. */
export function formatScale(rows: readonly ScaleRow[]): string {
  return table(
    [
      'store',
      'operation',
      'rows',
      'req/s',
      'p50 ms',
      'p99 ms',
      'p99 × empty',
      'CPU µs/req',
      'non-2xx',
      'goal',
      'verdict',
    ],
    [...rows]
      .sort((a, b) => a.store.localeCompare(b.store) || a.operation.localeCompare(b.operation) || a.rows - b.rows)
      .map((row) => {
        const m = row.measurement;
        const factor = p99Ratio(row, rows);
        return [
          row.store,
          row.operation,
          row.rows.toLocaleString('en-US'),
          num(m.requestsPerSecond),
          num(m.p50Ms),
          num(m.p99Ms),
          factor === undefined ? '-' : factor.toFixed(2),
          micros(m),
          errors(m),
          row.rows === 0 ? '-' : `p99 ≤ ${SCALE_P99_GOAL} × empty`,
          scaleVerdict(row, rows),
        ];
      }),
  );
}

export function formatSeeding(rows: readonly SeedingRow[]): string {
  return table(
    ['store', 'seeded to', 'added', 'seed s', 'rows/s', 'with process start s'],
    rows.map((r) => [
      r.store,
      r.rows.toLocaleString('en-US'),
      r.added.toLocaleString('en-US'),
      (r.seedMs / 1000).toFixed(1),
      r.seedMs > 0 ? Math.round((r.added * 1000) / r.seedMs).toLocaleString('en-US') : '-',
      (r.wallMs / 1000).toFixed(1),
    ]),
  );
}

/** The suite's own figures (suite-timing.ts): wall time of each against its goal. */
export function formatSuite(rows: readonly SuiteTiming[]): string {
  return table(
    ['suite', 'what ran', 'seconds', 'exit code', 'goal', 'verdict'],
    rows.map((r) => [
      r.name,
      r.detail,
      r.seconds.toFixed(1),
      String(r.exitCode),
      `< ${r.goalSeconds} s`,
      suiteVerdict(r),
    ]),
  );
}

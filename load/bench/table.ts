import type { Measurement } from './measure.ts';

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

/** Reference vs bare per operation: throughput ratio (ref/bare, below 1) and latency ratios (ref/bare, above 1). */
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
      'ref non-2xx',
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
      errors(r),
    ]),
  );
}

export function formatTopRate(native: Measurement, cannon: Measurement, connections: number, seconds: number): string {
  return [
    `Load generator top rate on the bare server (GET, ${connections} connections, ${seconds} s):`,
    table(
      ['engine', 'vs', 'req/s', 'p50 ms', 'p99 ms', 'errors', 'req/s ratio'],
      [
        [
          'native (undici)',
          '',
          num(native.requestsPerSecond),
          num(native.p50Ms),
          num(native.p99Ms),
          errors(native),
          ratio(native.requestsPerSecond, cannon.requestsPerSecond),
        ],
        [
          'autocannon',
          '',
          num(cannon.requestsPerSecond),
          num(cannon.p50Ms),
          num(cannon.p99Ms),
          errors(cannon),
          '1.000',
        ],
      ],
    ),
  ].join('\n');
}

/**
 * What the native engine measures: per step an HDR histogram of latencies (microseconds) and errors by code, and per
 * time bucket the counts, percentiles, 429s and lowest X-RateLimit-Remaining the plots show.
 */
import * as hdr from 'hdr-histogram-js';
import type { LoadSeries, LoadStepResult } from '../../harness/report/model.ts';

type Histogram = ReturnType<typeof hdr.build>;

/** 1 µs to 5 min: anything slower is clamped (and still counted). */
const HIGHEST_US = 300_000_000;

function histogram(packed: boolean): Histogram {
  return hdr.build({
    bitBucketSize: packed ? 'packed' : 32,
    lowestDiscernibleValue: 1,
    highestTrackableValue: HIGHEST_US,
    // The per-bucket histograms only feed plots: two digits keep hundreds of them small.
    numberOfSignificantValueDigits: packed ? 2 : 3,
    autoResize: false,
  });
}

const toMs = (us: number) => Math.round(us) / 1000;

interface Bucket {
  histogram: Histogram;
  count: number;
}

class StepStats {
  readonly all = histogram(false);
  readonly errors: Record<string, number> = {};
  readonly buckets = new Map<number, Bucket>();
  count = 0;
}

/** Time-bucket length: one second (a rate per second reads as such), longer so that a run has at most 300 points. */
export function bucketIntervalMs(totalDurationMs: number): number {
  return Math.max(1000, Math.ceil(totalDurationMs / 300 / 1000) * 1000);
}

export class RunStats {
  private readonly steps = new Map<string, StepStats>();
  private readonly rateLimited = new Map<number, number>();
  private readonly remaining = new Map<string, Map<number, number>>();
  private lastBucket = -1;

  /**
   * @param origin performance.now() at which the load began (bucket 0)
   */
  constructor(
    stepNames: readonly string[],
    private readonly origin: number,
    readonly intervalMs: number,
  ) {
    for (const name of stepNames) this.steps.set(name, new StepStats());
  }

  private bucketOf(at: number): number {
    const bucket = Math.max(0, Math.floor((at - this.origin) / this.intervalMs));
    if (bucket > this.lastBucket) this.lastBucket = bucket;
    return bucket;
  }

  /**
   * One response (or transport failure) of a step. `intendedStart` is when the request should have been sent (the
   * scheduled start of its iteration for an open model), so queueing in the engine counts as latency.
   */
  record(step: string, intendedStart: number, end: number, status: number, errorCode: string | undefined): void {
    let stats = this.steps.get(step);
    if (!stats) {
      stats = new StepStats();
      this.steps.set(step, stats);
    }
    const us = Math.min(HIGHEST_US, Math.max(1, Math.round((end - intendedStart) * 1000)));
    stats.count += 1;
    stats.all.recordValue(us);
    const index = this.bucketOf(intendedStart);
    let bucket = stats.buckets.get(index);
    if (!bucket) {
      bucket = { histogram: histogram(true), count: 0 };
      stats.buckets.set(index, bucket);
    }
    bucket.count += 1;
    bucket.histogram.recordValue(us);
    if (errorCode !== undefined) stats.errors[errorCode] = (stats.errors[errorCode] ?? 0) + 1;
    if (status === 429) this.rateLimited.set(index, (this.rateLimited.get(index) ?? 0) + 1);
  }

  observeRemaining(client: string, value: number, at: number): void {
    const index = this.bucketOf(at);
    let series = this.remaining.get(client);
    if (!series) {
      series = new Map();
      this.remaining.set(client, series);
    }
    const seen = series.get(index);
    series.set(index, seen === undefined ? value : Math.min(seen, value));
  }

  stepResults(loadDurationMs: number): LoadStepResult[] {
    const seconds = Math.max(loadDurationMs, 1) / 1000;
    return [...this.steps].map(([name, stats]) => ({
      name,
      count: stats.count,
      ratePerSecond: Math.round((stats.count / seconds) * 100) / 100,
      latencyMs:
        stats.count === 0
          ? { p50: 0, p90: 0, p99: 0, max: 0 }
          : {
              p50: toMs(stats.all.getValueAtPercentile(50)),
              p90: toMs(stats.all.getValueAtPercentile(90)),
              p99: toMs(stats.all.getValueAtPercentile(99)),
              max: toMs(stats.all.maxValue),
            },
      errors: { ...stats.errors },
    }));
  }

  series(): LoadSeries {
    const length = this.lastBucket + 1;
    const indices = Array.from({ length }, (_, i) => i);
    const perStep = <T>(pick: (bucket: Bucket | undefined) => T): Record<string, T[]> =>
      Object.fromEntries(
        [...this.steps].map(([name, stats]) => [name, indices.map((i) => pick(stats.buckets.get(i)))]),
      );
    return {
      intervalMs: this.intervalMs,
      t: indices.map((i) => (i * this.intervalMs) / 1000),
      requests: perStep((bucket) => bucket?.count ?? 0),
      latencyP50Ms: perStep((bucket) => (bucket ? toMs(bucket.histogram.getValueAtPercentile(50)) : null)),
      latencyP99Ms: perStep((bucket) => (bucket ? toMs(bucket.histogram.getValueAtPercentile(99)) : null)),
      rateLimited: indices.map((i) => this.rateLimited.get(i) ?? 0),
      remaining: Object.fromEntries(
        [...this.remaining].map(([client, values]) => [client, indices.map((i) => values.get(i) ?? null)]),
      ),
    };
  }
}

import { describe, expect, it } from 'vitest';
import type { EvidenceExchange } from '../check/outcome-and-evidence.ts';
import {
  isRecording,
  lastRecordedExchange,
  MAX_RECORDED_EXCHANGES,
  RecordedError,
  record,
  recording,
} from './recorder.ts';

const exchange = (n: number): EvidenceExchange => ({
  request: { method: 'GET', url: `http://x.test/${n}`, headers: {} },
  curl: `curl http://x.test/${n}`,
  durationMs: 0,
});

describe('recorder', () => {
  it('keeps the exchanges of its own async context only', async () => {
    record(exchange(0));
    expect(isRecording()).toBe(false);
    const [a, b] = await Promise.all([
      recording(async () => {
        await new Promise((r) => setTimeout(r, 5));
        record(exchange(1));
      }),
      recording(async () => {
        record(exchange(2));
        await new Promise((r) => setTimeout(r, 1));
        record(exchange(3));
      }),
    ]);
    expect(a.exchanges.map((e) => e.request.url)).toEqual(['http://x.test/1']);
    expect(b.exchanges.map((e) => e.request.url)).toEqual(['http://x.test/2', 'http://x.test/3']);
  });

  it('keeps the last exchanges of a long check', async () => {
    const { exchanges } = await recording(async () => {
      for (let i = 0; i < MAX_RECORDED_EXCHANGES + 5; i++) record(exchange(i));
    });
    expect(exchanges).toHaveLength(MAX_RECORDED_EXCHANGES);
    expect(exchanges[0]?.request.url).toBe('http://x.test/5');
  });

  it('hands the exchanges over with the error of a failed body', async () => {
    const failure = new Error('boom');
    const error = await recording(async () => {
      record(exchange(1));
      throw failure;
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RecordedError);
    expect((error as RecordedError).cause).toBe(failure);
    expect((error as RecordedError).exchanges).toHaveLength(1);
  });

  it('makes lazily recorded evidence only when read, once, and never for a check that passes', async () => {
    let made = 0;
    const lazy = (n: number) => () => {
      made += 1;
      return exchange(n);
    };
    await recording(async () => {
      record(lazy(1));
      record(lazy(2));
    });
    expect(made).toBe(0);
    const error = (await recording(async () => {
      record(lazy(3));
      expect(lastRecordedExchange()?.request.url).toBe('http://x.test/3');
      expect(lastRecordedExchange()?.request.url).toBe('http://x.test/3');
      record(lazy(4));
      throw new Error('boom');
    }).catch((e: unknown) => e)) as RecordedError;
    expect(error.exchanges.map((e) => e.request.url)).toEqual(['http://x.test/3', 'http://x.test/4']);
    expect(made).toBe(2);
  });
});

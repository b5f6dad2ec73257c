import { describe, expect, it } from 'vitest';
import type { EvidenceExchange } from '../check/outcome-and-evidence.ts';
import { isRecording, MAX_RECORDED_EXCHANGES, RecordedError, record, recording } from './recorder.ts';

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
});

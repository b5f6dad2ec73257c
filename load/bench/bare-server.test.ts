import { request } from 'undici';
import { describe, expect, it } from 'vitest';
import { startBare } from './processes.ts';

describe('the bench baseline (bare node:http server)', () => {
  it('answers each route with exactly the captured bytes, whatever the request', async () => {
    const body = Buffer.from('{"reservationId":"R-1","note":"é"}');
    const bare = await startBare({
      'POST /api/partner/v1/reservations': {
        status: 201,
        headers: { 'content-type': 'application/json; charset=utf-8', 'x-ratelimit-remaining': '5999' },
        body: body.toString('base64'),
      },
    });
    try {
      const res = await request(`${bare.url}/api/partner/v1/reservations?x=1`, { method: 'POST', body: '{"a":1}' });
      expect(res.statusCode).toBe(201);
      expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(res.headers['x-ratelimit-remaining']).toBe('5999');
      expect(Buffer.from(await res.body.arrayBuffer())).toEqual(body);
      const missing = await request(`${bare.url}/other`);
      await missing.body.dump();
      expect(missing.statusCode).toBe(404);
    } finally {
      await bare.stop();
    }
  });
});

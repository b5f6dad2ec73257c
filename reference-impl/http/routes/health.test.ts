import Fastify from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import type { ControlState } from '../../store/types.ts';
import { healthRoutes, READINESS_PATH } from './health.ts';

describe('GET /health/ready (container readiness)', () => {
  const apps: ReturnType<typeof Fastify>[] = [];
  afterEach(async () => {
    await Promise.all(apps.splice(0).map((app) => app.close()));
  });

  function appWith(getControlState: () => Promise<ControlState>) {
    const app = Fastify();
    apps.push(app);
    healthRoutes(app, { getControlState });
    return app;
  }

  it('answers 200 when the store answers', async () => {
    const res = await appWith(async () => ({}) as ControlState).inject({ method: 'GET', url: READINESS_PATH });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ready' });
  });

  it('answers 503 without detail when the store fails', async () => {
    const res = await appWith(async () => {
      throw new Error('connect ECONNREFUSED postgres://user:secret@db');
    }).inject({ method: 'GET', url: READINESS_PATH });
    expect(res.statusCode).toBe(503);
    expect(res.body).toBe('{"status":"unavailable"}');
  });
});

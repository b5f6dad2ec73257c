import { expect } from 'vitest';
import { check } from '../../check/check.ts';

/** A "suite" for the runner's tests: every check lists, and the stub stops answering after a few requests. */
for (const clause of ['4.2.1', '4.2.2', '4.3.1', '4.4.1', '4.4.2']) {
  check(clause)({ name: 'lists', needs: ['partnerA'] }, async (t) => {
    const res = await t.client('partnerA').get('/fleet');
    expect(res.status).toBe(200);
  });
}

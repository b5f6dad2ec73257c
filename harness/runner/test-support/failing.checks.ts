import fc from 'fast-check';
import { expect } from 'vitest';
import { check } from '../../check/check.ts';

/**
 * A "suite" for the runner's tests (run through runCertification with `suites`, never by the project's vitest):
 * checks that fail the ways test frameworks like to word (Object.is, asymmetric matchers, fast-check's summary),
 * then checks that meet a target which stopped answering (the stub closes after the fifth request).
 */

check('4.2.1')({ name: 'status is 201', needs: ['partnerA'] }, async (t) => {
  const res = await t.client('partnerA').get('/fleet');
  expect(res.status).toBe(201);
});

check('4.2.2')({ name: 'timezone is an IANA zone', needs: ['partnerA'] }, async (t) => {
  const res = await t.client('partnerA').get('/fleet');
  expect(res.body).toEqual(expect.objectContaining({ timezone: expect.stringMatching(/^[A-Z][a-z]+\//) }));
});

check('4.2.3')({ name: 'a property meets a network error' }, async (t) => {
  await t.forAll(fc.integer(), async (n) => {
    if (n > 3) throw new Error('connect ECONNREFUSED 127.0.0.1:1');
    return undefined;
  });
});

check('4.2.5')({ name: 'a property fails an assertion' }, async (t) => {
  await t.forAll(fc.integer(), async (n) => {
    expect(n).toBeLessThan(3);
    return undefined;
  });
});

for (const clause of ['4.3.1', '4.4.1', '4.4.2']) {
  check(clause)({ name: 'lists after the target stopped', needs: ['partnerA'] }, async (t) => {
    const res = await t.client('partnerA').get('/locations');
    expect(res.status).toBe(200);
  });
}

import { expect } from 'vitest';
import { check } from '../harness/check/check.ts';
import { requestToken } from './support/auth.ts';
check('4.1.5', { name: 'tmp failing', needs: ['partnerA'] }, async (t) => {
  const res = await requestToken(t, 'partnerA', { auth: 'post' });
  const loc = await t.client('partnerA').get('/locations', { representation: 'xml' });
  expect(res.body).toEqual({ x: 1 });
});
check('5.7b', { name: 'tmp should' }, async (t) => {
  expect(1).toBe(2);
});
check('5.7b', { name: 'tmp error' , level: 'MUST'}, async (t) => {
  await t.client('partnerA').get('/locations');
  throw new Error('boom ' + t.settings.target.clients.partnerA?.clientSecret);
});

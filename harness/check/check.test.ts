import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Clause, clauseById } from '../../contract/clauses/index.ts';
import { TokenCache } from '../auth/token-cache.ts';
import type { TestHooks } from '../hooks/adapter.ts';
import { send } from '../http/client.ts';
import { registerTargetSecrets, secrets } from '../http/secrets.ts';
import { RUN_SETTINGS_KEY, type RunSettings } from '../run-settings.ts';
import { isSelected } from './applicability.ts';
import { type CheckFn, type CheckOptions, checkTitle, deriveSeed, qualifyOptions, runCheck } from './check.ts';
import { SKIP } from './judge.ts';
import type { CheckMeta } from './outcome-and-evidence.ts';
import { claim, requireStep } from './scope.ts';
import { transientSignal } from './signal.ts';

const SECRET = 'fixture-client-secret-9f8e7d6c';
let server: Server;
let baseUrl: string;

beforeAll(async () => {
  // A minimal target: a token endpoint and one business path.
  server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.setHeader('content-type', 'application/json');
      res.setHeader('x-request-id', 'rid-1');
      if (req.url?.endsWith('/oauth/token')) {
        res.end(
          JSON.stringify({
            access_token: 'fixture-access-token-123456',
            token_type: 'Bearer',
            expires_in: 600,
            scope: 'fleet:read',
          }),
        );
      } else {
        res.end(JSON.stringify({ vehicles: [], count: 0 }));
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
  secrets.clear();
});

function settings(overrides: Partial<RunSettings> = {}): RunSettings {
  return {
    target: { baseUrl, clients: { partnerA: { clientId: 'fixture-a', clientSecret: SECRET } } },
    embedded: false,
    profile: 'shop',
    allowBookings: false,
    strict: false,
    seed: 7,
    runs: 5,
    maxRps: null,
    date: '2030-01-10',
    bookingPrefix: 'CERT-T-',
    only: [],
    hooks: [],
    ...overrides,
  };
}

class Skipped extends Error {}

/** Runs one check body through the wrapper, as the vitest test of check() would. */
async function run(
  clauseId: string,
  options: CheckOptions,
  fn: CheckFn,
  runSettings = settings(),
  hooks?: TestHooks,
): Promise<{ meta: CheckMeta; thrown?: unknown; skipped?: string }> {
  const clause = clauseById(clauseId) as Clause;
  registerTargetSecrets(runSettings.target);
  const state = {
    settings: runSettings,
    tokens: new TokenCache({
      baseUrl,
      clients: runSettings.target.clients,
      send,
      ...(runSettings.granted ? { granted: runSettings.granted } : {}),
    }),
    send,
    hooks,
  };
  let meta: CheckMeta | undefined;
  let skipped: string | undefined;
  let thrown: unknown;
  try {
    await runCheck({
      clause,
      options,
      name: options.name ?? clause.title,
      title: checkTitle(clauseId, options.name ?? clause.title, 'json'),
      representation: 'json',
      state,
      fn,
      setMeta: (m) => {
        meta = m;
      },
      skip: (note) => {
        skipped = note;
        throw new Skipped(note);
      },
    });
  } catch (error) {
    if (!(error instanceof Skipped)) thrown = error;
  }
  if (!meta) throw new Error('setMeta was not called');
  return { meta, thrown, skipped };
}

describe('runCheck outcomes', () => {
  it('JSON and XML runs of a check draw with the same seed (so an XML-only failure is the representation)', async () => {
    const seeds: number[] = [];
    for (const representation of ['json', 'xml'] as const) {
      const clause = clauseById('4.2.1') as Clause;
      const runSettings = settings();
      let meta: CheckMeta | undefined;
      await runCheck({
        clause,
        options: { name: 'same draws' },
        name: 'same draws',
        title: checkTitle('4.2.1', 'same draws', representation),
        representation,
        state: {
          settings: runSettings,
          tokens: new TokenCache({
            baseUrl,
            clients: runSettings.target.clients,
            send,
            ...(runSettings.granted ? { granted: runSettings.granted } : {}),
          }),
          send,
          hooks: undefined,
        },
        fn: async () => {},
        setMeta: (m) => {
          meta = m;
        },
        skip: () => {
          throw new Error('not skipped');
        },
      });
      seeds.push(meta?.seed ?? Number.NaN);
    }
    expect(seeds[0]).toBe(seeds[1]);
  });

  it('pass: meta carries clause, name, level, profile, representation and seed', async () => {
    const { meta, thrown } = await run('4.2.1', { name: 'ok', needs: ['partnerA'] }, async (t) => {
      expect((await t.client('partnerA').get('/fleet')).status).toBe(200);
    });
    expect(thrown).toBeUndefined();
    expect(meta).toEqual({
      clauseId: '4.2.1',
      name: 'ok',
      level: 'MUST',
      profile: 'catalog',
      representation: 'json',
      seed: deriveSeed(7, '[4.2.1] ok'),
      outcome: 'pass',
      judgedBy: 'live',
      // The token request and the GET, both as partnerA; no 429, no wait.
      traffic: { requests: { partnerA: 2 }, provoked429: 0, unprovoked429: 0, waitedMs: 0 },
    });
  });

  it("files another clause's deviation under that clause and passes its own; its own clause fails", async () => {
    const other = await run('4.2.1', { needs: ['partnerA'] }, async () => {
      claim('2.1.2', false, 'currency in lower case', { expected: 'VND', actual: 'vnd' });
      claim('2.1.2', false, 'currency in lower case');
    });
    expect(other.meta.outcome).toBe('pass');
    expect(other.meta.observations).toEqual([
      { clauseId: '2.1.2', message: 'currency in lower case', expected: '"VND"', actual: '"vnd"', count: 2 },
    ]);
    const own = await run('2.1.2', {}, async () => {
      claim('2.1.2', false, 'currency in lower case');
    });
    expect(own.meta.outcome).toBe('fail');
    expect(own.meta.evidence?.message).toBe('currency in lower case (spec 2.1.2)');
  });

  it('a failed step of another clause blocks the check: not-applicable with the clause, the failure filed there', async () => {
    const { meta, thrown } = await run('4.5.1', {}, async () => {
      requireStep('4.0.11', false, 'POST /quotes answers 201');
      throw new Error('not reached');
    });
    expect(thrown).toBeUndefined();
    expect(meta.outcome).toBe('not-applicable');
    expect(meta.notApplicable).toMatchObject({ kind: 'blocked', clauseId: '4.0.11' });
    expect(meta.observations?.map((o) => o.clauseId)).toEqual(['4.0.11']);
  });

  it('a crash after a filed deviation is blocked by it; a crash without one is an error', async () => {
    const blocked = await run('4.2.1', {}, async () => {
      claim('2.5.1', false, 'vehicle without images');
      throw new TypeError("Cannot read properties of undefined (reading 'length')");
    });
    expect(blocked.meta.outcome).toBe('not-applicable');
    expect(blocked.meta.notApplicable).toMatchObject({ kind: 'blocked', clauseId: '2.5.1' });
    const crashed = await run('4.2.1', {}, async () => {
      throw new TypeError('a bug of the check');
    });
    expect(crashed.meta.outcome).toBe('error');
  });

  it('a step refused with 429 or 503 is not-applicable, nothing filed', async () => {
    const { meta } = await run('4.5.1', {}, async () => {
      throw transientSignal('POST /quotes was refused for now (HTTP 429)');
    });
    expect(meta.outcome).toBe('not-applicable');
    expect(meta.notApplicable?.kind).toBe('target');
    expect(meta.observations).toBeUndefined();
  });

  it('listings that offer nothing to draw a request from: not-applicable with the reason, never an error', async () => {
    const { meta, thrown } = await run('4.5.1', {}, async () => {
      // What generators/nothing-to-draw.ts throws, known by its name (the harness does not import the generators).
      const nothing = Object.assign(new Error('quoteRequest: no listed vehicle is offered at a usable pickup'), {
        name: 'NothingToDrawError',
      });
      throw new Error('Property failed by throwing', { cause: nothing });
    });
    expect(thrown).toBeUndefined();
    expect(meta.outcome).toBe('not-applicable');
    expect(meta.notApplicable?.detail).toContain('no listed vehicle is offered at a usable pickup');
  });

  it('a property that judged fewer than a third of its cases is not-applicable; its cases are counted', async () => {
    const few = await run('4.2.1', {}, async (t) => {
      await t.forAll(fc.integer(), async (n) => (n % 10 === 0 ? undefined : SKIP), { numRuns: 30 });
    });
    expect(few.meta.outcome).toBe('not-applicable');
    expect(few.meta.notApplicable?.kind).toBe('few-cases');
    const enough = await run('4.2.1', {}, async (t) => {
      await t.forAll(fc.integer(), async (n) => (n % 2 === 0 ? undefined : SKIP), { numRuns: 30 });
    });
    expect(enough.meta.outcome).toBe('pass');
    expect(enough.meta.cases?.runs).toBe(30);
    expect(enough.meta.cases?.judged).toBeGreaterThanOrEqual(10);
  });

  it('a case that calls t.notApplicable is a case not judged: the property passes or ends few-cases, never fails', async () => {
    const some = await run('4.2.1', {}, async (t) => {
      await t.forAll(fc.integer(), async (n) => (n % 2 === 0 ? undefined : t.notApplicable('nothing offered')), {
        numRuns: 30,
      });
    });
    expect(some.meta.outcome).toBe('pass');
    expect(some.meta.cases?.runs).toBe(30);
    expect(some.meta.cases?.judged).toBeLessThan(30);
    const none = await run('4.2.1', {}, async (t) => {
      await t.forAll(fc.integer(), async () => t.notApplicable('nothing offered'), { numRuns: 10 });
    });
    expect(none.meta.outcome).toBe('not-applicable');
    expect(none.meta.notApplicable?.kind).toBe('few-cases');
    expect(none.meta.notApplicable?.detail).toContain('nothing offered');
  });

  it('a step blocked inside a property ends it at once, without shrinking', async () => {
    let calls = 0;
    const { meta } = await run('4.5.1', {}, async (t) => {
      await t.forAll(fc.integer(), async () => {
        calls += 1;
        requireStep('4.0.11', false, 'POST /quotes answers 201');
        return undefined;
      });
    });
    expect(meta.notApplicable).toMatchObject({ kind: 'blocked', clauseId: '4.0.11' });
    expect(calls).toBe(1);
  });

  it('fail: an assertion is rethrown and leaves evidence with the exchanges, secrets redacted', async () => {
    const { meta, thrown } = await run('4.2.1', { needs: ['partnerA'] }, async (t) => {
      const res = await t.client('partnerA').get('/fleet');
      expect({ status: res.status, secret: SECRET }, 'status').toEqual({ status: 404, secret: SECRET });
    });
    expect(meta.outcome).toBe('fail');
    expect((thrown as Error).name).toBe('AssertionError');
    const evidence = meta.evidence;
    expect(evidence?.message).toContain('status');
    expect(evidence?.expected).toContain('404');
    expect(evidence?.actual).toContain('200');
    expect(evidence?.exchanges.map((e) => e.request.url)).toEqual([
      `${baseUrl}/api/partner/v1/oauth/token`,
      `${baseUrl}/api/partner/v1/fleet`,
    ]);
    expect(evidence?.exchanges[1]?.curl).toContain('"$TOKEN_PARTNERA"');
    const everything =
      JSON.stringify(meta) + String((thrown as Error).message) + JSON.stringify((thrown as { actual: unknown }).actual);
    expect(everything).not.toContain(SECRET);
    expect(everything).not.toContain('fixture-access-token-123456');
  });

  it('warn: a failed SHOULD check is not rethrown without --strict, and fails with it', async () => {
    const body: CheckFn = async () => {
      expect(1).toBe(2);
    };
    const lenient = await run('5.7b', {}, body);
    expect(lenient.meta.level).toBe('SHOULD');
    expect(lenient.meta.outcome).toBe('warn');
    expect(lenient.thrown).toBeUndefined();
    expect(lenient.meta.evidence?.message).toContain('expected 2; got 1');
    const strict = await run('5.7b', {}, body, settings({ strict: true }));
    expect(strict.meta.outcome).toBe('fail');
    expect(strict.thrown).toBeDefined();
    const demoted = await run('4.2.1', { level: 'SHOULD' }, body);
    expect(demoted.meta.outcome).toBe('warn');
  });

  it('error: anything but an assertion is a harness error, rethrown, with the secret scrubbed', async () => {
    const { meta, thrown } = await run('4.2.1', {}, async () => {
      throw new TypeError(`broken ${SECRET}`);
    });
    expect(meta.outcome).toBe('error');
    expect(meta.evidence?.message).toBe('TypeError: broken [REDACTED]');
    expect((thrown as Error).message).toBe('broken [REDACTED]');
    expect((thrown as Error).stack).not.toContain(SECRET);
  });

  it('a fast-check property failure is a fail with its seed and path', async () => {
    const { meta } = await run('4.2.1', {}, async () => {
      const error = new Error(
        'Property failed after 3 tests\n{ seed: -42, path: "2:0", endOnFailure: true }\nCounterexample: ["x"]',
      );
      error.cause = Object.assign(new Error('expected'), { name: 'AssertionError' });
      throw error;
    });
    expect(meta.outcome).toBe('fail');
    expect(meta.evidence?.property).toEqual({ seed: -42, path: '2:0', counterexample: '["x"]' });
  });

  const never: CheckFn = async () => {
    throw new Error('must not run');
  };

  it('not-applicable: profile, credential, hooks, probes, bookings, https, each with its reason', async () => {
    const cases: [string, CheckOptions, RunSettings, string][] = [
      ['4.2.1', { profile: 'book' }, settings(), 'profile'],
      ['4.2.1', { needs: ['partnerA', 'partnerB'] }, settings(), 'missing-credential'],
      ['5.8', { hooks: ['api.switch'] }, settings({ profile: 'full' }), 'missing-hooks'],
      ['4.2.1', { hooks: ['api.switch'] }, settings({ profile: 'full', hooks: ['failures'] }), 'missing-hooks'],
      ['4.2.1', { probes: ['incompleteVehicleCode'] }, settings(), 'missing-probe'],
      ['4.2.1', { bookings: true }, settings(), 'bookings-not-allowed'],
      ['5.7a', {}, settings(), 'plain-http'],
    ];
    for (const [clauseId, options, runSettings, kind] of cases) {
      const { meta, skipped, thrown } = await run(clauseId, options, never, runSettings);
      expect(thrown, `${clauseId} ${kind}`).toBeUndefined();
      expect(meta.outcome).toBe('not-applicable');
      expect(meta.notApplicable?.kind).toBe(kind);
      expect(skipped).toBe(meta.notApplicable?.detail);
    }
    expect((await run('4.2.1', { needs: ['partnerB'] }, never)).meta.notApplicable?.detail).toContain('partnerB');
  });

  it('not-applicable: a scope the role does not hold, by name, before the profile (spec 5.5)', async () => {
    const readShop = settings({
      granted: { partnerA: ['fleet:read', 'locations:read', 'rates:read', 'availability:read', 'quotes:write'] },
    });
    const reasons = async (options: CheckOptions, runSettings = readShop) =>
      (await run('4.2.1', options, never, runSettings)).meta.notApplicable;
    // Declared, and derived: a check that books or is of profile book needs the booking scopes.
    expect(await reasons({ scopes: ['reservations:write'] })).toEqual({
      kind: 'missing-scope',
      detail: 'no role holds reservations:write',
    });
    for (const options of [{ bookings: true }, { profile: 'book' as const }]) {
      expect(await reasons(options)).toEqual({
        kind: 'missing-scope',
        detail: 'no role holds reservations:read, reservations:write, reservations:cancel',
      });
    }
    // Another role holds it: the check's own role is named.
    const partnerBBooks = settings({
      target: {
        baseUrl,
        clients: {
          partnerA: { clientId: 'fixture-a', clientSecret: SECRET },
          partnerB: { clientId: 'fixture-b', clientSecret: SECRET },
        },
      },
      granted: { partnerA: ['fleet:read'], partnerB: ['fleet:read', 'reservations:read'] },
    });
    expect(await reasons({ scopes: ['reservations:read'] }, partnerBBooks)).toEqual({
      kind: 'missing-scope',
      detail: 'partnerA does not hold reservations:read',
    });
    expect(await reasons({ needs: ['partnerB'], scopes: ['reservations:read'] }, partnerBBooks)).toBeUndefined();
    // Held, or not known (no grant recorded): the other rules decide.
    expect((await reasons({ scopes: ['fleet:read'], profile: 'book' }))?.kind).toBe('profile');
    expect((await reasons({ bookings: true }, settings()))?.kind).toBe('bookings-not-allowed');
    expect(await reasons({ scopes: ['fleet:read'] })).toBeUndefined();
  });

  it('a call the role lacks the scope for ends the check not-applicable, never error, and is not sent', async () => {
    const granted = settings({ granted: { partnerA: ['fleet:read'] } });
    const calls: string[] = [];
    const track = (path: string) => calls.push(path);
    // With the everything-held token: GET /rates needs rates:read, which partnerA lacks.
    const unlimited = await run(
      '4.4.1',
      {},
      async (t) => {
        track('/fleet');
        expect((await t.client('partnerA').get('/fleet')).status).toBe(200);
        track('/rates');
        await t.client('partnerA').get('/rates');
        track('after');
      },
      granted,
    );
    expect(unlimited.meta.outcome).toBe('not-applicable');
    expect(unlimited.meta.notApplicable).toEqual({ kind: 'missing-scope', detail: 'no role holds rates:read' });
    expect(calls).toEqual(['/fleet', '/rates']);
    expect(unlimited.meta.evidence).toBeUndefined();
    // A token the check limits to a scope the role does not hold: refused by the token cache, never asked for.
    const limited = await run(
      '4.0.5',
      {},
      async (t) => {
        await t.client('partnerA').get('/fleet', { scopes: ['reservations:read'] });
      },
      granted,
    );
    expect(limited.meta.notApplicable).toEqual({ kind: 'missing-scope', detail: 'no role holds reservations:read' });
    // A token the check limits itself, to a scope the role holds, goes whatever the endpoint: its 403 is judged.
    const judged = await run(
      '4.0.9',
      {},
      async (t) => {
        expect((await t.client('partnerA').get('/rates', { scopes: ['fleet:read'] })).status).toBe(200);
      },
      granted,
    );
    expect(judged.meta.outcome).toBe('pass');
    // Inside a property: the first case ends it, without shrinking.
    let cases = 0;
    const property = await run(
      '4.4.1',
      {},
      async (t) => {
        await t.forAll(fc.integer(), async () => {
          cases += 1;
          await t.client('partnerA').get('/rates');
        });
      },
      granted,
    );
    expect(property.meta.notApplicable?.kind).toBe('missing-scope');
    expect(cases).toBe(1);
  });

  it('runs a hooks check when the target offers the hook and the profile is full', async () => {
    const hooks = { available: new Set(['api.switch']) } as unknown as TestHooks;
    const { meta } = await run(
      '5.8',
      { hooks: ['api.switch'] },
      async (t) => expect(t.hooks).toBe(hooks),
      settings({ profile: 'full', hooks: ['api.switch'] }),
      hooks,
    );
    expect(meta.outcome).toBe('pass');
    expect(meta.judgedBy).toBe('hooks');
    const shop = await run(
      '5.8',
      { hooks: ['api.switch'] },
      never,
      settings({ profile: 'shop', hooks: ['api.switch'] }),
    );
    expect(shop.meta.notApplicable?.kind).toBe('profile');
  });

  it('not-applicable from inside the check (the target has nothing to test with)', async () => {
    const { meta, skipped } = await run('4.2.1', {}, async (t) => t.notApplicable('no vehicles'));
    expect(meta.outcome).toBe('not-applicable');
    expect(meta.notApplicable).toEqual({ kind: 'target', detail: 'no vehicles' });
    expect(skipped).toBe('no vehicles');
  });

  it('records created reservations once each', async () => {
    const { meta } = await run('4.2.1', {}, async (t) => {
      t.recordReservation('R1');
      t.recordReservation('R2');
      t.recordReservation('R1');
    });
    expect(meta.createdReservations).toEqual(['R1', 'R2']);
  });

  it('using an undeclared, unconfigured role is a harness error naming it', async () => {
    const { meta } = await run('4.2.1', {}, async (t) => {
      t.client('partnerB');
    });
    expect(meta.outcome).toBe('error');
    expect(meta.evidence?.message).toContain('partnerB');
  });
});

describe('selection and seeds', () => {
  it('--only takes clause ids, split-clause stems and section prefixes', () => {
    const clause = (id: string) => clauseById(id) as Clause;
    expect(isSelected(clause('4.7.3'), [])).toBe(true);
    expect(isSelected(clause('4.7.3'), ['4.7.3'])).toBe(true);
    expect(isSelected(clause('4.7.9a'), ['4.7.9'])).toBe(true);
    expect(isSelected(clause('4.7.3'), ['4.7'])).toBe(true);
    expect(isSelected(clause('4.7.3'), ['4'])).toBe(true);
    expect(isSelected(clause('4.10.1'), ['4.1'])).toBe(false);
    expect(isSelected(clause('5.2a'), ['5'])).toBe(true);
    expect(isSelected(clause('5.2a'), ['4', '7.2'])).toBe(false);
  });

  it('a check seed depends on the run seed and the title only', () => {
    expect(deriveSeed(1, 'a')).toBe(deriveSeed(1, 'a'));
    expect(deriveSeed(1, 'a')).not.toBe(deriveSeed(2, 'a'));
    expect(deriveSeed(1, 'a')).not.toBe(deriveSeed(1, 'b'));
    expect(Number.isInteger(deriveSeed(123456789, '[4.2.1] x (json)'))).toBe(true);
  });
});

describe('qualifyOptions', () => {
  const clause = { level: 'MUST', minProfile: 'shop', verification: 'wire' } as const;

  it("takes the clause's level and profile, judged live, when the check says nothing", () => {
    expect(qualifyOptions({}, clause)).toEqual({ level: 'MUST', profile: 'shop', judgedBy: 'live' });
    expect(qualifyOptions({}, { ...clause, verification: 'static' }).judgedBy).toBe('static');
    expect(qualifyOptions({}, { ...clause, verification: 'https' }).judgedBy).toBe('live');
  });

  it("the check's own level, profile and judgedBy win over the clause's", () => {
    const options = { level: 'SHOULD', profile: 'book', judgedBy: 'static' } as const;
    expect(qualifyOptions(options, clause)).toEqual({ level: 'SHOULD', profile: 'book', judgedBy: 'static' });
  });

  it('a check that calls test hooks runs at profile full and is judged by hooks, whatever profile it names', () => {
    expect(qualifyOptions({ hooks: ['quotes.expire'], profile: 'catalog' }, clause)).toEqual({
      level: 'MUST',
      profile: 'full',
      judgedBy: 'hooks',
    });
    // An empty list calls no hook.
    expect(qualifyOptions({ hooks: [] }, clause)).toEqual({ level: 'MUST', profile: 'shop', judgedBy: 'live' });
  });

  it('patient before hooks before static; an explicit judgedBy before all', () => {
    const hooks = ['quotes.expire'] as const;
    expect(qualifyOptions({ patient: true, hooks: [...hooks] }, { ...clause, verification: 'static' }).judgedBy).toBe(
      'patient',
    );
    expect(qualifyOptions({ hooks: [...hooks] }, { ...clause, verification: 'static' }).judgedBy).toBe('hooks');
    expect(qualifyOptions({ patient: true, judgedBy: 'live' }, clause).judgedBy).toBe('live');
  });
});

describe('check() under vitest', () => {
  it('registers one test per representation and records every outcome on task.meta', async () => {
    const { startVitest } = await import('vitest/node');
    // The nested run fails on purpose and would mark this process as failed.
    const exitCode = process.exitCode;
    try {
      const root = fileURLToPath(new URL('../../', import.meta.url));
      const vitest = await startVitest('test', [], {
        root,
        config: false,
        include: ['harness/check/fixtures/outcomes.fixture.ts'],
        watch: false,
        // A silent reporter: the failures of the fixture file are expected and read from the state below.
        reporters: [{}],
        pool: 'forks',
        provide: {
          // every-check: 4.2.1 is no clause about representations, so under the default mirror it runs in JSON alone.
          [RUN_SETTINGS_KEY]: settings({
            profile: 'catalog',
            allowBookings: true,
            only: ['4.2', '5.7', '4.7'],
            xml: 'every-check',
          }),
        },
      });
      const tests = vitest.state.getTestModules().flatMap((m) => [...m.children.allTests()]);
      await vitest.close();
      const byName = Object.fromEntries(
        tests.map((t) => [t.name, { outcome: t.meta().check?.outcome, state: t.result().state, meta: t.meta().check }]),
      );
      expect(Object.keys(byName).sort()).toEqual(
        [
          '[4.2.1] decides it is not applicable (json)',
          '[4.2.1] errors (json)',
          '[4.2.1] fails with evidence (json)',
          '[4.2.1] fails with evidence (xml)',
          '[4.2.1] needs a higher profile (json)',
          '[4.2.1] needs a missing role (json)',
          '[4.2.1] passes (json)',
          '[4.7.3] records a reservation (json)',
          '[5.7b] warns (SHOULD) (json)',
        ].sort(),
      );
      expect(byName['[4.2.1] passes (json)']).toMatchObject({ outcome: 'pass', state: 'passed' });
      expect(byName['[4.2.1] fails with evidence (xml)']).toMatchObject({ outcome: 'fail', state: 'failed' });
      // The token was fetched (and recorded) by the first check; this one records only its own call.
      expect(byName['[4.2.1] fails with evidence (json)']?.meta?.evidence?.exchanges.map((e) => e.request.url)).toEqual(
        [`${baseUrl}/api/partner/v1/fleet`],
      );
      expect(byName['[5.7b] warns (SHOULD) (json)']).toMatchObject({ outcome: 'warn', state: 'passed' });
      expect(byName['[4.2.1] needs a missing role (json)']).toMatchObject({
        outcome: 'not-applicable',
        state: 'skipped',
      });
      expect(byName['[4.2.1] needs a higher profile (json)']?.meta?.notApplicable?.kind).toBe('profile');
      expect(byName['[4.2.1] errors (json)']).toMatchObject({ outcome: 'error', state: 'failed' });
      expect(byName['[4.2.1] decides it is not applicable (json)']).toMatchObject({
        outcome: 'not-applicable',
        state: 'skipped',
      });
      expect(byName['[4.7.3] records a reservation (json)']?.meta?.createdReservations).toEqual(['R-1']);
      const errors = tests.flatMap((t) => t.result().errors ?? []);
      expect(JSON.stringify(errors)).not.toContain(SECRET);
      expect(JSON.stringify(tests.map((t) => t.meta()))).not.toContain(SECRET);
    } finally {
      process.exitCode = exitCode;
    }
  });
});

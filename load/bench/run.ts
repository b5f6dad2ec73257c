/**
 * `npm run bench`: the reference implementation's throughput and latency per operation, each as a ratio against a bare
 * node:http server answering the same bytes, measured side by side in one run, on SQLite and on PostgreSQL; then the
 * native engine's top rate against autocannon's on the bare server. Prints a table with the goal (load/README.md
 * "Benchmark") and a verdict per row, and writes the same figures to reports/bench.json. Never a timed test.
 *
 *   npm run bench [-- --seconds 5 --connections 16 --stores sqlite,postgres --pg postgresql://postgres@127.0.0.1:5432/postgres]
 *
 * Then the suite's own figures, each run alone (suite-timing.ts): `npm run certify` and `npm test` on a fresh clone of
 * HEAD (`--skip-npm-test`, `--skip-suite` to leave them out).
 *
 * `--scale 10000,100000,1000000` adds the scale rows (scale.ts): reservation reads and bookings on a store holding that
 * many reservations, p99 against the store before seeding. `--skip-compare` leaves out the rows against the bare
 * server; reports/bench.json then keeps the comparison figures of the run that measured them.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { Command } from 'commander';
import pg from 'pg';
import { request } from 'undici';
import { parseTargetConfig } from '../../harness/config/target-config.ts';
import type { LoadTarget } from '../engine-neutral/model.ts';
import { BenchAccess } from './access.ts';
import type { BareRoute } from './bare-server.ts';
import { BENCH_ENDPOINTS, type BenchEndpoint } from './endpoints.ts';
import { combineSlices, type Measurement, measureAutocannon, measureNative, type Slice } from './measure.ts';
import { buildReference, type RunningServer, startBare, startReference } from './processes.ts';
import {
  benchScale,
  p99Ratio,
  SCALE_NOTES,
  SCALE_P99_GOAL,
  type ScaleRow,
  type SeedingRow,
  scaleVerdict,
} from './scale.ts';
import { type SuiteTiming, suiteVerdict, timeCertification, timeNpmTest } from './suite-timing.ts';
import {
  type ComparisonRow,
  formatComparison,
  formatScale,
  formatSeeding,
  formatSuite,
  formatTopRate,
  goalOf,
} from './table.ts';

const program = new Command('bench')
  .option('--seconds <n>', 'measured seconds per server and operation', '5')
  .option('--warmup <n>', 'unmeasured seconds before each measurement', '1')
  .option('--connections <n>', 'connections (closed loop) per measurement', '16')
  .option('--top-connections <n>', 'connections for the engine top-rate comparison', '32')
  .option('--stores <list>', 'sqlite,postgres', 'sqlite,postgres')
  .option('--operations <list>', 'a subset, e.g. "POST /quotes,GET /locations" (default: all four)')
  .option('--repeat <n>', 'measure each operation this many times in a row (one row each)', '1')
  .option('--slices <n>', 'measure the reference and the bare server in turns, in this many runs each', '5')
  .option('--skip-top', 'skip the native engine vs autocannon comparison')
  .option('--skip-compare', 'skip the reference vs bare server rows (e.g. for a run of scale rows only)')
  .option('--scale <sizes>', 'scale rows at these numbers of seeded reservations, e.g. 10000,100000,1000000')
  .option('--skip-suite', 'skip the suite rows (the timed `npm run certify` and `npm test`)')
  .option('--skip-npm-test', 'skip the `npm test` row only (about 4 minutes)')
  .option('--cpu-prof <dir>', 'write a V8 CPU profile of the reference per store into <dir> (see profile-top.ts)')
  .option('--source', 'run the reference from its TypeScript source through tsx, not compiled as it ships')
  .option(
    '--pg <url>',
    'PostgreSQL admin URL (a database of its own is created and dropped)',
    'postgresql://postgres@127.0.0.1:5432/postgres',
  )
  .parse();
const flags = program.opts<{
  seconds: string;
  warmup: string;
  connections: string;
  topConnections: string;
  stores: string;
  operations?: string;
  repeat: string;
  slices: string;
  skipTop?: boolean;
  skipCompare?: boolean;
  skipSuite?: boolean;
  skipNpmTest?: boolean;
  scale?: string;
  cpuProf?: string;
  source?: boolean;
  pg: string;
}>();
const seconds = Number(flags.seconds);
const warmup = Number(flags.warmup);
const connections = Number(flags.connections);
const topConnections = Number(flags.topConnections);
const repeat = Number(flags.repeat);
const slices = Number(flags.slices);
if (!Number.isInteger(slices) || slices < 1) throw new Error(`--slices: a positive whole number (got ${flags.slices})`);
const scaleSizes = flags.scale
  ?.split(',')
  .map((size) => Number(size.trim().replaceAll('_', '')))
  .sort((a, b) => a - b);
if (scaleSizes?.some((size) => !Number.isInteger(size) || size < 1)) {
  throw new Error(`--scale: positive whole numbers, comma-separated (got ${flags.scale})`);
}
const chosen = flags.operations?.split(',').map((name) => name.trim());
const endpoints = BENCH_ENDPOINTS.filter((endpoint) => !chosen || chosen.includes(endpoint.name));
if (endpoints.length === 0)
  throw new Error(`--operations: none of ${flags.operations} (${BENCH_ENDPOINTS.map((e) => e.name).join(', ')})`);

const parsed = parseTargetConfig(
  JSON.parse(readFileSync(new URL('../../fixtures/reference-target.json', import.meta.url), 'utf8')),
  {},
).config;
// The reference's operator API (its clock, /control/v1) shares the test hooks' secret (load/target.ts does the same).
const fixture: LoadTarget = parsed.hooks
  ? { ...parsed, control: { baseUrl: parsed.baseUrl, token: parsed.hooks.token } }
  : (parsed as LoadTarget);

const log = (text: string) => process.stderr.write(`${text}\n`);

let compiledEntry: string | undefined;
/** The compiled reference (built once, on first use), or undefined with --source. */
function referenceEntry(): string | undefined {
  if (flags.source) return undefined;
  if (!compiledEntry) {
    log('reference: compiling it as it ships (npm run build, into node_modules/.cache/bench-reference)');
    compiledEntry = buildReference();
  }
  return compiledEntry;
}

/** The reference's answer to one request of the operation: the bytes the bare server will serve. */
async function capture(baseUrl: string, endpoint: BenchEndpoint, access: BenchAccess): Promise<BareRoute> {
  const spec = endpoint.request(baseUrl, access);
  const res = await request(spec.url, {
    method: spec.method,
    headers: spec.headers ?? {},
    body: spec.body ?? null,
  });
  const body = Buffer.from(await res.body.arrayBuffer());
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(res.headers)) {
    if (['date', 'connection', 'keep-alive', 'transfer-encoding', 'content-length'].includes(name)) continue;
    headers[name] = Array.isArray(value) ? value.join(', ') : String(value);
  }
  if (res.statusCode >= 300) throw new Error(`${endpoint.name}: the reference answered HTTP ${res.statusCode}`);
  return { status: res.statusCode, headers, body: body.toString('base64') };
}

/**
 * One closed-loop measurement, with the server's CPU time per request: on a machine shared with other work the
 * rates move with the neighbours, the CPU a request costs much less.
 */
async function measure(server: RunningServer, endpoint: BenchEndpoint, access: BenchAccess): Promise<Measurement> {
  const make = () => endpoint.request(server.url, access);
  if (warmup > 0) await measureNative(server.url, make, connections, warmup);
  const cpuBefore = server.cpuSeconds();
  const result = await measureNative(server.url, make, connections, seconds);
  const requests = result.requestsPerSecond * seconds;
  const cpu = server.cpuSeconds() - cpuBefore;
  if (Number.isFinite(cpu) && requests > 0) result.cpuUsPerRequest = (cpu * 1e6) / requests;
  return result;
}

/**
 * The reference and the bare server in turns: a warm-up of each, then `slices` short runs of each, alternately (the
 * first of a round alternating too). A shared machine's load drifts within seconds: the bare server alone measured
 * 28,700 and 44,700 req/s in two runs minutes apart, and a ratio of two 5-s runs taken one after the other carried
 * that drift into the verdict (a POST /availability ratio of 0.36 "met" between runs of 0.25 and 0.26).
 */
async function measurePair(
  reference: RunningServer,
  bare: RunningServer,
  endpoint: BenchEndpoint,
  access: BenchAccess,
): Promise<{ reference: Measurement; bare: Measurement }> {
  const servers = [reference, bare];
  const make = (server: RunningServer) => () => endpoint.request(server.url, access);
  if (warmup > 0) for (const server of servers) await measureNative(server.url, make(server), connections, warmup);
  const taken: Slice[][] = [[], []];
  const sliceSeconds = seconds / slices;
  for (let round = 0; round < slices; round++) {
    for (const i of round % 2 === 0 ? [0, 1] : [1, 0]) {
      const server = servers[i] as RunningServer;
      const cpuBefore = server.cpuSeconds();
      const measurement = await measureNative(server.url, make(server), connections, sliceSeconds);
      taken[i]?.push({ measurement, seconds: sliceSeconds, cpuSeconds: server.cpuSeconds() - cpuBefore });
    }
  }
  return { reference: combineSlices(taken[0] ?? []), bare: combineSlices(taken[1] ?? []) };
}

async function withPostgresDatabase<T>(adminUrl: string, run: (url: string) => Promise<T>): Promise<T> {
  const name = `load_bench_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
    const url = new URL(adminUrl);
    url.pathname = `/${name}`;
    return await run(url.toString());
  } finally {
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).catch((error: Error) => {
      log(`could not drop ${name}: ${error.message}`);
    });
    await admin.end();
  }
}

async function benchStore(store: string, databaseUrl: string | undefined): Promise<ComparisonRow[]> {
  log(`${store}: starting the reference implementation`);
  const reference = await startReference(databaseUrl, flags.cpuProf, referenceEntry());
  const access = new BenchAccess(reference.url, fixture);
  let bare: RunningServer | undefined;
  try {
    await access.start();
    const routes: Record<string, BareRoute> = {};
    for (const endpoint of endpoints) {
      routes[`${endpoint.method} ${endpoint.path}`] = await capture(reference.url, endpoint, access);
    }
    bare = await startBare(routes);
    const rows: ComparisonRow[] = [];
    for (const endpoint of endpoints) {
      for (let i = 0; i < repeat; i++) {
        log(`${store}: ${endpoint.name}`);
        const pair = await measurePair(reference, bare, endpoint, access);
        rows.push({ store, operation: endpoint.name, reference: pair.reference, bare: pair.bare });
      }
    }
    return rows;
  } finally {
    await access.stop();
    await bare?.stop();
    await reference.stop();
  }
}

async function topRate(): Promise<{ native: Measurement; autocannon: Measurement }> {
  log('engine top rate: native engine vs autocannon on the bare server');
  const body = JSON.stringify({ locations: [], count: 0 });
  const bare = await startBare({
    'GET /locations': {
      status: 200,
      headers: { 'content-type': 'application/json' },
      body: Buffer.from(body).toString('base64'),
    },
  });
  try {
    const spec = {
      method: 'GET',
      url: `${bare.url}/locations`,
      headers: { accept: 'application/json' },
      step: 'bench',
    };
    // Both engines run in this process: its CPU over an engine's slices is that engine's own cost. Taken in turns,
    // like the reference and the bare server (measurePair): one engine's 5 s after the other's carried the machine's
    // drift into the ratio (0.889 and 1.041 in two runs a minute apart, the native engine at 64,000 to 66,000 in both).
    const engines = [
      (s: number) => measureNative(bare.url, () => spec, topConnections, s),
      (s: number) => measureAutocannon(spec, topConnections, s),
    ];
    for (const run of engines) await run(warmup || 1);
    const taken: Slice[][] = [[], []];
    const clientSeconds = [0, 0];
    const sliceSeconds = seconds / slices;
    for (let round = 0; round < slices; round++) {
      for (const i of round % 2 === 0 ? [0, 1] : [1, 0]) {
        const clientBefore = process.cpuUsage();
        const serverBefore = bare.cpuSeconds();
        const measurement = await (engines[i] as (s: number) => Promise<Measurement>)(sliceSeconds);
        const client = process.cpuUsage(clientBefore);
        clientSeconds[i] = (clientSeconds[i] ?? 0) + (client.user + client.system) / 1e6;
        taken[i]?.push({ measurement, seconds: sliceSeconds, cpuSeconds: bare.cpuSeconds() - serverBefore });
      }
    }
    const [native, cannon] = [0, 1].map((i) => {
      const combined = combineSlices(taken[i] ?? []);
      const requests = combined.requestsPerSecond * seconds;
      if (requests > 0) combined.clientCpuUsPerRequest = ((clientSeconds[i] ?? 0) * 1e6) / requests;
      return combined;
    }) as [Measurement, Measurement];
    return { native, autocannon: cannon };
  } finally {
    await bare.stop();
  }
}

/** The scale rows of one store: the reference on a store of its own, seeded step by step (scale.ts). */
async function scaleStore(store: string, databaseUrl: string): Promise<{ rows: ScaleRow[]; seeding: SeedingRow[] }> {
  log(`${store}: starting the reference implementation for the scale rows`);
  const reference = await startReference(databaseUrl, flags.cpuProf, referenceEntry());
  const access = new BenchAccess(reference.url, fixture);
  try {
    await access.start();
    return await benchScale({ store, databaseUrl, reference, access, sizes: scaleSizes ?? [], measure, log });
  } finally {
    await access.stop();
    await reference.stop();
  }
}

async function scaleSqlite(): Promise<{ rows: ScaleRow[]; seeding: SeedingRow[] }> {
  const dir = mkdtempSync(join(tmpdir(), 'load-bench-scale-'));
  try {
    return await scaleStore('sqlite', `sqlite:${join(dir, 'scale.db')}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const rows: ComparisonRow[] = [];
const scaleRows: ScaleRow[] = [];
const seeding: SeedingRow[] = [];
const skipped: string[] = [];
const addScale = (result: { rows: ScaleRow[]; seeding: SeedingRow[] }) => {
  scaleRows.push(...result.rows);
  seeding.push(...result.seeding);
};
for (const store of flags.stores.split(',').map((s) => s.trim())) {
  if (store === 'sqlite') {
    if (!flags.skipCompare) rows.push(...(await benchStore('sqlite', undefined)));
    if (scaleSizes) addScale(await scaleSqlite());
  } else if (store === 'postgres') {
    try {
      if (!flags.skipCompare)
        rows.push(...(await withPostgresDatabase(flags.pg, (url) => benchStore('postgres', url))));
      if (scaleSizes) addScale(await withPostgresDatabase(flags.pg, (url) => scaleStore('postgres', url)));
    } catch (error) {
      skipped.push(`postgres: ${(error as Error).message}`);
    }
  } else skipped.push(`unknown store ${store}`);
}
const top = flags.skipTop ? undefined : await topRate();
// Last and alone: each takes both cores.
const suite: SuiteTiming[] = [];
if (!flags.skipSuite) {
  suite.push(await timeCertification(log));
  if (!flags.skipNpmTest) suite.push(await timeNpmTest(log));
}

const cpu = cpus();
const machine = `${cpu.length} × ${cpu[0]?.model ?? 'unknown CPU'}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}, ${process.platform}`;
const reportFile = new URL('../../reports/bench.json', import.meta.url);
const previous = existsSync(reportFile)
  ? (JSON.parse(readFileSync(reportFile, 'utf8')) as Record<string, unknown>)
  : {};
const at = new Date().toISOString();
// The figures as data too, each row with its goal and verdict as the table prints them. A part this run did not
// measure keeps the figures (and the time) of the run that did.
const comparison = flags.skipCompare
  ? Object.fromEntries(Object.entries(previous).filter(([key]) => key !== 'scale'))
  : {
      at,
      machine,
      loadAverage: loadavg(),
      options: {
        seconds,
        slices,
        warmup,
        connections,
        topConnections,
        reference: flags.source ? 'source' : 'compiled',
      },
      rows: rows.map((row) => ({ ...row, goal: goalOf(row.store, row.operation) ?? null })),
      top: top ? { ...top, connections: topConnections, goal: { ratio: 0.95 } } : null,
      skipped,
    };
const scale = scaleSizes
  ? {
      at,
      machine,
      loadAverage: loadavg(),
      options: { sizes: scaleSizes, seconds, warmup, connections },
      goal: { p99TimesEmpty: SCALE_P99_GOAL },
      seeding,
      rows: scaleRows.map((row) => ({
        ...row,
        p99TimesEmpty: p99Ratio(row, scaleRows) ?? null,
        verdict: scaleVerdict(row, scaleRows),
      })),
      notes: SCALE_NOTES,
      skipped,
    }
  : (previous.scale ?? null);
// Each suite row keeps the figures of the last run that measured it.
const previousSuite = Array.isArray(previous.suite) ? (previous.suite as { name: string }[]) : [];
const suiteReport = [
  ...previousSuite.filter((row) => !suite.some((timing) => timing.name === row.name)),
  ...suite.map((timing) => ({ ...timing, at, loadAverage: loadavg(), verdict: suiteVerdict(timing) })),
];
mkdirSync(new URL('../../reports/', import.meta.url), { recursive: true });
writeFileSync(reportFile, `${JSON.stringify({ ...comparison, scale, suite: suiteReport }, null, 2)}\n`);
const sections = [
  [
    `Machine: ${machine}; load average at the end ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')} (other work on the machine moves every rate: compare ratios and CPU per request)`,
    `Closed loop, ${connections} connections, ${warmup} s warm-up then ${seconds} s per server and operation, in ${slices} runs each taken in turns with the other server's; reference ${flags.source ? 'from source (tsx)' : 'compiled as it ships'}, logging at warn.`,
  ].join('\n'),
  flags.skipCompare ? '' : formatComparison(rows),
  top ? formatTopRate(top.native, top.autocannon, topConnections, seconds) : '',
  scaleSizes
    ? `Scale rows (p99 against the same operation before seeding; goal p99 ≤ ${SCALE_P99_GOAL} × empty):\n${formatScale(scaleRows)}`
    : '',
  scaleSizes ? `Seeding:\n${formatSeeding(seeding)}\n\n${SCALE_NOTES.join('\n')}` : '',
  suite.length > 0 ? `The suite itself (wall time, run alone after the rest):\n${formatSuite(suite)}` : '',
  ...suite.flatMap((timing) =>
    timing.failureTail
      ? [`${timing.name} failed (exit ${timing.exitCode}); its last lines:\n${timing.failureTail}`]
      : [],
  ),
  skipped.map((line) => `skipped: ${line}`).join('\n'),
];
process.stdout.write(`${sections.filter((section) => section !== '').join('\n\n')}\n`);

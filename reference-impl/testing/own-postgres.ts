import { execFileSync } from 'node:child_process';
import {
  appendFileSync,
  chmodSync,
  chownSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, onProcessExit, run } from './own-services.ts';

/**
 * A PostgreSQL cluster of the test's own: `initdb` in a temporary folder owned by the `postgres` user, started with
 * `pg_ctl` on a free loopback port (its socket in that folder too), that the test can really stop
 * (`pg_ctl stop -m immediate`: every backend is killed at once, no checkpoint, crash recovery at the next start) and
 * start again. It never touches the shared cluster on 5432.
 *
 * As root (this machine, CI) the PostgreSQL programs run as `postgres` through runuser, since they refuse to run as
 * root; as any other user they run as that user. The binaries are found in PG_BIN_DIR, else in the newest
 * /usr/lib/postgresql/<version>/bin (Debian), else on PATH.
 */
export interface OwnPostgres {
  readonly port: number;
  /** postgresql://postgres@127.0.0.1:<port>/postgres (trust authentication). */
  readonly url: string;
  /** `pg_ctl stop -m immediate` (default) or `-m fast`. */
  stop(mode?: 'immediate' | 'fast'): Promise<void>;
  /** `pg_ctl start -w`: resolves once the cluster accepts connections (after crash recovery if any). */
  start(): Promise<void>;
  /** Stops it if running and removes its folder. */
  close(): Promise<void>;
}

function binDir(): string | undefined {
  if (process.env.PG_BIN_DIR) return process.env.PG_BIN_DIR;
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root)
    .filter((v) => existsSync(join(root, v, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] === undefined ? undefined : join(root, versions[0], 'bin');
}

const isRoot = process.getuid?.() === 0;

/** The command line that runs a PostgreSQL program as the cluster's owner. */
function asOwner(program: string, args: string[]): [string, string[]] {
  const dir = binDir();
  const path = dir === undefined ? program : join(dir, program);
  return isRoot ? ['runuser', ['-u', 'postgres', '--', path, ...args]] : [path, args];
}

export async function startOwnPostgres(): Promise<OwnPostgres> {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'own-pg-'));
  const data = join(dir, 'data');
  const log = join(dir, 'postgres.log');
  chmodSync(dir, 0o700);
  if (isRoot) {
    const uid = Number(execFileSync('id', ['-u', 'postgres']).toString().trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres']).toString().trim());
    chownSync(dir, uid, gid);
  }
  let running = false;

  // Last resort when the test process dies without close(): an immediate shutdown of the postmaster (SIGQUIT).
  const unregister = onProcessExit(() => {
    try {
      const pid = Number(readFileSync(join(data, 'postmaster.pid'), 'utf8').split('\n')[0]);
      if (pid > 0) process.kill(pid, 'SIGQUIT');
    } catch {
      // Not running.
    }
    rmSync(dir, { recursive: true, force: true });
  });

  const pg = (program: string, args: string[], timeoutMs = 60_000) => {
    const [command, argv] = asOwner(program, args);
    // cwd: the owner may not be allowed into the test's working folder.
    return run(command, argv, { cwd: dir, timeoutMs });
  };

  async function start(): Promise<void> {
    await pg('pg_ctl', ['-D', data, '-l', log, '-w', '-t', '60', 'start']).catch((error: Error) => {
      const tail = existsSync(log) ? readFileSync(log, 'utf8').slice(-2_000) : '';
      throw new Error(`${error.message}\n${tail}`);
    });
    running = true;
  }

  async function stop(mode: 'immediate' | 'fast' = 'immediate'): Promise<void> {
    if (!running) return;
    await pg('pg_ctl', ['-D', data, '-m', mode, '-w', '-t', '60', 'stop']);
    running = false;
  }

  try {
    await pg('initdb', [
      '-D',
      data,
      '-U',
      'postgres',
      '-A',
      'trust',
      '-E',
      'UTF8',
      '--locale=C',
      '--no-sync',
      '--no-instructions',
    ]);
    appendFileSync(
      join(data, 'postgresql.conf'),
      [
        '',
        '# own-postgres.ts: a disposable test cluster',
        `port = ${port}`,
        "listen_addresses = '127.0.0.1'",
        `unix_socket_directories = '${dir}'`,
        // A committed transaction's WAL still reaches the kernel before the answer, so it survives the killed server
        // (what these tests do); only an operating-system crash could lose it, and tests do not crash the machine.
        'fsync = off',
        'full_page_writes = off',
        'shared_buffers = 16MB',
        'max_connections = 40',
        '',
      ].join('\n'),
    );
    await start();
  } catch (error) {
    await stop().catch(() => {});
    rmSync(dir, { recursive: true, force: true });
    unregister();
    throw error;
  }

  return {
    port,
    url: `postgresql://postgres@127.0.0.1:${port}/postgres`,
    stop,
    start,
    async close() {
      await stop().catch(() => {});
      rmSync(dir, { recursive: true, force: true });
      unregister();
    },
  };
}

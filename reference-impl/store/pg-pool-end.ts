import type pg from 'pg';

/** How long a closing pool waits for the server to close its connections before it drops them. */
const CLOSE_GRACE_MS = 2_000;

/**
 * A pool whose end() resolves only when every connection it opened is closed.
 *
 * pg-pool's own end() resolves once its client list is empty, which it empties before the sockets finish
 * closing; a caller that then drops the database (or exits) meets clients still talking to the server, and a
 * terminated backend surfaces as an 'error' nobody listens to. Errors of ending clients are swallowed here:
 * the pool is being closed, so there is no query left to fail. A server that never closes its side (a frozen
 * process, a partition) is given `graceMs`, then its sockets are dropped: a shutdown never hangs on it.
 */
export function closeFully(pool: pg.Pool, graceMs = CLOSE_GRACE_MS): () => Promise<void> {
  const open = new Set<pg.PoolClient>();
  let drained: (() => void) | undefined;
  pool.on('connect', (client) => {
    open.add(client);
    client.on('error', () => {});
  });
  pool.on('remove', (client) => {
    open.delete(client as pg.PoolClient);
    if (open.size === 0) drained?.();
  });
  pool.on('error', () => {});
  return async () => {
    const closed = open.size === 0 ? Promise.resolve() : new Promise<void>((resolve) => (drained = resolve));
    await pool.end();
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<'late'>((resolve) => {
      timer = setTimeout(() => resolve('late'), graceMs);
    });
    if ((await Promise.race([closed, late])) === 'late') {
      // pg keeps the socket on the client's connection; destroying it emits the 'close' that ends the client.
      for (const client of open)
        (client as unknown as { connection: { stream: { destroy(): void } } }).connection.stream.destroy();
      await closed;
    }
    clearTimeout(timer);
  };
}

import type pg from 'pg';

/**
 * A pool whose end() resolves only when every connection it opened is closed.
 *
 * pg-pool's own end() resolves once its client list is empty, which it empties before the sockets finish
 * closing; a caller that then drops the database (or exits) meets clients still talking to the server, and a
 * terminated backend surfaces as an 'error' nobody listens to. Errors of ending clients are swallowed here:
 * the pool is being closed, so there is no query left to fail.
 */
export function closeFully(pool: pg.Pool): () => Promise<void> {
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
    await closed;
  };
}

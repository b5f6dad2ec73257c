import net from 'node:net';

/**
 * A TCP relay to Redis or PostgreSQL that tests can cut, freeze or take down for a while, to see how the reference
 * behaves when a dependency goes away.
 */
export interface TcpProxy {
  port: number;
  /** Stops relaying bytes but keeps connections open (a silent network). */
  freeze(): void;
  /** Drops every connection and refuses new ones. */
  cut(): Promise<void>;
  /** An outage: drops every connection and every new one until resume() (the port keeps listening). */
  down(): void;
  resume(): void;
}

export async function startTcpProxy(targetHost: string, targetPort: number): Promise<TcpProxy> {
  const sockets = new Set<net.Socket>();
  let frozen = false;
  let isDown = false;
  const server = net.createServer((client) => {
    if (isDown) {
      client.destroy();
      return;
    }
    const upstream = net.connect(targetPort, targetHost);
    for (const [from, to] of [
      [client, upstream],
      [upstream, client],
    ] as const) {
      sockets.add(from);
      from.on('data', (chunk) => {
        if (!frozen) to.write(chunk);
      });
      from.on('error', () => to.destroy());
      from.on('close', () => {
        sockets.delete(from);
        to.destroy();
      });
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('proxy has no TCP address');
  return {
    port: address.port,
    freeze() {
      frozen = true;
    },
    down() {
      isDown = true;
      for (const socket of sockets) socket.destroy();
    },
    resume() {
      isDown = false;
    },
    async cut() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const socket of sockets) socket.destroy();
      await closed;
    },
  };
}

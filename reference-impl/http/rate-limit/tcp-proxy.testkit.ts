import net from 'node:net';

/** A TCP relay to Redis that tests can cut or freeze, to see how the limiter behaves when Redis goes away. */
export interface TcpProxy {
  port: number;
  /** Stops relaying bytes but keeps connections open (a silent network). */
  freeze(): void;
  /** Drops every connection and refuses new ones. */
  cut(): Promise<void>;
}

export async function startTcpProxy(targetHost: string, targetPort: number): Promise<TcpProxy> {
  const sockets = new Set<net.Socket>();
  let frozen = false;
  const server = net.createServer((client) => {
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
    async cut() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const socket of sockets) socket.destroy();
      await closed;
    },
  };
}

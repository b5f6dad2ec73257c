/**
 * The native engine's HTTP: undici dispatchers, one pool per source address, or one connection per virtual user.
 */
import { Agent, Client, type Dispatcher } from 'undici';
import type { HttpRequestSpec, HttpResponseData, LoadHttp } from '../scenario/model.ts';

export interface DispatcherOptions {
  /** Loopback source addresses a request may pick by index (spec.sourceAddress). */
  sourceAddresses?: readonly string[];
  /** Connections per origin of a shared pool. */
  connections: number;
  timeoutMs: number;
}

const splitCache = new Map<string, { origin: string; path: string }>();

/** Origin and path of a URL; scenarios repeat a few URLs many times, so parsing is cached (bounded). */
function splitUrl(url: string): { origin: string; path: string } {
  let split = splitCache.get(url);
  if (!split) {
    const parsed = new URL(url);
    split = { origin: parsed.origin, path: `${parsed.pathname}${parsed.search}` };
    if (splitCache.size >= 10_000) splitCache.clear();
    splitCache.set(url, split);
  }
  return split;
}

/** Holds the dispatchers of a run: a shared pool per source address, plus per-VU single connections. */
export class Dispatchers {
  private readonly pools = new Map<string, Dispatcher>();
  private readonly all = new Set<Dispatcher>();

  constructor(readonly options: DispatcherOptions) {}

  private agent(key: string, connections: number, localAddress: string | undefined): Dispatcher {
    let agent = this.pools.get(key);
    if (!agent) {
      // undici 7 reads the top-level localAddress (connect.localAddress is ignored).
      agent = new Agent({
        connections,
        pipelining: 1,
        headersTimeout: this.options.timeoutMs,
        bodyTimeout: this.options.timeoutMs,
        ...(localAddress ? { localAddress } : {}),
      });
      this.pools.set(key, agent);
      this.all.add(agent);
    }
    return agent;
  }

  private address(index: number | undefined): string | undefined {
    if (index === undefined) return undefined;
    const address = this.options.sourceAddresses?.[index];
    if (!address) throw new Error(`no source address #${index} in this scenario`);
    return address;
  }

  /** The shared pool for a source address (default: the system's choice). */
  shared(sourceAddress: number | undefined): Dispatcher {
    const address = this.address(sourceAddress);
    return this.agent(`pool:${address ?? ''}`, this.options.connections, address);
  }

  /** One connection of its own for a virtual user (per origin and source address): a bare undici Client. */
  ownConnection(vuKey: string, origin: string, sourceAddress: number | undefined): Dispatcher {
    const address = this.address(sourceAddress);
    const key = `vu:${vuKey}:${origin}:${address ?? ''}`;
    let client = this.pools.get(key);
    if (!client) {
      client = new Client(origin, {
        pipelining: 1,
        headersTimeout: this.options.timeoutMs,
        bodyTimeout: this.options.timeoutMs,
        ...(address ? { localAddress: address } : {}),
      });
      this.pools.set(key, client);
      this.all.add(client);
    }
    return client;
  }

  async close(): Promise<void> {
    await Promise.all([...this.all].map((agent) => agent.close().catch(() => agent.destroy())));
    this.all.clear();
    this.pools.clear();
  }
}

function flatHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    out[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

/** Sends one request; a transport failure is a response with status 0 (scenario code never sees an exception). */
export async function send(
  pick: Dispatcher | ((origin: string) => Dispatcher),
  spec: HttpRequestSpec,
): Promise<HttpResponseData> {
  const { origin, path } = splitUrl(spec.url);
  const dispatcher = typeof pick === 'function' ? pick(origin) : pick;
  try {
    const res = await dispatcher.request({
      origin,
      path,
      method: spec.method as Dispatcher.HttpMethod,
      headers: spec.headers ?? {},
      body: spec.body ?? null,
    });
    const body = await res.body.text();
    return { status: res.statusCode, headers: flatHeaders(res.headers), body };
  } catch (error) {
    return { status: 0, headers: {}, body: '', error: (error as Error).message };
  }
}

/** LoadHttp over one dispatcher choice, for setup, teardown and probes (nothing measured). */
export function plainHttp(dispatchers: Dispatchers): LoadHttp {
  return { request: (spec) => send(dispatchers.shared(spec.sourceAddress), spec) };
}

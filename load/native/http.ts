/**
 * The native engine's HTTP: undici dispatchers, one pool per source address, or one connection per virtual user.
 */
import { Agent, type Dispatcher } from 'undici';
import type { HttpRequestSpec, HttpResponseData, LoadHttp } from '../scenario/model.ts';

export interface DispatcherOptions {
  /** Loopback source addresses a request may pick by index (spec.sourceAddress). */
  sourceAddresses?: readonly string[];
  /** Connections per origin of a shared pool. */
  connections: number;
  timeoutMs: number;
}

function splitUrl(url: string): { origin: string; path: string } {
  const parsed = new URL(url);
  return { origin: parsed.origin, path: `${parsed.pathname}${parsed.search}` };
}

/** Holds the dispatchers of a run: a shared pool per source address, plus per-VU single connections. */
export class Dispatchers {
  private readonly pools = new Map<string, Agent>();
  private readonly all = new Set<Agent>();

  constructor(readonly options: DispatcherOptions) {}

  private agent(key: string, connections: number, localAddress: string | undefined): Agent {
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

  /** One connection of its own for a virtual user (per source address). */
  ownConnection(vuKey: string, sourceAddress: number | undefined): Dispatcher {
    const address = this.address(sourceAddress);
    return this.agent(`vu:${vuKey}:${address ?? ''}`, 1, address);
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
export async function send(dispatcher: Dispatcher, spec: HttpRequestSpec): Promise<HttpResponseData> {
  const { origin, path } = splitUrl(spec.url);
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

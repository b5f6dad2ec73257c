/**
 * The native engine's HTTP: undici dispatchers, one pool per source address, or one connection per virtual user.
 */
import { Agent, Client, type Dispatcher, util } from 'undici';
import type { HttpRequestSpec, HttpResponseData, LoadHttp } from '../engine-neutral/model.ts';

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

/** The origin of a URL (`http://host:port`), as a dispatcher of one connection is keyed. */
export function originOf(url: string): string {
  return splitUrl(url).origin;
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
  for (const name in headers) {
    const value = headers[name];
    if (value === undefined) continue;
    out[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

const BOM = '\uFEFF';

/**
 * A response as scenario code reads it. Headers are parsed and the body decoded on first read: most iterations of a
 * load look at the status only (the bench's closed loop reads nothing else), and parsing every response cost the engine
 * about a tenth of its CPU a request against autocannon (docs/measurements/bench-2026-11-24-to-29.md "The control watch, a burst a turn, the engine's handler").
 */
class ReceivedResponse implements HttpResponseData {
  #rawHeaders: Buffer[] | undefined;
  #headers: Record<string, string> | undefined;
  #bytes: Buffer | undefined;
  #body: string | undefined;

  constructor(
    readonly status: number,
    rawHeaders: Buffer[],
    bytes: Buffer,
  ) {
    this.#rawHeaders = rawHeaders;
    this.#bytes = bytes;
  }

  get headers(): Record<string, string> {
    if (this.#headers === undefined) {
      this.#headers = flatHeaders(
        util.parseHeaders(this.#rawHeaders ?? []) as Record<string, string | string[] | undefined>,
      );
      this.#rawHeaders = undefined;
    }
    return this.#headers;
  }

  /** Decoded as `res.body.text()` does: UTF-8, a leading byte-order mark dropped. */
  get body(): string {
    if (this.#body === undefined) {
      let body = (this.#bytes as Buffer).toString('utf8');
      if (body.startsWith(BOM)) body = body.slice(1);
      this.#body = body;
      this.#bytes = undefined;
    }
    return this.#body;
  }

  toJSON(): HttpResponseData {
    return { status: this.status, headers: this.headers, body: this.body };
  }
}

const EMPTY = Buffer.alloc(0);

/**
 * undici's own handler interface (a Client takes no other), which hands over the raw headers. A class, so a request
 * allocates one object and no closures (the engine's hot path: docs/measurements/bench-2026-11-24-to-29.md "The control watch, a burst a turn, the engine's handler").
 */
class Collector {
  private status = 0;
  private rawHeaders: Buffer[] = [];
  private first: Buffer | undefined;
  private more: Buffer[] | undefined;

  constructor(private readonly resolve: (response: HttpResponseData) => void) {}

  onConnect(): void {}

  onHeaders(statusCode: number, headers: Buffer[]): boolean {
    this.status = statusCode;
    this.rawHeaders = headers;
    return true;
  }

  onData(chunk: Buffer): boolean {
    if (this.first === undefined) this.first = chunk;
    else if (this.more === undefined) this.more = [this.first, chunk];
    else this.more.push(chunk);
    return true;
  }

  onComplete(): void {
    this.resolve(
      new ReceivedResponse(this.status, this.rawHeaders, this.more ? Buffer.concat(this.more) : (this.first ?? EMPTY)),
    );
  }

  onError(error: Error): void {
    this.resolve({ status: 0, headers: {}, body: '', error: error.message });
  }
}

/**
 * Sends one request; a transport failure is a response with status 0 (scenario code never sees an exception).
 *
 * Through undici's dispatch with a handler of our own rather than `request()`: no Readable stream and no promise per
 * body chunk, the body gathered as buffers (load/README.md "Benchmark": the engine spent twice autocannon's CPU per
 * request).
 */
export function send(dispatcher: Dispatcher, spec: HttpRequestSpec): Promise<HttpResponseData> {
  const { origin, path } = splitUrl(spec.url);
  return new Promise<HttpResponseData>((resolve) => {
    const collector = new Collector(resolve);
    try {
      dispatcher.dispatch(
        {
          origin,
          path,
          method: spec.method as Dispatcher.HttpMethod,
          headers: spec.headers ?? {},
          body: spec.body ?? null,
        },
        collector as unknown as Dispatcher.DispatchHandler,
      );
    } catch (error) {
      collector.onError(error as Error);
    }
  });
}

/** LoadHttp over one dispatcher choice, for setup, teardown and probes (nothing measured). */
export function plainHttp(dispatchers: Dispatchers): LoadHttp {
  return { request: (spec) => send(dispatchers.shared(spec.sourceAddress), spec) };
}

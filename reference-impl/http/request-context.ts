import type { Scope } from '../../contract/scopes.ts';
import type { Client } from '../domain/credentials.ts';
import type { FaultSwitch } from '../faults/switch.ts';
import type { ControlState } from '../store/types.ts';
import type { WireRepresentation } from './negotiation.ts';

export interface Caller {
  client: Client;
  partnerId: string;
  scopes: Scope[];
}

/** What the hooks establish for one request before its handler runs. */
export interface RequestContext {
  requestId: string;
  nowMs: number;
  control: ControlState;
  /** Undefined until negotiated (and for a 406, which answers in JSON). */
  representation?: WireRepresentation;
  caller?: Caller;
}

declare module 'fastify' {
  interface FastifyRequest {
    ctx: RequestContext;
  }
  interface FastifyInstance {
    /** The instance's named faults (README "Faults"): the seams of routes that have no other way to them. */
    faults: FaultSwitch;
  }
  interface FastifyContextConfig {
    /** Scope the route requires (spec 4, 5.5); null for the token endpoint. */
    scope?: Scope | null;
    /** A business route: negotiated, authenticated, rate-limited (spec 4, 8). */
    business?: boolean;
  }
}

export function requireCaller(ctx: RequestContext): Caller {
  if (!ctx.caller) throw new Error('route reached without an authenticated caller');
  return ctx.caller;
}

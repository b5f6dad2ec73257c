/**
 * What a check (or the run) sent the target and met of its rate limits: counted by the transport
 * (rate-limits.ts), summed in the report's header. No Node API here: the report model, which the k6 scripts read,
 * names this type.
 */
export interface Traffic {
  requests: Record<string, number>;
  provoked429: number;
  unprovoked429: number;
  waitedMs: number;
}

export function emptyTraffic(): Traffic {
  return { requests: {}, provoked429: 0, unprovoked429: 0, waitedMs: 0 };
}

/** Sums traffic counts (the report's header adds the checks'). */
export function addTraffic(into: Traffic, more: Traffic): Traffic {
  for (const [role, n] of Object.entries(more.requests)) into.requests[role] = (into.requests[role] ?? 0) + n;
  into.provoked429 += more.provoked429;
  into.unprovoked429 += more.unprovoked429;
  into.waitedMs += more.waitedMs;
  return into;
}

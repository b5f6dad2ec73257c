/**
 * The `ceilings` a target config may state (LoadTarget.ceilings): what the target's answers never show (spec 8.16b:
 * the token endpoint sends no X-RateLimit-*; spec 8: ceilings not shown). Engine-neutral: the native engine's
 * --config and k6's TARGET_CONFIG read the same key of the same file.
 *
 *   "ceilings": { "tokenPerClientPerMinute": 300, "tokenPerAddressPerMinute": 600 }
 */
import type { TargetCeilings } from './model.ts';

const KEYS = ['tokenPerClientPerMinute', 'tokenPerAddressPerMinute'] as const;

/** The config's `ceilings` value (after "$NAME" references are resolved), or undefined when absent. */
export function parseTargetCeilings(raw: unknown): TargetCeilings | undefined {
  if (raw === undefined || raw === null) return undefined;
  if (typeof raw !== 'object' || Array.isArray(raw)) {
    throw new Error(`ceilings must be an object of requests a minute (${KEYS.join(', ')})`);
  }
  const ceilings: TargetCeilings = {};
  for (const [key, value] of Object.entries(raw)) {
    const known = KEYS.find((k) => k === key);
    if (!known) throw new Error(`ceilings.${key} is not a known ceiling (${KEYS.join(', ')})`);
    // A "$NAME" reference resolves to a string.
    const n = typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value;
    if (typeof n !== 'number' || !Number.isInteger(n) || n < 1) {
      throw new Error(`ceilings.${key} must be a whole number of requests a minute, at least 1`);
    }
    ceilings[known] = n;
  }
  return ceilings;
}

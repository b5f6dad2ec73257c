import type { Role, TargetConfig } from '../config/target-config.ts';

/**
 * A value the harness knows: a secret (redacted from evidence everywhere) or an identifier that only needs a
 * placeholder in curl lines (client ids). `placeholder` is the environment variable a curl line uses instead.
 */
export interface KnownValue {
  value: string;
  placeholder: string;
  secret: boolean;
}

/** The values of one process (one vitest worker) that must never appear in evidence or curl lines. */
export class SecretRegistry {
  private readonly byValue = new Map<string, KnownValue>();
  private sorted: KnownValue[] | undefined;

  /** Registers a value and its form-urlencoded spelling (how it travels in forms and Basic credentials). */
  add(value: string, placeholder: string, options: { secret?: boolean } = {}): void {
    if (value === '') return;
    const secret = options.secret ?? true;
    for (const spelling of new Set([value, encodeURIComponent(value)])) {
      const existing = this.byValue.get(spelling);
      // A value once known as secret stays secret even if later registered as a plain identifier.
      if (existing && (existing.secret || !secret)) continue;
      this.byValue.set(spelling, { value: spelling, placeholder, secret });
    }
    this.sorted = undefined;
  }

  /** Longest first, so a value containing another is replaced whole. */
  values(): readonly KnownValue[] {
    this.sorted ??= [...this.byValue.values()].sort((a, b) => b.value.length - a.value.length);
    return this.sorted;
  }

  clear(): void {
    this.byValue.clear();
    this.sorted = undefined;
  }
}

/** The process-wide registry the HTTP client, the recorder and the check wrapper share. */
export const secrets = new SecretRegistry();

export function rolePlaceholder(kind: 'TOKEN' | 'CLIENT_ID' | 'CLIENT_SECRET', role: Role | string): string {
  return `${kind}_${role.toUpperCase().replace(/[^A-Z0-9]/g, '_')}`;
}

/** Registers every credential of a target config: secrets for redaction, ids for curl placeholders. */
export function registerTargetSecrets(config: TargetConfig, registry: SecretRegistry = secrets): void {
  for (const [role, credentials] of Object.entries(config.clients)) {
    if (!credentials) continue;
    registry.add(credentials.clientSecret, rolePlaceholder('CLIENT_SECRET', role));
    registry.add(credentials.clientId, rolePlaceholder('CLIENT_ID', role), { secret: false });
  }
  if (config.hooks) registry.add(config.hooks.token, 'HOOKS_TOKEN');
}

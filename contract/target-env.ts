/**
 * `"$NAME"` / `"${NAME}"` references in a target config (the same file for the certification runner, the native
 * load engine and k6 scripts), so secrets stay out of files. Pure (no `node:` imports): k6 scripts use it too.
 */
const ENV_REFERENCE = /^\$(?:\{([A-Za-z_][A-Za-z0-9_]*)\}|([A-Za-z_][A-Za-z0-9_]*))$/;

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Replaces every string that is a whole `$NAME` reference by the variable's value; an unset or empty variable is
 * reported through `fail` with the key path and the variable's name, never a value.
 */
export function resolveEnvReferences(
  value: unknown,
  env: Readonly<Record<string, string | undefined>>,
  fail: (message: string) => never,
  path = '',
): unknown {
  if (typeof value === 'string') {
    const match = ENV_REFERENCE.exec(value);
    if (!match) return value;
    const name = (match[1] ?? match[2]) as string;
    const resolved = env[name];
    if (resolved === undefined || resolved === '') {
      return fail(`${path || 'value'} refers to environment variable ${name}, which is not set`);
    }
    return resolved;
  }
  if (Array.isArray(value)) return value.map((item, i) => resolveEnvReferences(item, env, fail, `${path}[${i}]`));
  if (isPlainObject(value)) {
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) {
      out[key] = resolveEnvReferences(item, env, fail, path ? `${path}.${key}` : key);
    }
    return out;
  }
  return value;
}

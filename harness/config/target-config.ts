import { readFileSync } from 'node:fs';
import { dirname, isAbsolute, resolve } from 'node:path';
import { API_PREFIX } from '../../contract/constants.ts';
import { resolveEnvReferences } from '../../contract/target-env.ts';
import { isRole, ROLES, type Role } from '../../contract/vocabulary.ts';
import { CaFileError, readCaFile } from './trusted-ca.ts';

export { isRole, ROLES, type Role };

export interface ClientCredentials {
  clientId: string;
  clientSecret: string;
}

export interface TargetConfig {
  /** The service address, without the API prefix and without a trailing slash (spec 2: `{base_url}`). */
  baseUrl: string;
  clients: Partial<Record<Role, ClientCredentials>>;
  /**
   * The target's test hooks (docs/test-hooks.md): their own base URL and bearer secret. Absent on most targets
   * (the live service has none); checks that need them are then judged by waiting (--patient) or not judged.
   */
  hooks?: { baseUrl: string; token: string };
  /** The user owns the target (load scenarios may run). */
  owned?: boolean;
  /**
   * Codes only the operator knows, for the checks of rules the API cannot reveal (an incomplete vehicle is never
   * listed, a rate plan awaiting approval is never in GET /rates …). A check whose probe is absent is
   * not-applicable, by name.
   */
  probes?: TargetProbes;
  /** TLS trust for an https target whose certificate a private CA issued (e.g. the embedded target's own). */
  tls?: TargetTls;
}

export interface TargetTls {
  /** PEM file of the CA certificate(s) to trust beside the public roots; relative to the config file. */
  caFile?: string;
}

/** A rate plan of one role's partner, named by its codes. */
export interface RateProbe {
  role: Role;
  accountCode: string;
  rateCode: string;
}

export interface TargetProbes {
  /** Published, but without a complete partner specification (409 FLEET_PROFILE_INCOMPLETE, spec 4.12). */
  incompleteVehicleCode?: string;
  /** Known to the operator but not published to partners (INVALID_VEHICLE, spec 4.12). */
  unpublishedVehicleCode?: string;
  /** Known to the operator but not active (INVALID_LOCATION, spec 4.12). */
  inactiveLocationCode?: string;
  /** Two active locations of different branches between which one-way is not available (LOCATION_NOT_ONE_WAY). */
  noOneWayPair?: { pickupLocation: string; dropoffLocation: string };
  /** A plan awaiting commercial approval (409 RATE_NOT_APPROVED). */
  pendingRate?: RateProbe;
  /** A plan outside its validity window (INVALID_RATE_CODE). */
  expiredRate?: RateProbe;
  /** A plan that is not enabled (INVALID_RATE_CODE). */
  disabledRate?: RateProbe;
}

const PROBE_CODES = ['incompleteVehicleCode', 'unpublishedVehicleCode', 'inactiveLocationCode'] as const;

/** Where a target's test hooks are when the config names only their secret (the reference's place). */
export const DEFAULT_HOOKS_PATH = '/test-hooks/v1';
const RATE_PROBES = ['pendingRate', 'expiredRate', 'disabledRate'] as const;

/** A configuration problem the user must fix. Its message names files, keys and variables, never a value. */
export class HarnessConfigError extends Error {
  override readonly name = 'HarnessConfigError';
}

/**
 * Reads a target config file (JSON). Any string of the form `"$NAME"` or `"${NAME}"` is read from `env`, so
 * secrets can stay out of files. Unknown roles are ignored; each is reported through `onWarning`.
 */
export function loadTargetConfig(
  file: string,
  env: NodeJS.ProcessEnv = process.env,
  onWarning: (message: string) => void = (message) => process.stderr.write(`warning: ${message}\n`),
): TargetConfig {
  const { config, warnings } = readTargetConfig(file, env);
  for (const warning of warnings) onWarning(warning);
  return config;
}

/** As loadTargetConfig, returning the warnings instead of printing them. */
export function readTargetConfig(
  file: string,
  env: NodeJS.ProcessEnv = process.env,
): { config: TargetConfig; warnings: string[] } {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'unreadable';
    throw new HarnessConfigError(`cannot read target config ${file} (${code})`);
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    // JSON.parse messages quote the text around the fault, which may be a secret: keep only the position.
    const position = /position (\d+)/.exec(String((error as Error).message))?.[1];
    const where = position === undefined ? '' : ` at ${lineAndColumn(text, Number(position))}`;
    throw new HarnessConfigError(`target config ${file} is not valid JSON${where}`);
  }
  return parseTargetConfig(raw, env, file, dirname(file));
}

/**
 * Validates an already parsed config value (the file's content); `source` names it in messages, `baseDir` is
 * where relative file names (tls.caFile) are resolved from.
 */
export function parseTargetConfig(
  raw: unknown,
  env: NodeJS.ProcessEnv = process.env,
  source = 'target config',
  baseDir = process.cwd(),
): { config: TargetConfig; warnings: string[] } {
  const warnings: string[] = [];
  const fail = (message: string): never => {
    throw new HarnessConfigError(`${source}: ${message}`);
  };
  const value = resolveEnvReferences(raw, env, fail);
  if (!isPlainObject(value)) fail('must be a JSON object');
  const root = value as Record<string, unknown>;

  for (const key of Object.keys(root)) {
    if (!['baseUrl', 'clients', 'hooks', 'control', 'owned', 'probes', 'tls'].includes(key))
      warnings.push(`${source}: unknown key ${key} ignored`);
  }

  const baseUrl = parseUrl(root.baseUrl, 'baseUrl', fail);
  let base = baseUrl;
  if (base.endsWith(API_PREFIX)) {
    base = base.slice(0, -API_PREFIX.length);
    warnings.push(`${source}: baseUrl should be the service address; ${API_PREFIX} was removed from it`);
  }

  const clients: Partial<Record<Role, ClientCredentials>> = {};
  if (root.clients !== undefined) {
    if (!isPlainObject(root.clients)) fail('clients must be an object of role → { clientId, clientSecret }');
    for (const [role, entry] of Object.entries(root.clients as Record<string, unknown>)) {
      if (!isRole(role)) {
        warnings.push(`${source}: unknown role clients.${role} ignored (roles: ${ROLES.join(', ')})`);
        continue;
      }
      if (!isPlainObject(entry)) fail(`clients.${role} must be an object with clientId and clientSecret`);
      const { clientId, clientSecret } = entry as Record<string, unknown>;
      if (typeof clientId !== 'string' || clientId === '') fail(`clients.${role}.clientId must be a non-empty string`);
      if (typeof clientSecret !== 'string' || clientSecret === '') {
        fail(`clients.${role}.clientSecret must be a non-empty string`);
      }
      clients[role] = { clientId: clientId as string, clientSecret: clientSecret as string };
    }
  }

  const config: TargetConfig = { baseUrl: base, clients };

  if (root.hooks !== undefined && root.hooks !== null) {
    if (!isPlainObject(root.hooks)) fail('hooks must be an object with token (and optionally baseUrl)');
    const hooks = root.hooks as Record<string, unknown>;
    if (typeof hooks.token !== 'string' || hooks.token === '') fail('hooks.token must be a non-empty string');
    const hooksBase =
      hooks.baseUrl !== undefined ? parseUrl(hooks.baseUrl, 'hooks.baseUrl', fail) : `${base}${DEFAULT_HOOKS_PATH}`;
    config.hooks = { baseUrl: hooksBase, token: hooks.token as string };
  } else if (root.control !== undefined && root.control !== null) {
    // The earlier name: `control` with the service's address; the hooks live under it.
    if (!isPlainObject(root.control)) fail('control must be an object with token (and optionally baseUrl)');
    const control = root.control as Record<string, unknown>;
    if (typeof control.token !== 'string' || control.token === '') fail('control.token must be a non-empty string');
    const controlBase = control.baseUrl !== undefined ? parseUrl(control.baseUrl, 'control.baseUrl', fail) : base;
    config.hooks = { baseUrl: `${controlBase}${DEFAULT_HOOKS_PATH}`, token: control.token as string };
    warnings.push(
      `${source}: control is now called hooks (docs/test-hooks.md); read as hooks under ${DEFAULT_HOOKS_PATH}`,
    );
  }

  if (root.owned !== undefined) {
    if (typeof root.owned !== 'boolean') fail('owned must be true or false');
    config.owned = root.owned as boolean;
  }

  if (root.probes !== undefined) config.probes = parseProbes(root.probes, fail);
  if (root.tls !== undefined) config.tls = parseTls(root.tls, baseDir, fail, warnings, source);
  return { config, warnings };
}

function parseTls(
  value: unknown,
  baseDir: string,
  fail: (message: string) => never,
  warnings: string[],
  source: string,
): TargetTls {
  if (!isPlainObject(value)) return fail('tls must be an object (with caFile)');
  const raw = value as Record<string, unknown>;
  for (const key of Object.keys(raw)) {
    if (key !== 'caFile') warnings.push(`${source}: unknown key tls.${key} ignored`);
  }
  const tls: TargetTls = {};
  if (raw.caFile !== undefined) {
    if (typeof raw.caFile !== 'string' || raw.caFile === '') fail('tls.caFile must be a non-empty file name');
    const file = isAbsolute(raw.caFile as string) ? (raw.caFile as string) : resolve(baseDir, raw.caFile as string);
    try {
      readCaFile(file);
    } catch (error) {
      if (error instanceof CaFileError) fail(`tls.caFile: ${error.message}`);
      throw error;
    }
    tls.caFile = file;
  }
  return tls;
}

function parseProbes(value: unknown, fail: (message: string) => never): TargetProbes {
  if (!isPlainObject(value)) return fail('probes must be an object');
  const raw = value as Record<string, unknown>;
  const probes: TargetProbes = {};
  const text = (v: unknown, key: string): string =>
    typeof v === 'string' && v !== '' ? v : fail(`probes.${key} must be a non-empty string`);
  for (const key of Object.keys(raw)) {
    const v = raw[key];
    if ((PROBE_CODES as readonly string[]).includes(key)) {
      probes[key as (typeof PROBE_CODES)[number]] = text(v, key);
    } else if ((RATE_PROBES as readonly string[]).includes(key)) {
      if (!isPlainObject(v)) fail(`probes.${key} must be an object with role, accountCode and rateCode`);
      const r = v as Record<string, unknown>;
      const role = text(r.role, `${key}.role`);
      if (!isRole(role)) fail(`probes.${key}.role must be one of ${ROLES.join(', ')}`);
      probes[key as (typeof RATE_PROBES)[number]] = {
        role: role as Role,
        accountCode: text(r.accountCode, `${key}.accountCode`),
        rateCode: text(r.rateCode, `${key}.rateCode`),
      };
    } else if (key === 'noOneWayPair') {
      if (!isPlainObject(v)) fail('probes.noOneWayPair must be an object with pickupLocation and dropoffLocation');
      const pair = v as Record<string, unknown>;
      probes.noOneWayPair = {
        pickupLocation: text(pair.pickupLocation, 'noOneWayPair.pickupLocation'),
        dropoffLocation: text(pair.dropoffLocation, 'noOneWayPair.dropoffLocation'),
      };
    } else {
      fail(`probes.${key} is not a known probe`);
    }
  }
  return probes;
}

function parseUrl(value: unknown, key: string, fail: (message: string) => never): string {
  if (typeof value !== 'string' || value === '') return fail(`${key} must be an http(s) URL`);
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return fail(`${key} is not a valid URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') fail(`${key} must use http or https`);
  if (url.username || url.password) fail(`${key} must not carry credentials; use clients and hooks instead`);
  if (url.search || url.hash) fail(`${key} must not have a query or fragment`);
  return `${url.origin}${url.pathname}`.replace(/\/+$/, '');
}

/** Replaces `$NAME` / `${NAME}` strings anywhere in the value; a missing variable is an error naming it. */
function isPlainObject(value: unknown): boolean {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function lineAndColumn(text: string, position: number): string {
  const before = text.slice(0, position);
  const line = before.split('\n').length;
  const column = position - before.lastIndexOf('\n');
  return `line ${line}, column ${column}`;
}

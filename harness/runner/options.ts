import { CLAUSES, clauseById, SECTIONS } from '../../contract/clauses/index.ts';
import type { Profile } from '../check/outcome-and-evidence.ts';
import { XML_COVERAGES, type XmlCoverage } from '../check/representations.ts';
import { REPORT_FORMATS as FORMATS, RENDERERS, type ReportFormat } from '../report/formats.ts';
import { PROFILES } from '../run-settings.ts';
import { CertifyError } from './errors.ts';
import { MODULE_EXTENSION } from './paths.ts';

/** Report formats and the file each one writes into the report directory (one list: report/formats.ts). */
export const REPORT_FILES = Object.fromEntries(FORMATS.map((format) => [format, RENDERERS[format].fileName])) as Record<
  ReportFormat,
  string
>;
export type { ReportFormat };
export const REPORT_FORMATS: ReportFormat[] = [...FORMATS];

// Top level only: suites/support holds the helpers, and their unit tests are not checks.
export const DEFAULT_SUITES = [`suites/*.test${MODULE_EXTENSION}`];
export const DEFAULT_RUNS = 25;
/** Requests per second against a non-loopback target when --max-rps is not given (spec 8: ceilings not shown). */
export const DEFAULT_REMOTE_MAX_RPS = 5;

/** fast-check seeds are 32-bit integers; we keep to the non-negative half so a seed prints the same everywhere. */
export const SEED_MAX = 2 ** 31 - 1;
export const RUNS_MAX = 10_000;
export const MAX_RPS_MAX = 10_000;
export const EMBEDDED_RATE_LIMIT_MAX = 1_000_000_000;

export function parseProfile(value: string): Profile {
  if ((PROFILES as readonly string[]).includes(value)) return value as Profile;
  throw new CertifyError(`--profile: unknown profile "${value}" (expected one of ${PROFILES.join(', ')})`);
}

/**
 * --only: comma-separated clause ids (4.7.3) or section prefixes (4.7, 5). Each must exist in the clause catalogue, so a
 * typo never silently runs nothing. A split item's parent (4.7.9 for 4.7.9a–c) counts as a prefix.
 */
export function parseOnly(value: string | readonly string[]): string[] {
  const items = (typeof value === 'string' ? value.split(',') : value.flatMap((v) => v.split(',')))
    .map((item) => item.trim())
    .filter((item) => item.length > 0);
  if (items.length === 0) throw new CertifyError('--only: no clause id or section given');
  const unknown = items.filter((item) => !isKnownClauseOrSection(item));
  if (unknown.length > 0) {
    throw new CertifyError(
      `--only: unknown clause id or section ${unknown.map((u) => `"${u}"`).join(', ')} (ids come from the clause catalogue, e.g. 4.7.3, or a section such as 4.7 or 5)`,
    );
  }
  return [...new Set(items)];
}

export function isKnownClauseOrSection(item: string): boolean {
  if (clauseById(item) !== undefined) return true;
  if (SECTIONS.some((section) => section.id === item)) return true;
  // The parent of lettered parts: 4.7.9 selects 4.7.9a, 4.7.9b, 4.7.9c.
  return CLAUSES.some((clause) => clause.id.startsWith(item) && /^[a-z]$/.test(clause.id.slice(item.length)));
}

/** `90s`, `10m`, `1h` or plain seconds, in ms (--duration). */
export function parseDuration(value: string): number {
  const match = /^(\d+(?:\.\d+)?)(ms|s|m|h)?$/.exec(value.trim());
  if (!match) throw new CertifyError(`--duration: expected e.g. 90s, 10m or 1h, got "${value}"`);
  const unit = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 }[(match[2] ?? 's') as 'ms' | 's' | 'm' | 'h'];
  const ms = Math.round(Number(match[1]) * unit);
  if (ms < 1000 || ms > 48 * 3_600_000) throw new CertifyError('--duration: from 1s to 48h');
  return ms;
}

export function parseIntegerOption(flag: string, value: string | number, min: number, max: number): number {
  const text = String(value).trim();
  const number = /^-?\d+$/.test(text) ? Number(text) : Number.NaN;
  if (!Number.isSafeInteger(number) || number < min || number > max) {
    throw new CertifyError(`${flag}: expected an integer from ${min} to ${max}, got "${text}"`);
  }
  return number;
}

export function parseSeed(value: string | number): number {
  return parseIntegerOption('--seed', value, 0, SEED_MAX);
}

/** --xml: mirror or every-check (check/representations.ts). */
export function parseXmlCoverage(value: string): XmlCoverage {
  const text = value.trim();
  if ((XML_COVERAGES as readonly string[]).includes(text)) return text as XmlCoverage;
  throw new CertifyError(`--xml: expected ${XML_COVERAGES.join(' or ')}, got "${text}"`);
}

export function parseRuns(value: string | number): number {
  return parseIntegerOption('--runs', value, 1, RUNS_MAX);
}

/** --embedded-rate-limit: the embedded reference's RATE_LIMIT_PER_MINUTE (calls a minute per ordinary client). */
export function parseEmbeddedRateLimit(value: string | number): number {
  return parseIntegerOption('--embedded-rate-limit', value, 1, EMBEDDED_RATE_LIMIT_MAX);
}

export function parseMaxRps(value: string | number): number {
  const text = String(value).trim();
  const number = /^\d+(\.\d+)?$/.test(text) ? Number(text) : Number.NaN;
  if (!(number > 0 && number <= MAX_RPS_MAX)) {
    throw new CertifyError(
      `--max-rps: expected a number of requests per second above 0 and at most ${MAX_RPS_MAX}, got "${text}"`,
    );
  }
  return number;
}

export function parseFormats(value: string | readonly string[]): ReportFormat[] {
  const items = (typeof value === 'string' ? value.split(',') : value.flatMap((v) => v.split(',')))
    .map((item) => item.trim().toLowerCase())
    .filter((item) => item.length > 0)
    .map((item) => (item === 'markdown' ? 'md' : item === 'xml' ? 'junit' : item));
  if (items.length === 0) throw new CertifyError(`--format: no format given (expected ${REPORT_FORMATS.join(',')})`);
  const unknown = items.filter((item) => !(REPORT_FORMATS as string[]).includes(item));
  if (unknown.length > 0) {
    throw new CertifyError(
      `--format: unknown format ${unknown.map((u) => `"${u}"`).join(', ')} (expected ${REPORT_FORMATS.join(', ')})`,
    );
  }
  // REPORT_FORMATS order, so the written files and the printed list do not depend on how the user spelled the option.
  return REPORT_FORMATS.filter((format) => items.includes(format));
}

/** A calendar date YYYY-MM-DD that exists (2026-02-30 is refused). */
export function parseDate(flag: string, value: string): string {
  const text = value.trim();
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (match) {
    const [, y, m, d] = match;
    const date = new Date(Date.UTC(Number(y), Number(m) - 1, Number(d)));
    if (date.toISOString().slice(0, 10) === text) return text;
  }
  throw new CertifyError(`${flag}: expected a date YYYY-MM-DD, got "${text}"`);
}

/** The target: the bundled reference implementation, or the base URL of any server. */
export type TargetSpec = { kind: 'embedded' } | { kind: 'url'; baseUrl: string };

export function parseTarget(value: string): TargetSpec {
  const text = value.trim();
  if (text === 'embedded') return { kind: 'embedded' };
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new CertifyError(`--target: expected "embedded" or an http(s) base URL, got "${text}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new CertifyError(`--target: expected an http or https URL, got protocol "${url.protocol}"`);
  }
  if (url.username || url.password) {
    // Credentials in the URL would end up in reports and curl lines; they belong in the target config.
    throw new CertifyError('--target: the URL must not carry credentials; put them in the --config file');
  }
  if (url.search || url.hash) throw new CertifyError('--target: the base URL must not have a query or fragment');
  return { kind: 'url', baseUrl: text.replace(/\/+$/, '') };
}

export function todayUtc(now = new Date()): string {
  return now.toISOString().slice(0, 10);
}

/** Days after today of the default --date: generated rental windows then lie in the future of any target's clock. */
export const DEFAULT_DATE_OFFSET_DAYS = 30;

export function defaultDate(now = new Date()): string {
  return todayUtc(new Date(now.getTime() + DEFAULT_DATE_OFFSET_DAYS * 86_400_000));
}

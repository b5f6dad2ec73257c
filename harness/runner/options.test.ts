import { existsSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, test } from 'vitest';
import { CertifyError } from './errors.ts';
import {
  DEFAULT_SUITES,
  parseDate,
  parseEmbeddedRateLimit,
  parseFormats,
  parseMaxRps,
  parseOnly,
  parseProfile,
  parseRuns,
  parseSeed,
  parseTarget,
} from './options.ts';
import { MODULE_EXTENSION, PROJECT_ROOT } from './paths.ts';
import { suiteFiles } from './suite-scan.ts';

function message(fn: () => unknown): string {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(CertifyError);
    return (error as Error).message;
  }
  throw new Error('expected a CertifyError');
}

describe('option parsing', () => {
  test('profiles: the four of the design, anything else named in the message', () => {
    expect(parseProfile('catalog')).toBe('catalog');
    expect(parseProfile('full')).toBe('full');
    expect(message(() => parseProfile('gold'))).toMatch(/--profile: unknown profile "gold".*catalog, shop, book, full/);
  });

  test('--only: clause ids, sections and split parents exist; unknown ones are all named', () => {
    expect(parseOnly('4.7.3, 5 ,4.13')).toEqual(['4.7.3', '5', '4.13']);
    expect(parseOnly('4.7.9')).toEqual(['4.7.9']); // parent of 4.7.9a–c
    expect(parseOnly(['4.2', '4.2,7.2'])).toEqual(['4.2', '7.2']);
    const text = message(() => parseOnly('4.7.3,4.99,banana'));
    expect(text).toContain('"4.99"');
    expect(text).toContain('"banana"');
    expect(text).not.toContain('"4.7.3"');
    expect(message(() => parseOnly(' , '))).toMatch(/no clause id/);
  });

  test('--seed, --runs, --max-rps: integer and range checks', () => {
    expect(parseSeed('0')).toBe(0);
    expect(parseSeed('2147483647')).toBe(2147483647);
    expect(message(() => parseSeed('2147483648'))).toMatch(/--seed: expected an integer from 0 to 2147483647/);
    expect(message(() => parseSeed('-1'))).toMatch(/--seed/);
    expect(message(() => parseSeed('1.5'))).toMatch(/--seed/);
    expect(message(() => parseSeed('12abc'))).toMatch(/--seed/);
    expect(parseRuns('1')).toBe(1);
    expect(message(() => parseRuns('0'))).toMatch(/--runs: expected an integer from 1 to 10000/);
    expect(parseMaxRps('2.5')).toBe(2.5);
    expect(message(() => parseMaxRps('0'))).toMatch(/--max-rps/);
    expect(message(() => parseMaxRps('fast'))).toMatch(/--max-rps/);
    expect(message(() => parseMaxRps('10001'))).toMatch(/--max-rps/);
  });

  test('--embedded-rate-limit: calls a minute per ordinary client, a positive integer', () => {
    expect(parseEmbeddedRateLimit('600')).toBe(600);
    expect(parseEmbeddedRateLimit(60_000)).toBe(60_000);
    expect(message(() => parseEmbeddedRateLimit('0'))).toMatch(
      /--embedded-rate-limit: expected an integer from 1 to 1000000000, got "0"/,
    );
    expect(message(() => parseEmbeddedRateLimit('1.5'))).toMatch(/--embedded-rate-limit/);
    expect(message(() => parseEmbeddedRateLimit('lots'))).toMatch(/--embedded-rate-limit/);
  });

  test('--format: known formats in their listed order, aliases accepted', () => {
    expect(parseFormats('md,json')).toEqual(['json', 'md']);
    expect(parseFormats('markdown, JUNIT')).toEqual(['junit', 'md']);
    expect(message(() => parseFormats('json,pdf'))).toMatch(/--format: unknown format "pdf"/);
  });

  test('--date: real calendar dates only', () => {
    expect(parseDate('--date', '2028-02-29')).toBe('2028-02-29');
    expect(message(() => parseDate('--date', '2027-02-29'))).toMatch(/--date: expected a date YYYY-MM-DD/);
    expect(message(() => parseDate('--date', '27-01-01'))).toMatch(/--date/);
  });

  test('--target: embedded or an http(s) URL without credentials', () => {
    expect(parseTarget('embedded')).toEqual({ kind: 'embedded' });
    expect(parseTarget('https://api.example.test/')).toEqual({ kind: 'url', baseUrl: 'https://api.example.test' });
    expect(message(() => parseTarget('ftp://x'))).toMatch(/http or https/);
    expect(message(() => parseTarget('not a url'))).toMatch(/--target/);
    const withSecret = message(() => parseTarget('https://user:s3cret@api.example.test'));
    expect(withSecret).not.toContain('s3cret');
  });
});

describe('DEFAULT_SUITES', () => {
  test('take the suite files of suites/ and nothing under suites/support (helpers and their unit tests)', () => {
    const files = suiteFiles(PROJECT_ROOT, DEFAULT_SUITES).map((f) => relative(PROJECT_ROOT, f));
    expect(files).toContain(`suites/05-authentication.test${MODULE_EXTENSION}`);
    expect(files.filter((f) => f.startsWith('suites/support/'))).toEqual([]);
    expect(existsSync(join(PROJECT_ROOT, 'suites', 'support', `secret-watch.test${MODULE_EXTENSION}`))).toBe(true);
  });
});

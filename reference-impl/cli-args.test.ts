import { describe, expect, it } from 'vitest';
import { packageInfo } from '../contract/package-info.ts';
import { parseCliArgs } from './cli-args.ts';

describe('partner-api-reference arguments', () => {
  it('serves without arguments', () => expect(parseCliArgs([])).toEqual({ kind: 'serve' }));
  it('prints the version', () =>
    expect(parseCliArgs(['--version'])).toEqual({ kind: 'print', text: `${packageInfo().version}\n` }));
  it('prints a usage naming the environment', () =>
    expect(parseCliArgs(['--help'])).toMatchObject({ kind: 'print', text: expect.stringContaining('DATABASE_URL') }));
  it('refuses anything else with the usage', () =>
    expect(parseCliArgs(['--port', '9'])).toMatchObject({ kind: 'error', text: expect.stringContaining('Usage') }));
});

import { execFileSync } from 'node:child_process';
import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { basicAuthorization } from '../auth/token-cache.ts';
import { curlCommand, shellQuote, shellWord } from './curl.ts';
import { SecretRegistry } from './secrets.ts';

const TOKEN = 'eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiJwYSJ9.c2lnbmF0dXJl';
const SECRET = 'J6VVFh8fuRxfz0WOYeTXAjFRUKsIzEHNFbxX1SPkbxZK1C5q';
const CLIENT_ID = 'pa-client-partner-a';

function registry(): SecretRegistry {
  const r = new SecretRegistry();
  r.add(TOKEN, 'TOKEN_PARTNERA');
  r.add(SECRET, 'CLIENT_SECRET_PARTNERA');
  r.add(CLIENT_ID, 'CLIENT_ID_PARTNERA', { secret: false });
  return r;
}

const ENV = { TOKEN_PARTNERA: TOKEN, CLIENT_SECRET_PARTNERA: SECRET, CLIENT_ID_PARTNERA: CLIENT_ID };

/**
 * Runs a curl line in sh with `curl` replaced by a function that prints its arguments (NUL-separated) and its
 * stdin: the arguments curl would have received, after the shell's quoting and expansion.
 */
function curlArguments(command: string): { args: string[]; stdin: string } {
  const fake = `curl() { for a in "$@"; do printf '%s\\0' "$a"; done; printf '\\001'; cat; }`;
  const out = execFileSync('sh', ['-c', `${fake}\n${command}`], {
    env: { PATH: process.env.PATH, ...ENV },
    input: '',
    encoding: 'latin1',
  });
  const cut = out.indexOf('\u0001');
  return { args: out.slice(0, cut).split('\0').slice(0, -1), stdin: out.slice(cut + 1) };
}

function headersOf(args: string[]): string[] {
  return args.flatMap((a, i) => (args[i - 1] === '-H' ? [a] : []));
}

describe('curl lines', () => {
  it('replaces tokens and secrets by placeholders that the shell expands back', () => {
    const command = curlCommand(
      {
        method: 'GET',
        url: 'http://127.0.0.1:8080/api/partner/v1/locations',
        headers: { authorization: `Bearer ${TOKEN}`, accept: 'application/xml' },
      },
      registry(),
    );
    expect(command).not.toContain(TOKEN);
    expect(command).toContain('"$TOKEN_PARTNERA"');
    const { args } = curlArguments(command);
    expect(headersOf(args)).toEqual([`authorization: Bearer ${TOKEN}`, 'accept: application/xml']);
    expect(args.at(-1)).toBe('http://127.0.0.1:8080/api/partner/v1/locations');
    expect(args.slice(0, 4)).toEqual(['-sS', '-i', '-X', 'GET']);
  });

  it('turns Basic client credentials into -u with placeholders', () => {
    const command = curlCommand(
      {
        method: 'POST',
        url: 'http://x.test/api/partner/v1/oauth/token',
        headers: {
          authorization: basicAuthorization(CLIENT_ID, SECRET),
          'content-type': 'application/x-www-form-urlencoded',
        },
        body: 'grant_type=client_credentials',
      },
      registry(),
    );
    expect(command).not.toContain(SECRET);
    expect(command).not.toContain(Buffer.from(`${CLIENT_ID}:${SECRET}`).toString('base64'));
    const { args } = curlArguments(command);
    expect(args[args.indexOf('-u') + 1]).toBe(`${CLIENT_ID}:${SECRET}`);
    expect(args[args.indexOf('--data-binary') + 1]).toBe('grant_type=client_credentials');
  });

  it('puts form secrets as placeholders in the body', () => {
    const body = `grant_type=client_credentials&client_id=${CLIENT_ID}&client_secret=${SECRET}`;
    const command = curlCommand(
      {
        method: 'POST',
        url: 'http://x.test/t',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body,
      },
      registry(),
    );
    expect(command).not.toContain(SECRET);
    expect(command).not.toContain(CLIENT_ID);
    expect(curlArguments(command).args).toContain(body);
  });

  it("removes curl's own Accept and Content-Type when the request had none", () => {
    const command = curlCommand({ method: 'POST', url: 'http://x.test/a', headers: {}, body: '{}' }, registry());
    expect(headersOf(curlArguments(command).args)).toEqual(['Accept:', 'Content-Type:']);
  });

  it('sends bodies curl cannot take as a word byte-exact through printf', () => {
    const bytes = new Uint8Array([0xff, 0xfe, 0x00, 0x25, 0x5c, 0x27, 0x41, 0x0a, 0x01]);
    const command = curlCommand(
      { method: 'POST', url: 'http://x.test/a', headers: { 'content-type': 'application/xml' }, body: bytes },
      registry(),
    );
    expect(command.startsWith('printf ')).toBe(true);
    const { args, stdin } = curlArguments(command);
    expect(args).toContain('@-');
    expect(Buffer.from(stdin, 'latin1')).toEqual(Buffer.from(bytes));
  });

  it('withholds a byte-exact body that holds a secret', () => {
    const body = new TextEncoder().encode(`\u0001${SECRET}`);
    const command = curlCommand({ method: 'POST', url: 'http://x.test/a', headers: {}, body }, registry());
    expect(command).not.toContain(SECRET);
    expect(command).toContain('body withheld');
  });

  test.prop([fc.string({ unit: 'grapheme' }).filter((s) => !s.includes('\u0000'))], { numRuns: 50 })(
    'shellQuote survives the shell unchanged',
    (text) => {
      const out = execFileSync('sh', ['-c', `printf '%s' ${shellQuote(text)}`], { encoding: 'utf8' });
      expect(out).toBe(text);
    },
  );

  test.prop([fc.string({ unit: 'grapheme' }).filter((s) => !s.includes('\u0000')), fc.string({ unit: 'grapheme' })], {
    numRuns: 50,
  })('shellWord keeps literal parts and expands placeholders', (before, after) => {
    const text = `${before}${TOKEN}${after.split('\u0000').join('')}`;
    const word = shellWord(text, registry());
    expect(word).not.toContain(TOKEN);
    const out = execFileSync('sh', ['-c', `printf '%s' ${word}`], { encoding: 'utf8', env: { ...ENV } });
    expect(out).toBe(text);
  });
});

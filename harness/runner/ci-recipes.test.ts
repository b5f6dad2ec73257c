/**
 * docs/ci.md stays valid: every YAML block parses without error or warning and has the shape of a GitHub Actions
 * workflow or a GitLab CI job, every JSON block parses (the waivers one as waivers), and every partner-api-certify
 * command in them uses options the CLI has, with values it accepts.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { parseImageFlags } from '../target/image-options.ts';
import { buildProgram } from './cli-program.ts';
import { parseFormats, parseMaxRps, parseProfile, parseTarget } from './options.ts';
import { PROJECT_ROOT } from './paths.ts';
import { loadWaivers } from './waivers.ts';

const PAGE = readFileSync(join(PROJECT_ROOT, 'docs', 'ci.md'), 'utf8');
const dir = mkdtempSync(join(tmpdir(), 'ci-recipes-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function blocks(lang: string): string[] {
  return [...PAGE.matchAll(new RegExp(`^\`\`\`${lang}\\n([\\s\\S]*?)^\`\`\`$`, 'gm'))].map((m) => m[1] ?? '');
}

type Json = Record<string, unknown>;

function parseYaml(text: string): Json {
  const docs = parseAllDocuments(text, { prettyErrors: true, strict: true, uniqueKeys: true });
  if (!Array.isArray(docs)) throw new Error('no YAML document');
  expect(docs).toHaveLength(1);
  const [doc] = docs;
  expect(doc?.errors.map(String) ?? ['no document']).toEqual([]);
  expect(doc?.warnings.map(String)).toEqual([]);
  return doc?.toJS() as Json;
}

/** The shell words of a command line; `${{ … }}` and `$VAR` become placeholders (their values are the CI's). */
function words(command: string): string[] {
  const text = command.replace(/\$\{\{[^}]*\}\}/g, 'X').replace(/\$[A-Z_][A-Z0-9_]*/g, 'X');
  return [...text.matchAll(/"([^"]*)"|'([^']*)'|(\S+)/g)].map((m) => m[1] ?? m[2] ?? m[3] ?? '');
}

/** Checks a partner-api-certify command line as the CLI would, without running it. */
function checkCertifyCommand(command: string): void {
  const all = words(command);
  const args = all.slice(all.indexOf('partner-api-certify') + 1);
  const io = { stdout: () => {}, stderr: () => {}, env: {} };
  const flags = buildProgram(io).parse(args, { from: 'user' }).opts<Record<string, string | string[] | undefined>>();
  if (typeof flags.profile === 'string') parseProfile(flags.profile);
  if (typeof flags.format === 'string') parseFormats(flags.format);
  if (typeof flags.maxRps === 'string') parseMaxRps(flags.maxRps);
  if (typeof flags.target === 'string') parseTarget(flags.target);
  // Variables passed by name come from the CI's environment.
  const env = Object.fromEntries(((flags.imageEnv as string[] | undefined) ?? []).map((item) => [item, 'value']));
  parseImageFlags(flags, env);
  if (flags.image !== undefined || flags.target !== undefined) expect(flags.config, command).toBeDefined();
}

function commandsIn(value: unknown, out: string[] = []): string[] {
  if (typeof value === 'string') {
    if (value.includes('partner-api-certify ')) out.push(value);
  } else if (Array.isArray(value)) for (const item of value) commandsIn(item, out);
  else if (value && typeof value === 'object') for (const item of Object.values(value)) commandsIn(item, out);
  return out;
}

describe('docs/ci.md', () => {
  const yamls = blocks('yaml');

  it('has the recipes the issue asks for: GitHub Actions and GitLab CI, for implementers and partners', () => {
    expect(yamls.length).toBeGreaterThanOrEqual(4);
    const text = yamls.join('\n');
    expect(text).toContain('--image ');
    expect(text).toContain('--expected-failures');
    expect(text).toMatch(/--profile catalog .*--max-rps/);
    expect(text).toMatch(/--profile shop .*--max-rps/);
    expect(text).toContain('junit');
  });

  it.each(yamls.map((text, i) => [i + 1, text]))('YAML block %i parses and has a pipeline shape', (_i, text) => {
    const doc = parseYaml(text as string);
    if ('jobs' in doc) {
      // GitHub Actions: jobs with runs-on and steps, each step a `uses` or a `run`.
      expect(doc.on).toBeDefined();
      for (const job of Object.values(doc.jobs as Record<string, Json>)) {
        expect(job['runs-on']).toEqual(expect.any(String));
        for (const step of job.steps as Json[])
          expect('uses' in step || 'run' in step, JSON.stringify(step)).toBe(true);
      }
    } else {
      // GitLab CI: one job with an image and a script.
      for (const job of Object.values(doc) as Json[]) {
        expect(job.image).toBeDefined();
        expect(job.script).toEqual(expect.arrayContaining([expect.any(String)]));
      }
    }
  });

  it('every partner-api-certify command uses options and values the CLI accepts', () => {
    const commands = yamls.flatMap((text) => commandsIn(parseYaml(text)));
    expect(commands.length).toBeGreaterThanOrEqual(5);
    for (const command of commands) expect(() => checkCertifyCommand(command), command).not.toThrow();
  });

  it('the JSON blocks parse; the waivers block is a valid waivers file', () => {
    const jsons = blocks('json').map((text) => JSON.parse(text) as unknown);
    const waivers = jsons.find(Array.isArray);
    expect(waivers).toBeDefined();
    const file = join(dir, 'waivers.json');
    writeFileSync(file, JSON.stringify(waivers));
    expect(loadWaivers(file)).toHaveLength(1);
  });

  it('the checker refuses what the CLI refuses', () => {
    expect(() => checkCertifyCommand('partner-api-certify --profile gold')).toThrow(/--profile/);
    expect(() => checkCertifyCommand('partner-api-certify --no-such-option')).toThrow();
  });
});

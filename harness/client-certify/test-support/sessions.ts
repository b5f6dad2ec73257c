import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { PROJECT_ROOT } from '../../runner/paths.ts';
import type { ClientReport } from '../report.ts';

/**
 * What the end-to-end tests of the client certification share: report directories removed after the file, the
 * quiet options of a run (no output, the command's output captured), the examples as the partner's command, and the
 * report a run wrote.
 */
export function reportDirs(prefix: string): () => string {
  const dirs: string[] = [];
  afterAll(() => {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });
  return () => {
    const dir = mkdtempSync(join(tmpdir(), `${prefix}-`));
    dirs.push(dir);
    return dir;
  };
}

export const quiet = { env: process.env, output: () => {}, stdio: 'pipe' as const };

/** The sandbox over plain HTTP for a scenario (the HTTPS sandbox is run.test.ts's). */
export function quietScenario(scenario: string) {
  return { ...quiet, scenario, transport: 'http' as const };
}

/** An example client of examples/ as the partner's command. */
export const example = (name: string): string[] => ['npx', 'tsx', join(PROJECT_ROOT, 'examples', name)];

export const readReport = (dir: string): ClientReport =>
  JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as ClientReport;

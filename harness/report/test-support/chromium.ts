import { existsSync } from 'node:fs';
import type { Reporter, TestModule } from 'vitest/node';

/** The browser the HTML report's rendering checks drive (playwright-core brings no browser of its own). */
export const CHROMIUM = '/usr/bin/chromium';

/** How to get it, on the Debian images this runs on (.ci/run does the same). */
export const CHROMIUM_INSTALL = 'apt-get install -y chromium';

/**
 * The rendering checks run only with Chromium; in CI they must run (.ci/run installs it), so there a missing binary
 * fails them rather than skipping them. Elsewhere they are skipped, and ChromiumNote says so at the end of the run.
 */
export const skipBrowser = !existsSync(CHROMIUM) && !process.env.CI;

/** The words a browser check's name (or its describe block's) carries, so the note can find the skipped ones. */
export const BROWSER_CHECK_WORD = 'Chromium';

/**
 * A vitest reporter that says once, plainly, at the end of `npm test`, which browser checks did not run for want of
 * Chromium and how to get them: a skip in a list of hundreds of passing tests goes unseen, and the HTML report's
 * rendering would go unchecked on that machine without anyone knowing. Listed after the default reporter, so the
 * note comes after vitest's summary. Silent when Chromium is there, or when no browser check was in the run.
 */
export class ChromiumNote implements Reporter {
  readonly #write: (text: string) => void;

  constructor(write: (text: string) => void = (text) => process.stdout.write(text)) {
    this.#write = write;
  }

  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    if (!skipBrowser) return;
    const skipped: string[] = [];
    for (const module of testModules) {
      for (const test of module.children.allTests()) {
        if (test.result().state === 'skipped' && test.fullName.includes(BROWSER_CHECK_WORD)) {
          skipped.push(`${module.relativeModuleId} > ${test.fullName}`);
        }
      }
    }
    const note = chromiumNote(skipped);
    if (note) this.#write(note);
  }
}

/** The note for these skipped browser checks ('' for none). */
export function chromiumNote(skipped: readonly string[]): string {
  if (skipped.length === 0) return '';
  const files = [...new Set(skipped.map((name) => name.split(' > ')[0]))];
  return [
    '',
    `Note: ${skipped.length} browser check(s) of the HTML report did not run: no Chromium at ${CHROMIUM}.`,
    `  They render the report in headless Chromium (${files.join(', ')}).`,
    `  To run them: ${CHROMIUM_INSTALL} (as root), then npm test again.`,
    '',
  ].join('\n');
}

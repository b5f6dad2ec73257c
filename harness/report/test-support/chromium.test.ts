import { describe, expect, it } from 'vitest';
import { CHROMIUM_INSTALL, chromiumNote } from './chromium.ts';

describe('the note on browser checks that did not run', () => {
  it('says how many, where, and how to get Chromium', () => {
    const note = chromiumNote([
      'harness/report/html-report.test.ts > renderHtml in headless Chromium > shows the failing exchange',
      'harness/report/html-report.test.ts > renderHtml in headless Chromium > copies the curl line',
      'harness/report/load-report.test.ts > load > renders the plots in headless Chromium',
    ]);
    expect(note).toContain('3 browser check(s) of the HTML report did not run');
    expect(note).toContain('harness/report/html-report.test.ts, harness/report/load-report.test.ts');
    expect(note).toContain(CHROMIUM_INSTALL);
  });

  it('is silent when every browser check ran', () => {
    expect(chromiumNote([])).toBe('');
  });
});

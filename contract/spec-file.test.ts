import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DESIGN_FILE, SHARED_DESIGN_FILE, SHARED_SPEC_FILE, SPEC_FILE } from './spec-file.ts';

describe('the spec copy in docs/spec', () => {
  it('is present and names its release', () => {
    expect(readFileSync(SPEC_FILE, 'utf8')).toContain('The published contract release is 1.4.0');
  });

  // Only in the development workspace: a user's clone has no ../shared, and then there is nothing to compare with.
  it.runIf(existsSync(SHARED_SPEC_FILE))('is byte-identical to ../shared/spec/partner-api-v1.md', () => {
    expect(readFileSync(SPEC_FILE).equals(readFileSync(SHARED_SPEC_FILE))).toBe(true);
  });
});

describe('the design notes in docs/design.md', () => {
  it('are present', () => {
    expect(readFileSync(DESIGN_FILE, 'utf8')).toContain('## Check model');
  });

  it.runIf(existsSync(SHARED_DESIGN_FILE))('are byte-identical to ../shared/design.md', () => {
    expect(readFileSync(DESIGN_FILE).equals(readFileSync(SHARED_DESIGN_FILE))).toBe(true);
  });
});

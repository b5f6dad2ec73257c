import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { PACKAGE_NAME, packageInfo } from './package-info.ts';

describe('packageInfo', () => {
  it("reads the package's name and version from package.json", () => {
    const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
    expect(packageInfo()).toEqual({ name: PACKAGE_NAME, version: pkg.version });
  });
});

import { defineConfig } from 'vitest/config';

/**
 * `npm run test:image` (in .ci/run after npm test): the release tests, which build the container image and install
 * the packed tarball with its install scripts. Too slow for npm test; files run one after the other.
 */
export default defineConfig({
  test: {
    include: ['release/**/*.test.ts'],
    testTimeout: 600_000,
    hookTimeout: 900_000,
    pool: 'forks',
    fileParallelism: false,
  },
});

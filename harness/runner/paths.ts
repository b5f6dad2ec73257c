import { fileURLToPath } from 'node:url';

/** The project root: suites/, package.json and node_modules are found from here, whatever the current directory. */
export const PROJECT_ROOT = fileURLToPath(new URL('../../', import.meta.url));

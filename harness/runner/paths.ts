import { fileURLToPath } from 'node:url';

/**
 * The project root: suites/, package.json and node_modules are found from here, whatever the current directory. In
 * the compiled package it is dist/, which holds the same folders as JavaScript.
 */
export const PROJECT_ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** '.ts' when running from the sources (tsx, vitest), '.js' in the compiled package: the suites' file extension. */
export const MODULE_EXTENSION = import.meta.url.endsWith('.ts') ? '.ts' : '.js';

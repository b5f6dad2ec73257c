/**
 * Writes the generated OpenAPI document: `npm run openapi [-- <path>]`.
 * The default target is the committed file beside this script; a test keeps it equal to a fresh build.
 */
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { renderHooksOpenApi } from '../hooks/openapi.ts';
import { renderOpenApiJson } from './build.ts';

export const DEFAULT_OPENAPI_PATH = fileURLToPath(new URL('./partner-api-v1.openapi.json', import.meta.url));

const target = process.argv[2] ? resolve(process.argv[2]) : DEFAULT_OPENAPI_PATH;
writeFileSync(target, renderOpenApiJson());
console.log(`wrote ${target}`);

// The test-hooks contract is generated beside the API's (contract/hooks/).
if (!process.argv[2]) {
  const hooks = fileURLToPath(new URL('../hooks/test-hooks.openapi.json', import.meta.url));
  writeFileSync(hooks, renderHooksOpenApi());
  console.log(`wrote ${hooks}`);
}

import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';

/** The report model's `loadResult` schema, compiled once for the scenario tests: every result they write must fit it. */
const addFormats = addFormatsModule.default;
const schema = JSON.parse(
  readFileSync(new URL('../../harness/report/report-model.schema.json', import.meta.url), 'utf8'),
);
const ajv = new Ajv2020({ strict: true, allErrors: true });
addFormats(ajv);
ajv.addSchema(schema);
export const validateLoadResult = ajv.compile({ $ref: `${schema.$id}#/$defs/loadResult` });

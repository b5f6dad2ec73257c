import { inSection } from './define.ts';
import type { Clause } from './types.ts';

/** Spec 9: versioning, numbered as the spec's list; item 5 is an open point. */
export const VERSIONING_CLAUSES: readonly Clause[] = inSection('9', [
  {
    id: '9.1',
    title: 'The major version is in the path prefix /api/partner/v1',
    text: 'The major version is in the path prefix `/api/partner/v1`.',
    verification: 'wire',
    minProfile: 'catalog',
  },
  {
    id: '9.2a',
    title: 'The published contract release is 1.4.0',
    text: 'The published contract release is 1.4.0',
    verification: 'static',
    minProfile: 'catalog',
  },
  {
    id: '9.2b',
    title: 'The machine-readable contract is OpenAPI 3.1.2 (JSON Schema 2020-12) with info version 1.0.0',
    text: 'the machine-readable contract is OpenAPI 3.1.2 (JSON Schema 2020-12 dialect) and its own info version is 1.0.0.',
    verification: 'static',
    minProfile: 'catalog',
  },
  {
    id: '9.3a',
    title: 'Error codes do not change meaning within v1',
    text: 'Error codes do not change meaning within v1.',
    verification: 'static',
    minProfile: 'catalog',
  },
  {
    id: '9.3b',
    title: 'Money and field names are as in the spec',
    text: 'Money and field names are as in this document.',
    verification: 'wire',
    minProfile: 'catalog',
  },
  {
    id: '9.4',
    title: 'The XML namespace carries the version (...:v1) and the root version attribute is 1',
    text: 'The XML namespace carries the version (`...:v1`) and the root attribute version is `1`.',
    verification: 'wire',
    minProfile: 'catalog',
  },
]);

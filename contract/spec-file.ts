import { fileURLToPath } from 'node:url';

/**
 * The repository's one copy of the spec (docs/spec/partner-api-v1.md): the clause coverage tests and the README read
 * it from here, so a clone outside the development workspace has everything it needs.
 */
export const SPEC_FILE = fileURLToPath(new URL('../docs/spec/partner-api-v1.md', import.meta.url));

/** The workspace's shared copy the repository's copy is kept identical to (absent in a user's clone). */
export const SHARED_SPEC_FILE = fileURLToPath(new URL('../../shared/spec/partner-api-v1.md', import.meta.url));

/** The design notes (layout, check model, profiles) the code comments cite as docs/design.md, kept the same way. */
export const DESIGN_FILE = fileURLToPath(new URL('../docs/design.md', import.meta.url));
export const SHARED_DESIGN_FILE = fileURLToPath(new URL('../../shared/design.md', import.meta.url));

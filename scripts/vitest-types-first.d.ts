// Loaded first by tsconfig.build.json: when the first mention of 'vitest' in a program is harness/check/outcome-and-evidence.ts's
// `declare module 'vitest'` augmentation, tsc does not merge TaskMeta.check (the full typecheck meets a test file
// first). An ordinary import of the module, seen first, makes the merge independent of file order.
import type {} from 'vitest';

/**
 * The target's listings offer nothing a generator can draw a valid request from (no vehicle offered at a usable
 * pickup, no window within a plan's validity): an empty answer is a valid answer (spec 2.12), so the check that
 * asked is not judged on this target, never an `error`. The check runner knows it by its name (the harness may not
 * import the generators: docs/architecture.md).
 */
export class NothingToDrawError extends Error {
  override readonly name = 'NothingToDrawError';
}

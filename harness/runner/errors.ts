/**
 * A configuration or harness problem: the run cannot judge the target. The CLI prints the message (never a stack
 * trace) and exits 2. Messages name the problem and never echo a secret.
 */
export class CertifyError extends Error {
  override readonly name = 'CertifyError';
  readonly exitCode = 2;
}

/** Exit codes of `certify` (README "Commands"). */
export const EXIT = {
  /** No MUST check failed or errored (with --strict: no SHOULD check warned either). */
  passed: 0,
  /** The verdict failed. */
  failed: 1,
  /** Configuration or harness error: no verdict. */
  error: 2,
} as const;

/**
 * The target did not answer at all (connection refused or reset, DNS, timeout): nothing was judged. The evidence of a
 * check that met it starts with this prefix, which is how the report tells a target that stopped answering mid-run
 * from a defect of the check.
 */
export const UNREACHABLE_PREFIX = 'target unreachable';

export class TargetUnreachableError extends Error {
  override readonly name = 'TargetUnreachableError';
  constructor(cause: string) {
    super(`${UNREACHABLE_PREFIX}: ${cause}`);
  }
}

export function isUnreachableMessage(message: string | undefined): boolean {
  return message?.startsWith(`${UNREACHABLE_PREFIX}:`) ?? false;
}

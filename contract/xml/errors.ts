/** Thrown by the serializer when a value has no XML form under spec 4.14. */
export class XmlValueError extends Error {
  override readonly name = 'XmlValueError';
  /** Where in the value the problem is, as JSON Pointer reference tokens (keys and indices). */
  readonly path: readonly (string | number)[];

  constructor(message: string, path: readonly (string | number)[]) {
    super(`${message} at ${toPointer(path)}`);
    this.path = path;
  }
}

function toPointer(path: readonly (string | number)[]): string {
  return path.length === 0
    ? '(root)'
    : path.map((p) => `/${String(p).replace(/~/g, '~0').replace(/\//g, '~1')}`).join('');
}

/**
 * Internal: how the parser stops at the first broken rule. The reason is one of the fixed texts of
 * `reasons.ts`, never document content, because it may reach a client's error message.
 */
export class XmlRejection extends Error {
  readonly reason: string;
  constructor(reason: string) {
    super(reason);
    this.reason = reason;
  }
}

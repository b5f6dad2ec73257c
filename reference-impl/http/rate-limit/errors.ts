/** The bucket store could not answer; the HTTP layer answers 503 DEPENDENCY_UNAVAILABLE (spec 7.3). */
export class RateLimitStoreUnavailableError extends Error {
  override readonly name = 'RateLimitStoreUnavailableError';
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}

/** What no report or terminal line may show: test framework internals, which mean nothing to a reader of the spec. */
export const FRAMEWORK_WORDS = ['$$typeof', 'Object.is', 'asymmetricMatcher', 'Hint:', 'Property failed after'];

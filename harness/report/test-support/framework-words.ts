/** What no report and no terminal line may show: the test framework's internals (issue 10). */
export const FRAMEWORK_WORDS = ['$$typeof', 'Object.is', 'asymmetricMatcher', 'Hint:', 'Property failed after'];

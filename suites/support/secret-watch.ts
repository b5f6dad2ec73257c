/**
 * The secrets a fuzz campaign's answers must never echo (spec 7.2.3): the clients' secrets, and every access token the
 * campaign was issued. A campaign is issued tens of thousands of tokens; scanning each answer for every one of them
 * made its cost grow with its length (a million-request run fell from 900 to 400 requests a second), so issued tokens
 * are found by lookup: each run of token characters (RFC 6750 b64token) in the answer is looked up in a set.
 */
const TOKEN_RUN = /[A-Za-z0-9\-._~+/]{16,}=*/g;
/** The newest tokens are also searched as substrings: a token glued to other token characters is still found. */
const RECENT_SEARCHED = 16;
/** Tokens kept for lookup; the oldest are dropped beyond it, so a campaign's memory stays bounded. */
const KEPT = 100_000;

export class SecretWatch {
  private readonly fixed: string[];
  private readonly issued = new Set<string>();
  private readonly recent: string[] = [];

  /** `fixed`: searched in every answer as substrings (client secrets); shorter than 8 characters is ignored. */
  constructor(fixed: readonly string[]) {
    this.fixed = fixed.filter((s) => s.length >= 8);
  }

  /** A token the target issued: no later answer may contain it. */
  addIssued(token: string): void {
    if (token.length < 8 || this.issued.has(token)) return;
    this.issued.add(token);
    if (this.issued.size > KEPT) this.issued.delete(this.issued.values().next().value as string);
    this.recent.push(token);
    if (this.recent.length > RECENT_SEARCHED) this.recent.shift();
  }

  /** A secret also searched as a substring (a genuine token the campaign holds). */
  addFixed(secret: string): void {
    if (secret.length >= 8) this.fixed.push(secret);
  }

  /**
   * Whether `text` contains a watched secret other than `own` (a token answer holds its own token, which a server
   * may issue again while it is valid).
   */
  echoedIn(text: string, own?: string): boolean {
    const other = (s: string) => s !== own && text.includes(s);
    if (this.fixed.some(other) || this.recent.some(other)) return true;
    if (this.issued.size === 0) return false;
    for (const run of text.matchAll(TOKEN_RUN)) {
      const token = run[0].replace(/=+$/, '');
      if (token !== own && (this.issued.has(token) || this.issued.has(run[0]))) return true;
    }
    return false;
  }
}

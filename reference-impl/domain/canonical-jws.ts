/**
 * True when a compact JWS is in canonical base64url. jose decodes base64url leniently: the spare low bits of a
 * segment's last character are ignored, so a signature with its last character changed still verifies. Every
 * token and quote id we issue is canonical, so anything that does not re-encode to itself was altered.
 */
export function isCanonicalJws(id: string): boolean {
  const parts = id.split('.');
  return (
    parts.length === 3 &&
    parts.every((p) => /^[A-Za-z0-9_-]+$/.test(p) && Buffer.from(p, 'base64url').toString('base64url') === p)
  );
}

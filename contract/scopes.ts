/** Spec 5.5: every scope a token can carry. */
export const SCOPES = [
  'fleet:read',
  'locations:read',
  'rates:read',
  'availability:read',
  'quotes:write',
  'reservations:read',
  'reservations:write',
  'reservations:cancel',
] as const;

export type Scope = (typeof SCOPES)[number];

/** Spec 5.5: read and shop scopes come first; booking scopes follow a joint certification. */
export const BOOKING_SCOPES: readonly Scope[] = ['reservations:read', 'reservations:write', 'reservations:cancel'];

export function isScope(value: string): value is Scope {
  return (SCOPES as readonly string[]).includes(value);
}

import { randomFillSync } from 'node:crypto';

const bytes = Buffer.alloc(16);

/**
 * A UUID of version 7 (RFC 9562 5.7): 48 bits of Unix milliseconds, then 74 random bits. Reservation ids made in time
 * order put each new one beside the last in the stores' unique index on reservation_id, where random ones (version 4)
 * wrote every booking to a random page of an index that outgrows memory at a million reservations (docs/measurements/bench-2026-11-24-to-29.md
 * "Scale rows"). 74 random bits still leave no id to guess from another. Written here because node:crypto makes
 * version 4 only (randomUUID), and ten lines do not justify a dependency.
 */
export function timeOrderedUuid(nowMs: number = Date.now()): string {
  randomFillSync(bytes);
  bytes.writeUIntBE(Math.max(0, Math.min(nowMs, 2 ** 48 - 1)), 0, 6);
  bytes[6] = ((bytes[6] as number) & 0x0f) | 0x70;
  bytes[8] = ((bytes[8] as number) & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

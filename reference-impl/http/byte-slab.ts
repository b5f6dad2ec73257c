/**
 * Buffers for answer bodies cut from a large slab, as Node's own pool does for buffers under 4 KiB: an availability
 * answer (about 20 KiB) had an ArrayBuffer of its own, whose allocation was a third of writing the answer
 * (docs/measurements/bench-2026-11-24-to-29.md "Answers as bytes"). A slab lives while any body cut from it does (a slow client keeps at most one
 * slab); the next body goes into a new slab when this one is full. Each body is its own region: none is reused.
 */
export class ByteSlab {
  private slab = Buffer.alloc(0);
  private used = 0;

  constructor(private readonly size = 1 << 20) {}

  /** `length` bytes of their own, contents unset (like Buffer.allocUnsafe). */
  take(length: number): Buffer {
    if (length > this.size / 4) return Buffer.allocUnsafe(length);
    if (this.used + length > this.slab.length) {
      this.slab = Buffer.allocUnsafeSlow(this.size);
      this.used = 0;
    }
    const out = this.slab.subarray(this.used, this.used + length);
    // Eight-byte aligned, as Node aligns its pool.
    this.used += (length + 7) & ~7;
    return out;
  }
}

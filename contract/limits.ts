/** Spec 8: every fixed limit of the service. Rate-limit ceilings are not shown (spec 8). */
export const LIMITS = {
  accessTokenLifetimeSeconds: 600,
  quoteValidityMinutes: 30,
  idempotencyKeyLength: { min: 8, max: 200 },
  idempotencyMemoryHours: 24,
  reservationListLimit: { min: 1, max: 100, default: 25 },
  vehicleCodesMaxItems: 50,
  childSeats: { min: 0, max: 3 },
  partnerReferenceMaxLength: 64,
  remarksMaxLength: 1000,
  flightNumberMaxLength: 20,
  cancelReasonLength: { min: 1, max: 500 },
  quoteIdLength: { min: 8, max: 4096 },
  xml: { maxBytes: 32_000, maxDepth: 32, maxNodes: 4096 },
  rateLimitWindowSeconds: 60,
} as const;

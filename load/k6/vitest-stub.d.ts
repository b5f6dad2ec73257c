// harness/report/model.ts (the result types) reaches harness/check/outcome-and-evidence.ts, which augments vitest's TaskMeta.
// vitest's own types need Node's, which this k6-only program must not load: this stands in for them here.
// biome-ignore lint/suspicious/noEmptyInterface: an interface (not a type alias) so that outcome-and-evidence.ts can augment it
export interface TaskMeta {}

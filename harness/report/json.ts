import type { ReportModel } from './model.ts';

/** Object keys sorted at every depth (arrays keep their order), so equal models serialise to equal bytes. */
function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value).sort()) {
      const item = (value as Record<string, unknown>)[key];
      if (item !== undefined) out[key] = canonical(item);
    }
    return out;
  }
  return value;
}

/** report.json: the model itself, keys sorted, 2-space indent, trailing newline. */
export function renderJson(model: ReportModel): string {
  return `${JSON.stringify(canonical(model), null, 2)}\n`;
}

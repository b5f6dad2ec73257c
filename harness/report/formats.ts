import { renderHtml } from './html-report.ts';
import { renderJson } from './json.ts';
import { renderJunit } from './junit.ts';
import { renderMarkdown } from './markdown.ts';
import type { ReportModel } from './model.ts';

export type ReportFormat = 'json' | 'junit' | 'html' | 'md';

export const REPORT_FORMATS: readonly ReportFormat[] = ['json', 'junit', 'html', 'md'];

/**
 * Each format's renderer and the one file name it has in a report directory: what certify writes and what the load
 * and mutation commands read and re-render.
 */
export const RENDERERS: Record<ReportFormat, { fileName: string; render: (model: ReportModel) => string }> = {
  json: { fileName: 'report.json', render: renderJson },
  junit: { fileName: 'junit.xml', render: renderJunit },
  html: { fileName: 'report.html', render: renderHtml },
  md: { fileName: 'report.md', render: renderMarkdown },
};

/** Names of the k6 custom metrics the runtime records and handleSummary reads back. */
import { ERROR_CODES, OAUTH_ERRORS } from '../../contract/errors.ts';

/** Every code a response can be counted under; anything else is OTHER (k6 metrics must exist before the run). */
export const K6_ERROR_CODES: readonly string[] = [
  ...Object.keys(ERROR_CODES),
  ...Object.keys(OAUTH_ERRORS),
  'NETWORK',
  'OTHER',
];

export function k6Code(code: string): string {
  return K6_ERROR_CODES.includes(code) ? code : 'OTHER';
}

export const stepMetric = (step: string) => `load_step_${step}`;
export const errorMetric = (step: string, code: string) => `load_err_${step}_${code}`;
export const unexpectedMetric = (index: number) => `load_unexpected_${index}`;
export const notApplicableMetric = (index: number) => `load_na_${index}`;
export const notJudgedMetric = (index: number) => `load_nj_${index}`;
/** A ceiling check's stated ceiling (RunContext.ceiling): its limit and its sureAfter, as trends (max read back). */
export const ceilingLimitMetric = (index: number) => `load_ceiling_${index}_limit`;
export const ceilingSureMetric = (index: number) => `load_ceiling_${index}_sure`;
export const REMAINING_METRIC = 'load_ratelimit_remaining';

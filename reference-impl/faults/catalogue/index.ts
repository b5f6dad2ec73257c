import type { Fault } from '../types.ts';
import { RESOURCE_FAULTS } from './s01-s02-resources.ts';

/** Every named fault and benign variant of the reference implementation (README "Faults"). */
export const FAULTS: readonly Fault[] = [...RESOURCE_FAULTS];

import type { Fault } from '../types.ts';
import { BENIGN_VARIANTS } from './benign.ts';
import { FOREIGN_CHOICES, FOREIGN_VARIANTS } from './benign-foreign.ts';
import { RESOURCE_FAULTS } from './s01-s02-resources.ts';
import { BEHAVIOUR_FAULTS } from './s03-s04-behaviour.ts';
import { REPRESENTATION_FAULTS } from './s04-representations.ts';
import { PROTOCOL_FAULTS } from './s05-s09-protocol.ts';

/** Every named fault and benign variant of the reference implementation (README "Faults"). */
export const FAULTS: readonly Fault[] = [
  ...RESOURCE_FAULTS,
  ...BEHAVIOUR_FAULTS,
  ...REPRESENTATION_FAULTS,
  ...PROTOCOL_FAULTS,
  ...BENIGN_VARIANTS,
  ...FOREIGN_VARIANTS,
  FOREIGN_CHOICES,
];

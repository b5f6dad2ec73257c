import type { Fault } from '../types.ts';
import { BENIGN_VARIANTS } from './benign.ts';
import { FOREIGN_VARIANTS, foreignChoices } from './benign-foreign.ts';
import { FOREIGN_VARIANTS_A } from './benign-foreign-a.ts';
import { FOREIGN_VARIANTS_B } from './benign-foreign-b.ts';
import { FOREIGN_VARIANTS_C } from './benign-foreign-c.ts';
import { FOREIGN_VARIANTS_D } from './benign-foreign-d.ts';
import { FOREIGN_VARIANTS_E } from './benign-foreign-e.ts';
import { FOREIGN_FAULTS_C } from './foreign-faults-c.ts';
import { RESOURCE_FAULTS } from './s01-s02-resources.ts';
import { BEHAVIOUR_FAULTS } from './s03-s04-behaviour.ts';
import { REPRESENTATION_FAULTS } from './s04-representations.ts';
import { PROTOCOL_FAULTS } from './s05-s09-protocol.ts';

/** The variants of servers written elsewhere (the 2026-11-29 audit's rows), switched on together by foreign-choices. */
const FOREIGN: readonly Fault[] = [
  ...FOREIGN_VARIANTS,
  ...FOREIGN_VARIANTS_A,
  ...FOREIGN_VARIANTS_B,
  ...FOREIGN_VARIANTS_C,
  ...FOREIGN_VARIANTS_D,
  ...FOREIGN_VARIANTS_E,
];

/** Every named fault and benign variant of the reference implementation (README "Faults"). */
export const FAULTS: readonly Fault[] = [
  ...RESOURCE_FAULTS,
  ...BEHAVIOUR_FAULTS,
  ...REPRESENTATION_FAULTS,
  ...PROTOCOL_FAULTS,
  ...BENIGN_VARIANTS,
  ...FOREIGN,
  foreignChoices(FOREIGN),
  ...FOREIGN_FAULTS_C,
];

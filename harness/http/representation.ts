export { REPRESENTATIONS, type Representation } from '../../contract/vocabulary.ts';

/** Spec 4.14: the typed-XML codec, shared by the reference implementation and the conformance suite. */
export { XmlValueError } from './errors.ts';
export { parseNumberText } from './number.ts';
export {
  FRAME_REASONS,
  parseTypedXml,
  type XmlLimits,
  type XmlParseResult,
  type XmlRoot,
} from './parse.ts';
export { REASONS as XML_REJECTION_REASONS } from './reasons.ts';
export { isXmlRepresentable, serializeTypedXml } from './serialize.ts';

/** Spec 2 and 9: the path prefix every endpoint shares. */
export const API_PREFIX = '/api/partner/v1';
/** Spec 4.14 and 9.4: the namespace of every element of the XML representation. */
export const XML_NAMESPACE = 'urn:service:partner-api:v1';
/** Spec 9.4: value of the `version` attribute on the XML root. */
export const XML_VERSION = '1';
/** Spec 9.2: the published contract release the suite certifies against. */
export const SPEC_RELEASE = '1.4.0';
/** Spec 9.2: `info.version` of the machine-readable contract. */
export const CONTRACT_INFO_VERSION = '1.0.0';
/** Spec 9.2: OpenAPI release of the machine-readable contract. */
export const OPENAPI_VERSION = '3.1.2';

/** Spec 4.13: media types a business call may send or receive. */
export const MEDIA_TYPES = {
  json: 'application/json',
  xml: 'application/xml',
  textXml: 'text/xml',
  form: 'application/x-www-form-urlencoded',
} as const;

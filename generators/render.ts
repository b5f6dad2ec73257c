/** Request bodies as bytes on the wire: JSON, typed XML (spec 4.13, 4.14), or the token form (4.1). */
import { MEDIA_TYPES } from '../contract/constants.ts';
import type { JsonValue } from '../contract/types.ts';
import type { Representation } from '../contract/vocabulary.ts';
import { serializeTypedXml } from '../contract/xml/index.ts';

export type { Representation };

export interface RenderOptions {
  /** XML only: a namespace prefix ('p' gives `<p:request xmlns:p=…>`); default: the default namespace. */
  prefix?: string;
  /**
   * XML only: write the XML declaration first (default false: the declaration is optional, spec 4.14.16, and only
   * its own checks send one, so a target refusing it fails that clause alone).
   */
  declaration?: boolean;
  /** XML only: the media type to declare (default application/xml). */
  xmlMediaType?: typeof MEDIA_TYPES.xml | typeof MEDIA_TYPES.textXml;
}

export interface RenderedBody {
  contentType: string;
  bytes: Uint8Array;
}

const encoder = new TextEncoder();

/**
 * A request value as a body. The request types are interfaces, which TypeScript will not widen to JsonValue;
 * every generated value is plain JSON data, so the cast only restates that.
 */
export function renderBody(value: object, representation: Representation, options: RenderOptions = {}): RenderedBody {
  if (representation === 'json') {
    return { contentType: MEDIA_TYPES.json, bytes: encoder.encode(JSON.stringify(value)) };
  }
  const xml = serializeTypedXml(value as JsonValue, 'request', {
    prefix: options.prefix,
    declaration: options.declaration ?? false,
  });
  return { contentType: options.xmlMediaType ?? MEDIA_TYPES.xml, bytes: encoder.encode(xml) };
}

/** The token request form (spec 4.1), application/x-www-form-urlencoded, fields in the object's order. */
export function renderForm(fields: object): RenderedBody {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(fields)) if (typeof value === 'string') params.append(name, value);
  return { contentType: MEDIA_TYPES.form, bytes: encoder.encode(params.toString()) };
}

/** Spec 4.14: the element names of the typed representation. */
export const VALUE_ELEMENTS = ['object', 'array', 'string', 'number', 'boolean', 'null'] as const;
export type ValueElement = (typeof VALUE_ELEMENTS)[number];
export type ScalarElement = 'string' | 'number' | 'boolean' | 'null';

export function isValueElement(local: string): local is ValueElement {
  return (VALUE_ELEMENTS as readonly string[]).includes(local);
}

/** Spec 4.14: property names that are rejected (they could reach an object's prototype chain). */
export const RESERVED_PROPERTY_NAMES: ReadonlySet<string> = new Set(['__proto__', 'prototype', 'constructor']);

/**
 * Whether toTemplateData(context) would be exactly `copy` (same values, same key order), decided
 * without making the copy: the engine then reuses a context copied before (a process's render
 * context is the same turn after turn), which the isolate may hold already, so nothing is copied,
 * serialised or sent. Conservative: only strings, finite numbers, booleans, null, plain arrays and
 * plain objects of own data properties can be "the same"; anything toTemplateData would convert or
 * drop (a Date, a Map, a function, an accessor, a proxy, a class instance, `__proto__`) answers
 * false, and the context is copied as before. Never invokes a getter or a proxy trap.
 */
import { types } from 'node:util';

export function isSameTemplateData(context: Readonly<Record<string, unknown>>, copy: Readonly<Record<string, unknown>>): boolean {
  return sameObject(context, copy);
}

function same(value: unknown, copy: unknown): boolean {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return value === copy;
    case 'number':
      return Number.isFinite(value) && value === copy;
    case 'object':
      if (value === null) return copy === null;
      if (typeof copy !== 'object' || copy === null) return false;
      return Array.isArray(value) ? sameArray(value, copy) : sameObject(value, copy);
    default:
      return false;
  }
}

function sameArray(value: readonly unknown[], copy: object): boolean {
  if (types.isProxy(value) || Object.getPrototypeOf(value) !== Array.prototype || !Array.isArray(copy)) return false;
  if (value.length !== copy.length) return false;
  for (let i = 0; i < value.length; i++) {
    const descriptor = Object.getOwnPropertyDescriptor(value, i);
    if (!descriptor || !('value' in descriptor) || !same(descriptor.value, copy[i])) return false;
  }
  return true;
}

function sameObject(value: object, copy: object): boolean {
  if (types.isProxy(value) || Array.isArray(copy)) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) return false;
  const keys = Object.keys(value);
  const copyKeys = Object.keys(copy);
  if (keys.length !== copyKeys.length) return false;
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i]!;
    if (key !== copyKeys[i] || key === '__proto__') return false;
    const descriptor = Object.getOwnPropertyDescriptor(value, key);
    if (!descriptor || !('value' in descriptor) || !same(descriptor.value, (copy as Record<string, unknown>)[key])) return false;
  }
  return true;
}

/**
 * An exact text key for plain JSON data, or null when the value is anything else. Two values with the
 * same key are the same data to a template: strings, finite numbers, booleans, null, arrays without
 * holes and plain objects (prototype Object.prototype or null) of own data properties, in their own
 * key order (a template's `for k, v in obj` sees that order). Getters, Dates, Maps, class instances,
 * non-finite numbers, `undefined` and `__proto__` keys give null, so a memo keyed by this never
 * conflates two contexts the template engine would copy differently (templates/template-data.ts).
 * Bounded: deeper than MAX_DEPTH or longer than MAX_KEY characters gives null too.
 */
const MAX_DEPTH = 16;
const MAX_KEY = 64 * 1024;

export function dataKey(value: unknown): string | null {
  const parts: string[] = [];
  let length = 0;
  const walk = (v: unknown, depth: number): boolean => {
    if (depth > MAX_DEPTH || length > MAX_KEY) return false;
    switch (typeof v) {
      case 'string': {
        const text = JSON.stringify(v);
        length += text.length;
        parts.push(text);
        return true;
      }
      case 'number':
        if (!Number.isFinite(v)) return false;
        parts.push(Object.is(v, -0) ? '0' : String(v));
        return true;
      case 'boolean':
        parts.push(v ? 'true' : 'false');
        return true;
      case 'object':
        if (v === null) {
          parts.push('null');
          return true;
        }
        return Array.isArray(v) ? walkArray(v, depth) : walkObject(v, depth);
      default:
        return false;
    }
  };
  const walkArray = (array: readonly unknown[], depth: number): boolean => {
    if (Object.getPrototypeOf(array) !== Array.prototype) return false;
    parts.push('[');
    for (let i = 0; i < array.length; i++) {
      if (!(i in array) || !walk(array[i], depth + 1)) return false;
      parts.push(',');
    }
    parts.push(']');
    return true;
  };
  const walkObject = (object: object, depth: number): boolean => {
    const proto = Object.getPrototypeOf(object) as unknown;
    if (proto !== Object.prototype && proto !== null) return false;
    parts.push('{');
    for (const key of Object.keys(object)) {
      const descriptor = Object.getOwnPropertyDescriptor(object, key);
      if (key === '__proto__' || !descriptor || !('value' in descriptor)) return false;
      parts.push(JSON.stringify(key), ':');
      if (!walk(descriptor.value, depth + 1)) return false;
      parts.push(',');
    }
    parts.push('}');
    return true;
  };
  return walk(value, 0) && length <= MAX_KEY ? parts.join('') : null;
}

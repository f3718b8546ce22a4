/**
 * The small JSON-schema subset the built-in tools declare and the registry checks at dispatch:
 * `type` (string, integer, number, boolean, object, array), `required`, `properties`,
 * `additionalProperties: false`, `maxLength`, `minLength`, `enum` (strings), `items`, `minimum`,
 * `maximum`. Anything else in a schema is documentation for the model and is not checked.
 */
export type JsonSchemaType = 'string' | 'integer' | 'number' | 'boolean' | 'object' | 'array';

// A type alias (not an interface) so a schema is assignable to ServerTool's `Record<string, unknown>`.
export type JsonSchema = {
  readonly type?: JsonSchemaType;
  readonly description?: string;
  readonly properties?: Readonly<Record<string, JsonSchema>>;
  readonly required?: readonly string[];
  readonly additionalProperties?: boolean;
  readonly items?: JsonSchema;
  readonly maxLength?: number;
  readonly minLength?: number;
  readonly minimum?: number;
  readonly maximum?: number;
  readonly enum?: readonly string[];
};

/** An object schema with `additionalProperties: false` — what every built-in tool declares. */
export function objectSchema(properties: Record<string, JsonSchema>, required: readonly string[] = []): JsonSchema {
  return { type: 'object', properties, required, additionalProperties: false };
}

function typeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

function matchesType(value: unknown, type: JsonSchemaType): boolean {
  const actual = typeOf(value);
  if (type === 'number') return actual === 'number' || actual === 'integer';
  if (type === 'object') return actual === 'object';
  return actual === type;
}

/** Problems of `value` against `schema`, each naming the argument path (`path`, `items[2]`); empty when valid. */
export function validateJson(schema: JsonSchema, value: unknown, at = ''): string[] {
  const where = at === '' ? 'the arguments' : `'${at}'`;
  if (schema.type && !matchesType(value, schema.type)) {
    return [`${where} must be ${schema.type === 'integer' || schema.type === 'array' || schema.type === 'object' ? 'an' : 'a'} ${schema.type}, got ${typeOf(value)}`];
  }
  const problems: string[] = [];
  if (typeof value === 'string') {
    if (schema.maxLength !== undefined && value.length > schema.maxLength) problems.push(`${where} may hold at most ${schema.maxLength} characters (got ${value.length})`);
    if (schema.minLength !== undefined && value.length < schema.minLength) problems.push(`${where} must hold at least ${schema.minLength} character${schema.minLength === 1 ? '' : 's'}`);
    if (schema.enum && !schema.enum.includes(value)) problems.push(`${where} must be one of ${schema.enum.map((e) => `'${e}'`).join(', ')}`);
  }
  if (typeof value === 'number') {
    if (schema.minimum !== undefined && value < schema.minimum) problems.push(`${where} must be at least ${schema.minimum}`);
    if (schema.maximum !== undefined && value > schema.maximum) problems.push(`${where} must be at most ${schema.maximum}`);
  }
  if (Array.isArray(value) && schema.items) {
    value.forEach((item, index) => problems.push(...validateJson(schema.items as JsonSchema, item, `${at}[${index}]`)));
  }
  if (typeOf(value) === 'object' && (schema.properties || schema.required || schema.additionalProperties === false)) {
    const record = value as Record<string, unknown>;
    const properties = schema.properties ?? {};
    for (const name of schema.required ?? []) {
      if (record[name] === undefined) problems.push(`missing required argument '${at === '' ? name : `${at}.${name}`}'`);
    }
    for (const [name, item] of Object.entries(record)) {
      const child = at === '' ? name : `${at}.${name}`;
      const property = Object.hasOwn(properties, name) ? properties[name] : undefined;
      if (property) {
        if (item !== undefined) problems.push(...validateJson(property, item, child));
      } else if (schema.additionalProperties === false) {
        const known = Object.keys(properties);
        problems.push(`unknown argument '${child}'${known.length > 0 ? ` (allowed: ${known.join(', ')})` : ' (this tool takes no arguments)'}`);
      }
    }
  }
  return problems;
}

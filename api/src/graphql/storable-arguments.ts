/**
 * Every argument of every field is checked once, before its resolver (or subscribe) runs: a string
 * anywhere in it — a scalar, a list item, an input object field, a JSON value or key — that holds
 * text the database cannot store (domain/shared/storable-text.ts: U+0000, unpaired surrogates) is
 * refused as BAD_USER_INPUT naming the argument path (`input.name`, `messages[2]`). Done here, on
 * the schema, so HTTP and WebSocket share it and no resolver can forget it (issue 13: a NUL in a
 * document, a setting, a message or a project name used to reach the driver and answer INTERNAL_SERVER_ERROR).
 */
import { defaultFieldResolver, type GraphQLFieldResolver, type GraphQLObjectType, type GraphQLSchema } from 'graphql';
import { InvalidInputError } from '../domain/errors';
import { findUnstorable } from '../domain/shared/storable-text';

export class UnstorableTextError extends InvalidInputError {
  constructor(path: string, what: string, index: number) {
    super('UNSTORABLE_TEXT', `Argument '${path}' contains ${what} at offset ${index}; text with it cannot be stored — remove it`, path);
  }
}

/** Wraps, in place, the resolvers of all fields that take arguments; returns the schema. */
export function refuseUnstorableArguments(schema: GraphQLSchema): GraphQLSchema {
  for (const type of Object.values(schema.getTypeMap())) {
    if (!isObjectType(type)) continue;
    for (const field of Object.values(type.getFields())) {
      if (field.args.length === 0) continue;
      const resolve: GraphQLFieldResolver<unknown, unknown> = field.resolve ?? defaultFieldResolver;
      field.resolve = (source, args, context, info) => {
        checkArguments(args);
        return resolve(source, args, context, info);
      };
      const subscribe = field.subscribe;
      if (subscribe) {
        field.subscribe = (source, args, context, info) => {
          checkArguments(args);
          return subscribe(source, args, context, info);
        };
      }
    }
  }
  return schema;
}

/**
 * By shape, not with graphql's isObjectType: makeExecutableSchema may build the schema from graphql's
 * CJS build while we load its ESM build (graphql/errors.ts meets the same two-realm problem).
 */
function isObjectType(type: unknown): type is GraphQLObjectType {
  const name = (type as { name?: unknown }).name;
  return (type as { constructor?: { name?: string } }).constructor?.name === 'GraphQLObjectType' && typeof name === 'string' && !name.startsWith('__');
}

/** Throws UnstorableTextError for the first unstorable string in the coerced arguments. */
export function checkArguments(args: Readonly<Record<string, unknown>>): void {
  // Iterative: a JSON argument can nest as deep as the body allows.
  const stack: [unknown, string][] = Object.entries(args).map(([name, value]) => [value, name]);
  while (stack.length > 0) {
    const [value, path] = stack.pop()!;
    if (typeof value === 'string') {
      const bad = findUnstorable(value);
      if (bad) throw new UnstorableTextError(path, bad.what, bad.index);
    } else if (Array.isArray(value)) {
      value.forEach((item, i) => stack.push([item, `${path}[${i}]`]));
    } else if (value !== null && typeof value === 'object') {
      for (const [key, item] of Object.entries(value)) {
        const bad = findUnstorable(key);
        if (bad) throw new UnstorableTextError(`${path} (a key)`, bad.what, bad.index);
        stack.push([item, `${path}.${key}`]);
      }
    }
  }
}

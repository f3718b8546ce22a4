import { GraphQLScalarType, Kind, type ValueNode } from 'graphql';

/** ISO-8601 date-times; accepts Date or ISO strings from resolvers. */
export const DateTime = new GraphQLScalarType({
  name: 'DateTime',
  serialize(value) {
    const date = value instanceof Date ? value : new Date(String(value));
    if (Number.isNaN(date.getTime())) throw new TypeError(`DateTime cannot represent '${String(value)}'`);
    return date.toISOString();
  },
  parseValue(value) {
    const date = new Date(String(value));
    if (typeof value !== 'string' || Number.isNaN(date.getTime())) throw new TypeError('DateTime must be an ISO-8601 string');
    return date;
  },
  parseLiteral(ast) {
    if (ast.kind !== Kind.STRING || Number.isNaN(new Date(ast.value).getTime())) throw new TypeError('DateTime must be an ISO-8601 string');
    return new Date(ast.value);
  },
});

/**
 * Arbitrary JSON values (recipe params, locale maps). Literals are converted without evaluating
 * anything; depth is bounded so a hostile literal cannot exhaust the stack.
 */
export const JSONScalar = new GraphQLScalarType({
  name: 'JSON',
  serialize: (value) => value,
  parseValue: (value) => value,
  parseLiteral: (ast, variables) => literalValue(ast, variables ?? undefined, 0),
});

function literalValue(ast: ValueNode, variables: Record<string, unknown> | undefined, depth: number): unknown {
  if (depth > 32) throw new TypeError('JSON literal nested too deeply');
  switch (ast.kind) {
    case Kind.STRING:
    case Kind.BOOLEAN:
      return ast.value;
    case Kind.INT:
    case Kind.FLOAT:
      return Number(ast.value);
    case Kind.NULL:
      return null;
    case Kind.LIST:
      return ast.values.map((v) => literalValue(v, variables, depth + 1));
    case Kind.OBJECT:
      return Object.fromEntries(ast.fields.map((f) => [f.name.value, literalValue(f.value, variables, depth + 1)]));
    case Kind.VARIABLE:
      return variables?.[ast.name.value];
    default:
      throw new TypeError(`Unsupported JSON literal ${ast.kind}`);
  }
}

import { GraphQLScalarType, Kind } from 'graphql';

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

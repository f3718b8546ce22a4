import { readFileSync } from 'node:fs';
import path from 'node:path';
import { makeExecutableSchema } from '@graphql-tools/schema';
import type { GraphQLSchema } from 'graphql';
import { resolvers } from './resolvers';
import { refuseUnstorableArguments } from './storable-arguments';

/** The executable schema: schema.graphql (the contract, at the repo root) plus our resolvers; arguments checked for storable text. */
export function buildSchema(repoRoot: string): GraphQLSchema {
  const typeDefs = readFileSync(path.join(repoRoot, 'schema.graphql'), 'utf8');
  return refuseUnstorableArguments(makeExecutableSchema({ typeDefs, resolvers: resolvers as never }));
}

import { readFileSync } from 'node:fs';
import path from 'node:path';
import { getIntrospectionQuery, parse } from 'graphql';
import { describe, expect, it } from 'vitest';
import { loadConfig, REPO_ROOT } from '../config';
import { OperationLimits } from './operation-limits';
import { buildSchema } from './schema';

const schema = buildSchema(REPO_ROOT);
const limits = new OperationLimits(loadConfig({}).operationLimits);

/**
 * The dashboard's operations, read from its source (admin/src/api/operations.ts): the selection
 * constants (`const DOC = \`…\``) substituted into every `gql<…>(…)` call's query text.
 */
function dashboardOperations(): string[] {
  const source = readFileSync(path.join(REPO_ROOT, 'admin/src/api/operations.ts'), 'utf8');
  const constants = new Map<string, string>();
  const expand = (text: string) => text.replace(/\$\{(\w+)\}/g, (_, name: string) => constants.get(name) ?? '');
  for (const m of source.matchAll(/^const (\w+) = (`[^`]*`|'[^']*');/gm)) constants.set(m[1]!, expand(m[2]!.slice(1, -1)));
  return [...source.matchAll(/gql<[^>]*>\(\s*(`[^`]*`|'[^']*')/g)].map((m) => expand(m[1]!.slice(1, -1)));
}

function refusal(query: string) {
  return limits.checkSource(query) ?? limits.checkDocument(schema, parse(query));
}

describe('default operation limits', () => {
  it('let every operation of the dashboard through', () => {
    const operations = dashboardOperations();
    expect(operations.length).toBeGreaterThan(25);
    for (const query of operations) expect({ query, refusal: refusal(query) }).toEqual({ query, refusal: null });
  });

  it("let graphql's full introspection query through (what codegen and GraphiQL send)", () => {
    const full = getIntrospectionQuery({ descriptions: true, specifiedByUrl: true, directiveIsRepeatable: true, schemaDescription: true, inputValueDeprecation: true, oneOf: true });
    expect(refusal(full)).toBeNull();
  });

  it('refuse a fragment that doubles itself thirty times by its field count, without expanding it', () => {
    const fragments = Array.from({ length: 30 }, (_, i) => `fragment F${i} on Query { ...F${i + 1} ...F${i + 1} }`).join('\n');
    const bomb = `query { ...F0 }\n${fragments}\nfragment F30 on Query { me { id } }`;
    expect(refusal(bomb)?.extensions).toEqual({ code: 'BAD_USER_INPUT', limit: 'maxCost', max: 1000 });
  });

  it('stop counting tokens at the first one over the limit and leave syntax errors to the parser', () => {
    expect(limits.checkSource(`{ ${'a '.repeat(3000)}}`)?.extensions.limit).toBe('maxTokens');
    expect(limits.checkSource('{ me { login } ')).toBeNull();
    expect(limits.checkSource('{ me { "unterminated }')).toBeNull();
  });
});

/**
 * Test support for the recipes folder only (not exported from index.ts): a tiny TemplateEngine fake
 * (`{{ a.b }}` substitution, `{{ explode }}` fails at render, `{% if x %}…{% else %}…{% endif %}` on truthiness, and a syntax check
 * that flags unclosed or unknown tags with template-relative positions) and a small in-memory cascade.
 */
import { CachedDocumentReader } from '../cascade/document-cache';
import { DocumentCascade } from '../cascade/document-cascade';
import type { ResourceDocument } from '../cascade/document';
import type { StoredLayer } from '../cascade/layer';
import { ResourceLayer } from '../cascade/resource-layer';
import type { CascadeScope } from '../cascade/scope';
import type { TemplateEngine, TemplateProblem } from '../templates/template-engine';
import { TemplateRenderError } from '../templates/errors';
import { InMemoryDocumentStore } from '../testing/in-memory-document-store';

const TAG = /\{%\s*(\w+)([^%]*)%\}/g;
const KNOWN_TAGS = new Set(['if', 'else', 'endif']);

export class FakeTemplateEngine implements TemplateEngine {
  readonly rendered: string[] = [];

  check(source: string): TemplateProblem[] {
    const problems: TemplateProblem[] = [];
    source.split('\n').forEach((line, index) => {
      const open = line.search(/\{[{%]/);
      if (open >= 0 && !/[}%]\}/.test(line.slice(open))) problems.push({ message: 'unclosed tag', line: index + 1, column: open + 1 });
      for (const match of line.matchAll(TAG)) {
        if (!KNOWN_TAGS.has(match[1] ?? '')) problems.push({ message: `unknown tag '${match[1]}'`, line: index + 1, column: (match.index ?? 0) + 1 });
      }
    });
    return problems;
  }

  async render(source: string, context: Readonly<Record<string, unknown>>): Promise<string> {
    this.rendered.push(source);
    if (/\{\{\s*explode\s*\}\}/.test(source)) throw new TemplateRenderError('RUNTIME', 'fake failure');
    const lookup = (expr: string): unknown =>
      expr.trim().split('.').reduce<unknown>((value, key) => (value !== null && typeof value === 'object' && Object.hasOwn(value, key) ? (value as Record<string, unknown>)[key] : undefined), context);
    const branched = source.replace(/\{%\s*if\s+([\w.]+)\s*%\}([\s\S]*?)(?:\{%\s*else\s*%\}([\s\S]*?))?\{%\s*endif\s*%\}/g,
      (_m, cond: string, yes: string, no: string | undefined) => (lookup(cond) ? yes : (no ?? '')));
    return branched.replace(/\{\{\s*([\w.]+)\s*\}\}/g, (_m, expr: string) => String(lookup(expr) ?? ''));
  }

  referencedVariables(source: string): ReadonlySet<string> {
    const names = new Set<string>();
    for (const match of source.matchAll(/\{\{\s*(\w+)|\{%\s*if\s+(\w+)/g)) names.add((match[1] ?? match[2])!);
    return names;
  }
}

export const SCOPE: CascadeScope = { tenantId: 't1', userProjectId: 'user-p', projectId: 'proj-p', tenantProjectId: 'tenant-p' };
const PROJECT_OF: Record<StoredLayer, string> = { USER: 'user-p', PROJECT: 'proj-p', VANCE: 'tenant-p' };

/** A small in-memory cascade: stored layers in one store, RESOURCE from the given documents. */
export function cascadeWith(resources: readonly ResourceDocument[] = []) {
  const store = new InMemoryDocumentStore();
  const reader = new CachedDocumentReader(store);
  const cascade = new DocumentCascade(reader, new ResourceLayer(resources));
  const write = async (layer: StoredLayer, path: string, content: string) => {
    const doc = await store.put({ tenantId: 't1', projectId: PROJECT_OF[layer], path, content, author: 'test' });
    reader.invalidate(PROJECT_OF[layer]);
    return doc;
  };
  return { store, cascade, write };
}

/** A minimal valid recipe text plus extra lines. */
export function recipeYaml(extra = '', engine = 'ford'): string {
  return `description: A test recipe\nengine: ${engine}\n${extra}`;
}

import type { CascadeHit, DocumentCascade } from '../cascade/document-cascade';
import type { Layer } from '../cascade/layer';
import type { CascadeScope } from '../cascade/scope';
import type { Diagnostic } from '../errors';
import type { TemplateEngine } from '../templates/template-engine';
import { InvalidSkillNameError } from './errors';
import { parseSkill, type ParsedSkill, type SkillSource } from './parse-skill';
import { ParsedSkillCache } from './parsed-skill-cache';
import { yieldToEventLoop } from '../shared/yield-to-event-loop';
import type { LargeDocumentParser } from '../shared/large-document-parser';
import type { Skill, SkillReferenceDoc, SourceLocation } from './skill';
import { SKILLS_PREFIX, skillDocumentPath, skillNameOfPath, skillNameProblem, skillSiblingPath } from './skill-paths';

/**
 * The only place that materialises skills (seed 000 §3, §10, §11): `_vance/skills/<name>/SKILL.md`
 * through the DocumentCascade — USER → PROJECT → VANCE → RESOURCE, the first hit wins the whole
 * document, and the hit is final: an inner copy that is `enabled: false` or does not parse hides
 * the outer copies instead of falling through to them (an author who breaks an override must not
 * silently get the tenant's version). Activation asks `load`/`listAvailable`, which return only valid,
 * enabled skills; admin surfaces ask `inspect`/`listAll`, which also return disabled and broken ones
 * with their diagnostics. Invocation policy is not filtered here (seed 002): consumers apply
 * `isModelInvocable` / `isUserInvocable`.
 *
 * Reference files (`referenceDocs[].file`) are read from the layer of the SKILL.md only, never
 * re-cascaded (seed 000 §2 "Reference File Layer Pinning"); a missing one is a warning. Script files
 * are checked the same way. Parsed SKILL.md files are cached per document version (DESIGN §4); the
 * sibling reads go through the cascade's own read cache.
 */
export interface LoadedReferenceDoc {
  readonly doc: SkillReferenceDoc;
  /** null when the file is missing from the SKILL.md's layer (there is a warning for it). */
  readonly content: string | null;
}

interface ResolvedSkillBase {
  readonly name: string;
  /** The SKILL.md document path. */
  readonly path: string;
  readonly source: Layer;
  /** Outer layers that also hold this SKILL.md, innermost first. */
  readonly shadowed: readonly Layer[];
  readonly documentVersion: number;
  readonly diagnostics: readonly Diagnostic[];
}

export interface AvailableSkill extends ResolvedSkillBase {
  readonly status: 'AVAILABLE';
  readonly skill: Skill;
  readonly references: readonly LoadedReferenceDoc[];
}

export interface DisabledSkill extends ResolvedSkillBase {
  readonly status: 'DISABLED';
  readonly skill: Skill;
  readonly references: readonly LoadedReferenceDoc[];
}

export interface InvalidSkill extends ResolvedSkillBase {
  readonly status: 'INVALID';
  readonly skill: null;
  readonly references: readonly [];
}

export type ResolvedSkill = AvailableSkill | DisabledSkill | InvalidSkill;
export type ResolvedSkillStatus = ResolvedSkill['status'];

export interface SkillResolverOptions {
  /** Parsed SKILL.md files kept (all tenants together). */
  readonly maxCachedSkills?: number;
  /** Characters of SKILL.md text those may hold together. */
  readonly maxCachedSkillChars?: number;
  /** Where large SKILL.md files are parsed (off the event loop); without it, in place. */
  readonly largeParser?: LargeDocumentParser<SkillSource, ParsedSkill>;
}

export class SkillResolver {
  private readonly cache: ParsedSkillCache;
  private readonly largeParser: LargeDocumentParser<SkillSource, ParsedSkill> | undefined;
  /** Per tenant, the last synchronous parse queued (inTurn). */
  private readonly parsing = new Map<string, Promise<void>>();

  constructor(
    private readonly cascade: DocumentCascade,
    private readonly templates?: TemplateEngine,
    options: SkillResolverOptions = {},
  ) {
    this.cache = new ParsedSkillCache(options.maxCachedSkills, options.maxCachedSkillChars);
    this.largeParser = options.largeParser;
  }

  /** For activation: the winning copy if it is valid and enabled, else null. Throws InvalidSkillNameError. */
  async load(scope: CascadeScope, name: string): Promise<AvailableSkill | null> {
    const resolved = await this.inspect(scope, name);
    return resolved?.status === 'AVAILABLE' ? resolved : null;
  }

  /** For admin views and editors: the winning copy whatever its state, with diagnostics. Throws InvalidSkillNameError. */
  async inspect(scope: CascadeScope, name: string): Promise<ResolvedSkill | null> {
    const problem = skillNameProblem(name);
    if (problem) throw new InvalidSkillNameError(name, problem);
    const hit = await this.cascade.lookupCascade(scope, skillDocumentPath(name));
    return hit ? this.resolve(scope, name, hit) : null;
  }

  /** Seed 000 §10 `resolveAll`: the available skills among `names`, in the given order; unknown names are skipped. */
  async resolveAll(scope: CascadeScope, names: readonly string[]): Promise<AvailableSkill[]> {
    const resolved = await Promise.all(names.map((name) => (skillNameProblem(name) ? null : this.load(scope, name))));
    return resolved.filter((skill): skill is AvailableSkill => skill !== null);
  }

  /** The picker and the auto-trigger list (seed 000 §3, §4a): valid, enabled winners, by name. */
  async listAvailable(scope: CascadeScope): Promise<AvailableSkill[]> {
    return (await this.listAll(scope)).filter((skill): skill is AvailableSkill => skill.status === 'AVAILABLE');
  }

  /** Every winning SKILL.md in the scope, including disabled and broken ones, by name. */
  async listAll(scope: CascadeScope): Promise<ResolvedSkill[]> {
    const hits = await this.cascade.listByPrefixCascade(scope, SKILLS_PREFIX);
    const skills = await Promise.all(
      hits.map((hit) => {
        const name = skillNameOfPath(hit.document.path);
        return name === null ? null : this.resolve(scope, name, hit);
      }),
    );
    return skills.filter((skill): skill is ResolvedSkill => skill !== null).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }

  clearCache(): void {
    this.cache.clear();
  }

  private async resolve(scope: CascadeScope, name: string, hit: CascadeHit): Promise<ResolvedSkill> {
    const parsed = await this.parse(scope.tenantId, name, hit);
    const base = {
      name,
      path: hit.document.path,
      source: hit.source,
      shadowed: hit.shadowed,
      documentVersion: hit.document.version,
    };
    const skill = parsed.skill;
    if (!skill) return { ...base, status: 'INVALID', skill: null, references: [], diagnostics: parsed.diagnostics };
    const siblings = await this.readSiblings(scope, hit.source, skill);
    const diagnostics = [...parsed.diagnostics, ...siblings.diagnostics];
    const status = skill.enabled ? 'AVAILABLE' : 'DISABLED';
    return { ...base, status, skill, references: siblings.references, diagnostics };
  }

  private async parse(tenantId: string, name: string, hit: CascadeHit): Promise<ParsedSkill> {
    const cached = this.cache.get(tenantId, hit.document);
    if (cached) return cached;
    const source = { name, path: hit.document.path, content: hit.document.content };
    const large = this.largeParser && source.content.length >= this.largeParser.minChars ? this.largeParser : null;
    const parsed = large ? await large.parse(source) : await this.inTurn(tenantId, () => parseSkill(source, this.templates));
    this.cache.set(tenantId, hit.document, parsed);
    return parsed;
  }

  /**
   * Runs a synchronous parse in an event-loop turn of its own, after the tenant's earlier ones: a
   * scope's uncached skills would otherwise all parse in one task (the bundled set stalled a
   * server's first turn 75 ms, every tenant waiting). Per tenant, so one tenant's thousand skills
   * do not queue another's one.
   */
  private inTurn<T>(tenantId: string, work: () => T): Promise<T> {
    const previous = this.parsing.get(tenantId) ?? Promise.resolve();
    const next = previous.then(yieldToEventLoop).then(work);
    const settled = next.then(() => undefined, () => undefined);
    this.parsing.set(tenantId, settled);
    void settled.then(() => {
      if (this.parsing.get(tenantId) === settled) this.parsing.delete(tenantId);
    });
    return next;
  }

  /** Reference docs and script files, from the SKILL.md's own layer only (seed 000 §2, §13.1). */
  private async readSiblings(scope: CascadeScope, layer: Layer, skill: Skill): Promise<{ references: LoadedReferenceDoc[]; diagnostics: Diagnostic[] }> {
    const diagnostics: Diagnostic[] = [];
    const path = skillDocumentPath(skill.name);
    const missing = (what: string, file: string, field: string, at: SourceLocation): void => {
      diagnostics.push({
        severity: 'WARNING',
        message: `${what} '${file}' does not exist next to this SKILL.md in the ${layer} layer; sibling files are never taken from another layer.`,
        path,
        line: at.line,
        column: at.column,
        field,
      });
    };
    const references = await Promise.all(
      skill.referenceDocs.map(async (doc, index) => {
        const content = await this.readSibling(scope, layer, skill.name, doc.file);
        if (content === null) missing('Reference file', doc.file, `referenceDocs[${index}].file`, doc.location);
        return { doc, content };
      }),
    );
    await Promise.all(
      skill.scripts.map(async (script, index) => {
        if ((await this.readSibling(scope, layer, skill.name, script.file)) === null) {
          missing('Script file', script.file, `scripts[${index}].file`, script.location);
        }
      }),
    );
    return { references, diagnostics };
  }

  private async readSibling(scope: CascadeScope, layer: Layer, name: string, file: string): Promise<string | null> {
    const doc = await this.cascade.readLayer(scope, layer, skillSiblingPath(name, file));
    return doc?.content ?? null;
  }
}

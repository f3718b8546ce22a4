/**
 * Test support for triggers/ and turn-preparation/ only (not exported from index.ts): skills from
 * SKILL.md text, as listAvailable would return them, without a cascade.
 */
import type { Layer } from '../../cascade/layer';
import { parseSkill } from '../../skills/parse-skill';
import type { AvailableSkill } from '../../skills/skill-resolver';

export interface SkillSpec {
  readonly description?: string;
  /** YAML lines of the frontmatter after title/description/version. */
  readonly frontmatter?: readonly string[];
  readonly body?: string;
  /** Reference file contents by file (null: missing from the layer). */
  readonly files?: Readonly<Record<string, string | null>>;
  readonly source?: Layer;
}

export function skillMd(name: string, spec: SkillSpec = {}): string {
  return ['---', `title: ${name}`, `description: ${spec.description ?? `The ${name} skill`}`, 'version: 1.0.0', ...(spec.frontmatter ?? []), '---', spec.body ?? `Body of ${name}.`].join('\n');
}

/** An AVAILABLE skill; throws when the SKILL.md has an error (a broken fixture). */
export function available(name: string, spec: SkillSpec = {}): AvailableSkill {
  const path = `_vance/skills/${name}/SKILL.md`;
  const parsed = parseSkill({ name, path, content: skillMd(name, spec) });
  if (!parsed.skill) throw new Error(`fixture ${name} does not parse: ${JSON.stringify(parsed.diagnostics)}`);
  const references = parsed.skill.referenceDocs.map((doc) => ({ doc, content: spec.files?.[doc.file] ?? null }));
  return { name, path, source: spec.source ?? 'VANCE', shadowed: [], documentVersion: 1, diagnostics: parsed.diagnostics, status: 'AVAILABLE', skill: parsed.skill, references };
}

/** `keywords: [...]` as one KEYWORDS trigger, with an optional minMatch. */
export function keywords(list: readonly string[], minMatch?: number): string[] {
  return ['  - type: KEYWORDS', `    keywords: [${list.map((k) => JSON.stringify(k)).join(', ')}]`, ...(minMatch === undefined ? [] : [`    minMatch: ${minMatch}`])];
}

export function pattern(source: string): string[] {
  return ['  - type: PATTERN', `    pattern: '${source.replace(/'/g, "''")}'`];
}

export function triggers(...entries: string[][]): string[] {
  return ['triggers:', ...entries.flat()];
}

export const NO_FILTER = { active: [], allowedSkillsOverride: null } as const;

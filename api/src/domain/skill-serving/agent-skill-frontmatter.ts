import { parse, stringify } from 'yaml';
import { splitFrontmatter } from '../skills/split-frontmatter';

/**
 * The six-field Agent Skills view of a Vance SKILL.md (issue 19; agentskills.io/specification):
 * `name`, `description`, `license`, `compatibility`, `metadata`, `allowed-tools`, so that a strict
 * Agent Skills client accepts what Vance serves. The mapping, also in the README's "MCP" section:
 *
 * - `name`: the skill's folder name (Vance never takes it from a `name:` field, seed 000 §2).
 * - `description`: the author's `description` (a string); when it is missing or blank, the `title`,
 *   then the name — the Agent Skills specification requires a non-empty one.
 * - `license`, `compatibility`: as written when they are strings; `allowed-tools` as written when a
 *   string, a list is joined with spaces (the specification's form). Anything else is not served.
 * - `metadata` (a map of strings to strings): the author's own `metadata` entries first (a value that
 *   is not a string becomes its JSON text); then Vance's `version` as `version` unless the author's
 *   metadata already has one (the specification's convention for a version); then every other
 *   field the author wrote (`title`, `triggers`, `tools`, `disable-model-invocation`, …) as
 *   `vance.<field>`, a string as written and anything else as its JSON text.
 *
 * The served SKILL.md is this frontmatter (YAML) between `---` fences followed by the author's body,
 * byte for byte; its parsed frontmatter equals the entry's `frontmatter` (the SEP's host-side check).
 */
export type AgentSkillFrontmatter = {
  readonly name: string;
  readonly description: string;
  readonly [field: string]: unknown;
};

export interface AgentSkillView {
  readonly frontmatter: AgentSkillFrontmatter;
  /** The SKILL.md as served: the six-field frontmatter and the author's body. */
  readonly skillMd: string;
}

const PASSED_THROUGH = ['license', 'compatibility'] as const;
const SPEC_FIELDS = new Set<string>(['name', 'description', 'metadata', 'allowed-tools', ...PASSED_THROUGH]);
/** Metadata keys Vance adds for its own fields (`vance.triggers`, …). */
export const VANCE_METADATA_PREFIX = 'vance.';

export function agentSkillView(name: string, content: string, fallbackDescription: string): AgentSkillView {
  const split = splitFrontmatter(content, '').split;
  // The resolver only hands over skills that parsed, so a missing split cannot happen; an empty view keeps it total.
  const written = split ? asRecord(parse(split.yaml)) : {};
  const frontmatter = mapFrontmatter(name, written, fallbackDescription);
  const skillMd = `---\n${stringify(frontmatter, { lineWidth: 0 })}---\n${split?.body ?? ''}`;
  return { frontmatter, skillMd };
}

function mapFrontmatter(name: string, written: Record<string, unknown>, fallbackDescription: string): AgentSkillFrontmatter {
  const description = nonBlank(written.description) ?? nonBlank(fallbackDescription) ?? name;
  const view: Record<string, unknown> = { name, description };
  for (const field of PASSED_THROUGH) {
    if (typeof written[field] === 'string') view[field] = written[field];
  }
  const metadata: Record<string, string> = {};
  for (const [key, value] of Object.entries(asRecord(written.metadata))) metadata[key] = asText(value);
  if (written.version !== undefined && written.version !== null && metadata.version === undefined) metadata.version = asText(written.version);
  for (const [key, value] of Object.entries(written)) {
    if (SPEC_FIELDS.has(key) || key === 'version' || value === undefined) continue;
    metadata[`${VANCE_METADATA_PREFIX}${key}`] = asText(value);
  }
  if (Object.keys(metadata).length > 0) view.metadata = metadata;
  const tools = written['allowed-tools'];
  if (typeof tools === 'string') view['allowed-tools'] = tools;
  else if (Array.isArray(tools) && tools.every((tool) => typeof tool === 'string')) view['allowed-tools'] = tools.join(' ');
  return view as AgentSkillFrontmatter;
}

function asRecord(value: unknown): Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

function asText(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value) ?? String(value);
}

function nonBlank(value: unknown): string | null {
  return typeof value === 'string' && value.trim() !== '' ? value : null;
}

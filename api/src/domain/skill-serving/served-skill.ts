import { hash } from 'node:crypto';
import type { Layer } from '../cascade/layer';
import type { AvailableSkill } from '../skills/skill-resolver';
import { SKILL_FILE_NAME } from '../skills/skill-paths';
import { agentSkillView, type AgentSkillFrontmatter } from './agent-skill-frontmatter';

/**
 * A skill as Vance publishes it to agents outside (issue 19, the MCP Skills extension): the six-field
 * SKILL.md view (agent-skill-frontmatter.ts) and every other file of the skill's folder in the layer
 * of its SKILL.md (seed 000 §2: files beside a SKILL.md never come from another layer), each with the
 * sha256 digest and byte size of exactly the text served. Transport-neutral: the MCP adapter turns
 * it into `skill://` entries.
 */
export interface ServedFile {
  /** Relative to the skill folder: `SKILL.md`, `references/checklist.md`, `scripts/peek.js`. */
  readonly path: string;
  readonly text: string;
  /** `sha256:<64 lowercase hex>` over the UTF-8 bytes of `text`. */
  readonly digest: string;
  /** Bytes of `text` in UTF-8. */
  readonly size: number;
  readonly mimeType: string;
}

export interface ServedSkill {
  readonly name: string;
  readonly frontmatter: AgentSkillFrontmatter;
  /** SKILL.md first, then the other files by path. */
  readonly files: readonly ServedFile[];
  /** One digest for the whole skill: over every file's path and digest, so a change to any file changes it. */
  readonly digest: string;
  readonly source: Layer;
  readonly shadowed: readonly Layer[];
  /** The SKILL.md's version in its layer. */
  readonly documentVersion: number;
}

/** A file of the skill's folder other than SKILL.md, relative to the folder. */
export interface SkillFolderFile {
  readonly path: string;
  readonly content: string;
}

export function serveSkill(resolved: AvailableSkill, content: string, folder: readonly SkillFolderFile[]): ServedSkill {
  const view = agentSkillView(resolved.name, content, resolved.skill.title);
  const others = folder.filter((file) => file.path !== SKILL_FILE_NAME).sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const files = [servedFile(SKILL_FILE_NAME, view.skillMd), ...others.map((file) => servedFile(file.path, file.content))];
  return {
    name: resolved.name,
    frontmatter: view.frontmatter,
    files,
    digest: sha256(files.map((file) => `${file.path}\n${file.digest}\n`).join('')),
    source: resolved.source,
    shadowed: resolved.shadowed,
    documentVersion: resolved.documentVersion,
  };
}

function servedFile(path: string, text: string): ServedFile {
  return { path, text, digest: sha256(text), size: Buffer.byteLength(text, 'utf8'), mimeType: mimeTypeOf(path) };
}

function sha256(text: string): string {
  return `sha256:${hash('sha256', text, 'hex')}`;
}

const MIME_TYPES: Readonly<Record<string, string>> = {
  md: 'text/markdown', markdown: 'text/markdown', txt: 'text/plain', js: 'text/javascript', mjs: 'text/javascript',
  ts: 'text/typescript', py: 'text/x-python', sh: 'text/x-shellscript', json: 'application/json', yaml: 'application/yaml',
  yml: 'application/yaml', html: 'text/html', csv: 'text/csv', xml: 'application/xml',
};

/** Documents are text; the type by extension, `text/plain` when unknown. */
function mimeTypeOf(path: string): string {
  const dot = path.lastIndexOf('.');
  return (dot > path.lastIndexOf('/') ? MIME_TYPES[path.slice(dot + 1).toLowerCase()] : undefined) ?? 'text/plain';
}

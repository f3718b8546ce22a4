import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { ErrorCode, ListResourcesRequestSchema, McpError, ReadResourceRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import type { Logger } from 'pino';
import { z } from 'zod/v4';
import type { CascadeScope } from '../domain/cascade/scope';
import type { ServedSkill, SkillPublisher } from '../domain/skill-serving';
import { SKILL_FILE_NAME } from '../domain/skills/skill-paths';
import { toMcpError } from './mcp-errors';
import { parseSkillUri, skillUri } from './skill-uri';

/**
 * The MCP Skills extension (SEP-2640, `io.modelcontextprotocol/skills`) on one MCP server: `skills/list`
 * (paginated), `skills/get`, and `resources/read` / `resources/list` for `skill://` URIs. The SDK knows
 * none of the skills methods, so they are request handlers with their own schemas. What is served
 * comes from the SkillPublisher (the caller's effective, model-invocable skills); this file only
 * shapes it into the SEP's entries and errors (`-32602` for a skill or file not served).
 *
 * Cache hints (`ttlMs`, `cacheScope`): `private`, because an answer includes the caller's own USER
 * layer; a minute, because a change is also announced (`notifications/resources/list_changed`).
 */
export const SKILLS_EXTENSION = 'io.modelcontextprotocol/skills';
export const CACHE_HINTS = Object.freeze({ ttlMs: 60_000, cacheScope: 'private' });
/** `_meta` keys of a skill entry (Vance's own prefix; `io.modelcontextprotocol.skills/` is reserved). */
export const META = Object.freeze({
  digest: 'vance/digest',
  source: 'vance/source',
  shadows: 'vance/shadows',
  documentVersion: 'vance/documentVersion',
});

const ListSkillsRequestSchema = z.object({
  method: z.literal('skills/list'),
  params: z.looseObject({ cursor: z.string().optional() }).optional(),
});

const GetSkillRequestSchema = z.object({
  method: z.literal('skills/get'),
  params: z.looseObject({ uri: z.string() }),
});

export interface SkillsExtensionOptions {
  readonly publisher: SkillPublisher;
  /** The session's scope, checked again for every request (a caller removed from the project loses it). */
  readonly scope: () => Promise<CascadeScope>;
  readonly pageSize: number;
  readonly logger: Logger;
}

export function registerSkillsExtension(server: Server, options: SkillsExtensionOptions): void {
  const { publisher, scope, pageSize, logger } = options;
  const guarded = <A extends unknown[], R>(handler: (...args: A) => Promise<R>) => async (...args: A): Promise<R> => {
    try {
      return await handler(...args);
    } catch (err) {
      throw toMcpError(err, logger);
    }
  };
  const served = async (uri: string): Promise<{ skill: ServedSkill; file: string }> => {
    const parts = parseSkillUri(uri);
    const skill = parts && (await publisher.get(await scope(), parts.name));
    if (!parts || !skill) throw new McpError(ErrorCode.InvalidParams, `No skill is served at ${uri}`);
    return { skill, file: parts.file };
  };

  server.setRequestHandler(ListSkillsRequestSchema, guarded(async (request) => {
    const { page, nextCursor } = paginate(await publisher.list(await scope()), request.params?.cursor, pageSize);
    return { resultType: 'complete', skills: page.map(skillEntry), ...(nextCursor ? { nextCursor } : {}), ...CACHE_HINTS };
  }));

  server.setRequestHandler(GetSkillRequestSchema, guarded(async (request) => {
    const { skill, file } = await served(request.params.uri);
    // params.uri must be the skill's SKILL.md (SEP: skills/get).
    if (file !== SKILL_FILE_NAME) throw new McpError(ErrorCode.InvalidParams, `No skill is served at ${request.params.uri}`);
    return { resultType: 'complete', skill: skillEntry(skill), ...CACHE_HINTS };
  }));

  server.setRequestHandler(ReadResourceRequestSchema, guarded(async (request) => {
    const { skill, file } = await served(request.params.uri);
    const found = skill.files.find((candidate) => candidate.path === file);
    if (!found) throw new McpError(ErrorCode.InvalidParams, `No resource is served at ${request.params.uri}`);
    return { resultType: 'complete', contents: [{ uri: request.params.uri, mimeType: found.mimeType, text: found.text }], ...CACHE_HINTS };
  }));

  server.setRequestHandler(ListResourcesRequestSchema, guarded(async (request) => {
    const { page, nextCursor } = paginate(await publisher.list(await scope()), request.params?.cursor, pageSize);
    const resources = page.map((skill) => ({
      uri: skillUri(skill.name),
      name: skill.name,
      description: skill.frontmatter.description,
      mimeType: 'text/markdown',
      size: skill.files[0]!.size,
    }));
    return { resources, ...(nextCursor ? { nextCursor } : {}), ...CACHE_HINTS };
  }));
}

/** Entries made once per served skill (the publisher keeps a ServedSkill until its folder changes). */
const entries = new WeakMap<ServedSkill, Record<string, unknown>>();

/** A SEP `Skill` entry: the SKILL.md's URI, its six-field frontmatter, every file with digest and size. */
export function skillEntry(skill: ServedSkill): Record<string, unknown> {
  let entry = entries.get(skill);
  if (!entry) entries.set(skill, (entry = makeEntry(skill)));
  return entry;
}

function makeEntry(skill: ServedSkill): Record<string, unknown> {
  return {
    uri: skillUri(skill.name),
    frontmatter: skill.frontmatter,
    resources: skill.files.map((file) => ({ uri: skillUri(skill.name, file.path), digest: file.digest, size: file.size })),
    _meta: {
      [META.digest]: skill.digest,
      [META.source]: skill.source,
      [META.shadows]: skill.shadowed,
      [META.documentVersion]: skill.documentVersion,
    },
  };
}

/**
 * Pages by name: the cursor is the last name of the previous page (base64url), so a page stays
 * right when skills are added or removed between the calls. A cursor that does not decode is -32602.
 */
function paginate(skills: readonly ServedSkill[], cursor: string | undefined, pageSize: number): { page: readonly ServedSkill[]; nextCursor: string | null } {
  let start = 0;
  if (cursor !== undefined) {
    const after = Buffer.from(cursor, 'base64url').toString('utf8');
    if (after === '' || Buffer.from(after, 'utf8').toString('base64url') !== cursor) throw new McpError(ErrorCode.InvalidParams, 'Invalid cursor');
    start = skills.findIndex((skill) => skill.name > after);
    if (start < 0) start = skills.length;
  }
  const page = skills.slice(start, start + pageSize);
  const more = start + pageSize < skills.length;
  return { page, nextCursor: more ? Buffer.from(page[page.length - 1]!.name, 'utf8').toString('base64url') : null };
}

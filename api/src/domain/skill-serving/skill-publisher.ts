import { LRUCache } from 'lru-cache';
import type { DocumentCascade } from '../cascade/document-cascade';
import type { LayerDocument } from '../cascade/document';
import type { Layer } from '../cascade/layer';
import { projectIdOfLayer, type CascadeScope } from '../cascade/scope';
import type { LayerTargetResolver } from '../documents/layer-target';
import type { Principal } from '../identity/principal';
import { isModelInvocable } from '../skills/invocation-policy';
import { skillsOnSurface } from '../skills/skill-catalog';
import { SKILL_FILE_NAME, SKILLS_PREFIX, skillNameProblem } from '../skills/skill-paths';
import type { AvailableSkill, SkillResolver } from '../skills/skill-resolver';
import { yieldToEventLoop } from '../shared/yield-to-event-loop';
import { serveSkill, type ServedSkill, type SkillFolderFile } from './served-skill';

/**
 * The SEP's per-skill limits (Limits): a host must accept up to 512 files and 16 MiB in all, and a
 * server should not serve more, so a bigger skill is not published rather than refused by every host.
 */
export const MAX_FILES_PER_SKILL = 512;
export const MAX_BYTES_PER_SKILL = 16 * 1024 * 1024;

/** Uncached skills served in one event-loop task (~0.2 ms each) before the listing yields. */
const SERVES_PER_TASK = 16;

/**
 * The skills Vance publishes to outside agents (issue 19): the caller's effective skills in a project
 * on the MODEL surface only (seed 002 — a skill with `disable-model-invocation` is neither listed nor
 * served), resolved by the one skill resolver (the cascade USER → PROJECT → VANCE → RESOURCE, first hit
 * wins; the USER layer is the caller's own). A project the caller cannot see is NOT_FOUND, exactly as
 * a missing one (the target resolver's check).
 *
 * Serving a skill re-reads its YAML, hashes every file and renders the six-field SKILL.md; the result is
 * kept per (layer, folder contents' versions), so a warm listing of a thousand skills only compares keys.
 */
export interface SkillPublisherOptions {
  /** Characters of served text kept (all tenants together). */
  readonly maxCachedChars?: number;
}

export class SkillPublisher {
  private readonly served: LRUCache<string, ServedSkill>;

  constructor(
    private readonly resolver: SkillResolver,
    private readonly cascade: DocumentCascade,
    private readonly targets: LayerTargetResolver,
    options: SkillPublisherOptions = {},
  ) {
    this.served = new LRUCache({
      maxSize: options.maxCachedChars ?? 32_000_000,
      sizeCalculation: (skill) => Math.max(1, skill.files.reduce((sum, file) => sum + file.text.length + file.path.length, 0)),
    });
  }

  /** Throws NotFoundError for a project the caller cannot see. */
  async scope(principal: Principal, project: string | null | undefined): Promise<CascadeScope> {
    return this.targets.scope(principal, project);
  }

  /** The published skills of the scope, by name. */
  async list(scope: CascadeScope): Promise<ServedSkill[]> {
    const skills = skillsOnSurface(await this.resolver.listAll(scope), 'MODEL') as AvailableSkill[];
    const layers = [...new Set(skills.map((skill) => skill.source))];
    const folders = new Map(await Promise.all(layers.map(async (layer) => [layer, await this.folders(scope, layer)] as const)));
    const served: ServedSkill[] = [];
    let uncachedSinceYield = 0;
    for (const skill of skills) {
      // Serving an uncached skill is ~0.2 ms of YAML and hashing; a cold thousand would hold the event loop for every tenant.
      if (uncachedSinceYield >= SERVES_PER_TASK) {
        uncachedSinceYield = 0;
        await yieldToEventLoop();
      }
      const result = this.serve(scope, skill, folders.get(skill.source)?.get(skill.name) ?? []);
      if (result?.fresh) uncachedSinceYield++;
      if (result) served.push(result.skill);
    }
    return served;
  }

  /** One published skill, or null when the scope does not publish it (missing, disabled, broken, not model-invocable). */
  async get(scope: CascadeScope, name: string): Promise<ServedSkill | null> {
    if (skillNameProblem(name)) return null;
    const skill = await this.resolver.load(scope, name);
    if (!skill || !isModelInvocable(skill.skill)) return null;
    const docs = await this.cascade.listLayer(scope, skill.source, `${SKILLS_PREFIX}${name}/`);
    return this.serve(scope, skill, docs)?.skill ?? null;
  }

  /** Every skill folder of one layer: the documents under `_vance/skills/<name>/`, by name. */
  private async folders(scope: CascadeScope, layer: Layer): Promise<Map<string, LayerDocument[]>> {
    const byName = new Map<string, LayerDocument[]>();
    for (const doc of await this.cascade.listLayer(scope, layer, SKILLS_PREFIX)) {
      const slash = doc.path.indexOf('/', SKILLS_PREFIX.length);
      if (slash < 0) continue;
      const name = doc.path.slice(SKILLS_PREFIX.length, slash);
      const folder = byName.get(name);
      if (folder) folder.push(doc);
      else byName.set(name, [doc]);
    }
    return byName;
  }

  /** The served skill, and whether it was made now (not from the cache); null when its SKILL.md is not among `docs`. */
  private serve(scope: CascadeScope, skill: AvailableSkill, docs: readonly LayerDocument[]): { skill: ServedSkill; fresh: boolean } | null {
    const folderPrefix = `${SKILLS_PREFIX}${skill.name}/`;
    const inFolder = docs.filter((doc) => doc.path.startsWith(folderPrefix));
    // The SKILL.md comes from the same read as its siblings, so a listing serves one consistent folder.
    const skillMd = inFolder.find((doc) => doc.path === folderPrefix + SKILL_FILE_NAME);
    if (!skillMd) return null; // deleted between the two reads: not published in this answer
    const key = [scope.tenantId, skill.source, projectIdOfLayer(scope, skill.source) ?? '', skill.name, ...inFolder.map((doc) => `${doc.path}@${doc.version}`)].join('\0');
    const cached = this.served.get(key);
    if (cached) return withinLimits(cached) ? { skill: cached, fresh: false } : null;
    const files: SkillFolderFile[] = inFolder.map((doc) => ({ path: doc.path.slice(folderPrefix.length), content: doc.content }));
    const served = serveSkill({ ...skill, documentVersion: skillMd.version }, skillMd.content, files);
    // Kept in the cache either way, so an oversized skill is not hashed again on every listing.
    this.served.set(key, served);
    return withinLimits(served) ? { skill: served, fresh: true } : null;
  }
}

function withinLimits(skill: ServedSkill): boolean {
  return skill.files.length <= MAX_FILES_PER_SKILL && skill.files.reduce((sum, file) => sum + file.size, 0) <= MAX_BYTES_PER_SKILL;
}

/**
 * For the built-in tool tests only: the document fixture (domain/testing) with the real Manuals,
 * RecipeLoader, SkillResolver and DocumentService around it, a process of alice's in `alpha`, and a
 * recording fake of the ProcessService surface the process tools use (there is no in-memory
 * ProcessStore yet).
 */
import type { ResourceDocument } from '../../cascade/document';
import type { Principal } from '../../identity/principal';
import type { ActiveSkillRef, PendingMessage, Process, Session } from '../../processes/process';
import type { SpawnProcessInput } from '../../processes/process-service';
import type { NewPendingMessage } from '../../processes/process-store';
import { Manuals } from '../../recipes/manuals';
import { RecipeLoader } from '../../recipes/recipe-loader';
import { SkillResolver } from '../../skills/skill-resolver';
import { createDocumentFixture, type DocumentFixture } from '../../testing';
import type { ToolInvocationContext } from '../server-tool';
import { createBuiltinTools } from './create-builtin-tools';
import type { ProcessToolService } from './process-tools';

export const RESOURCES: ResourceDocument[] = [
  { path: '_vance/recipes/analyze.yaml', content: 'engine: ford\ndescription: Analyse material at hand\ntags: [analysis]\nparams:\n  maxIterations: 5\n' },
  { path: '_vance/recipes/arthur.yaml', content: 'engine: arthur\ndescription: The chat coordinator\nprotected: true\n' },
  { path: '_vance/recipes/globex-agent.yaml', content: 'engine: ford\ndescription: Only for globex\ntenants: [globex]\n' },
  { path: '_vance/manuals/getting-started.md', content: '# Getting started\nBundled.' },
  { path: '_vance/manuals/shared.md', content: 'general shared' },
  { path: 'review/manuals/shared.md', content: 'review-specific shared' },
  { path: 'review/manuals/review-howto.md', content: 'How to review' },
  {
    path: '_vance/skills/code-review/SKILL.md',
    content: [
      '---', 'title: Code review', 'description: Review changes', 'version: 1.0.0',
      'manualPaths: [review/manuals/]',
      'referenceDocs:',
      '  - file: references/checklist.md', '    title: Checklist', '    loadMode: ON_DEMAND', '    summary: The full checklist',
      '  - file: references/style.md', '    title: Style guide',
      '  - file: references/missing.md', '    title: Ghost', '    loadMode: ON_DEMAND',
      '---', 'Review carefully.',
    ].join('\n'),
  },
  { path: '_vance/skills/code-review/references/checklist.md', content: '1. Tests\n2. Names' },
  { path: '_vance/skills/code-review/references/style.md', content: 'Short lines.' },
  { path: '_vance/skills/other/SKILL.md', content: ['---', 'title: Other', 'description: Another skill', 'version: 1.0.0', '---', 'Body'].join('\n') },
];

export function skillRef(name: string): ActiveSkillRef {
  return { name, resolvedFromScope: 'RESOURCE', oneShot: false, fromRecipe: false, activatedAt: '2026-01-01T00:00:00.000Z', args: null, reason: 'test' };
}

export function makeProcess(principal: Principal, projectId: string, over: Partial<Process> = {}): Process {
  return {
    id: 'p-coordinator', tenantId: principal.tenant.id, projectId, sessionId: 's-1', userId: principal.user.id, name: 'chat',
    parentProcessId: null, status: 'IDLE', engine: 'arthur', recipeName: 'arthur', recipeSource: 'RESOURCE', connectionProfile: 'web', mode: 'NORMAL', title: null, goal: null,
    activeSkills: [], allowedSkillsOverride: null, locked: false, engineParams: {}, promptOverride: null, profileAppend: null,
    promptMode: 'APPEND', dataRelayCorrectionOverride: null, toolAdjustments: { add: [], remove: [], keep: [], dropFirst: [], defer: [] },
    guards: [], recipeGuards: [], guardRounds: {}, guardScratch: {}, openSkills: [], skillUses: {}, turnRequestedAt: null, createdAt: new Date('2026-01-01T00:00:00Z'), updatedAt: new Date('2026-01-01T00:00:00Z'),
    ...over,
  };
}

/** Records spawns and queued messages; knows the processes it was given or spawned. */
export class FakeProcesses implements ProcessToolService {
  readonly spawns: SpawnProcessInput[] = [];
  readonly queued: { processId: string; messages: NewPendingMessage[]; reason: string }[] = [];
  readonly processes: Process[] = [];
  readonly sessions: Session[] = [];

  async spawn(principal: Principal, input: SpawnProcessInput): Promise<Process> {
    this.spawns.push(input);
    const parent = this.processes.find((p) => p.id === input.parentProcessId);
    const session = this.sessions.find((s) => s.name === input.session);
    const child = makeProcess(principal, parent?.projectId ?? 'unknown', {
      id: `p-${this.processes.length + 1}`, name: input.name ?? input.recipe ?? 'worker', sessionId: session?.id ?? 's-new',
      parentProcessId: input.parentProcessId ?? null, engine: 'ford', recipeName: input.recipe ?? null, title: input.title ?? null, goal: input.goal ?? null,
    });
    this.processes.push(child);
    return child;
  }

  async list(_principal: Principal, _project: string, sessionId: string | null): Promise<Process[]> {
    return this.processes.filter((p) => sessionId === null || p.sessionId === sessionId);
  }

  async session(_principal: Principal, sessionId: string): Promise<Session | null> {
    return this.sessions.find((s) => s.id === sessionId) ?? null;
  }

  async queue(process: Process, messages: readonly NewPendingMessage[], reason: string): Promise<{ process: Process; queued: PendingMessage[] }> {
    this.queued.push({ processId: process.id, messages: [...messages], reason });
    const updated = { ...process, turnRequestedAt: new Date() };
    const index = this.processes.findIndex((p) => p.id === process.id);
    if (index >= 0) this.processes[index] = updated;
    return { process: updated, queued: [] };
  }

  async pending(_principal: Principal, processId: string): Promise<PendingMessage[]> {
    return this.queued.filter((q) => q.processId === processId).flatMap((q) => q.messages.map((m, i) => ({
      id: `${processId}-${i}`, processId, sender: m.sender, senderName: m.senderName, content: m.content, createdAt: new Date(), attempts: 0, failure: null, failedAt: null,
    })));
  }
}

export interface BuiltinFixture {
  readonly docs: DocumentFixture;
  readonly processes: FakeProcesses;
  readonly tools: ReturnType<typeof createBuiltinTools>;
  /** The invocation context of a process owned by `who` in `project` (default alice in alpha). */
  ctx(over?: Partial<Process>, who?: Principal, project?: 'alpha' | 'beta' | 'secret'): Promise<ToolInvocationContext>;
}

export async function createBuiltinFixture(resources: ResourceDocument[] = RESOURCES): Promise<BuiltinFixture> {
  const docs = await createDocumentFixture({ resources });
  const processes = new FakeProcesses();
  const tools = createBuiltinTools({
    manuals: new Manuals(docs.cascade),
    recipes: new RecipeLoader({ cascade: docs.cascade }),
    cascade: docs.cascade,
    skills: new SkillResolver(docs.cascade),
    documents: docs.documents,
    processes,
    identity: docs.identity,
  });
  return {
    docs, processes, tools,
    async ctx(over = {}, who = docs.users.alice, project = 'alpha') {
      const projectId = docs.projects[project].id;
      const process = makeProcess(who, projectId, over);
      if (!processes.processes.some((p) => p.id === process.id)) processes.processes.push(process);
      if (!processes.sessions.some((s) => s.id === process.sessionId)) {
        processes.sessions.push({ id: process.sessionId, tenantId: who.tenant.id, projectId, userId: who.user.id, name: 'main', createdAt: new Date() });
      }
      const scope = await docs.identity.scopeOfUser(who.tenant.id, who.user.id, projectId);
      return { principal: who, process, scope };
    },
  };
}

/**
 * What the model sees for a turn (DESIGN §1, issues 5, 6, 8): the system prompt (engine default +
 * recipe prefix rendered with the §5.1 context + engine sections), the skills section with every
 * candidate skill's verdict over the scan window, the tool pool with the turn's own tools (skill
 * scripts, open_skill/close_skill over the budgeted catalog, the session's client tools) and the
 * context budget. The runner runs the composition; composeTurnPreview shows it.
 */
import type { CascadeScope } from '../cascade/scope';
import type { ChatMessage, ToolSpec } from '../llm/model-provider';
import type { Engine } from '../engines/engine';
import type { Process } from '../processes/process';
import { prepareTurn } from '../processes/turn-preparation';
import { DEFAULT_MODEL_SPEC, modelSpecOf, resolveModel, type ResolvedModel } from '../recipes/model-alias';
import { readModelSize, tierFor, type ModelCatalog, type ModelTier } from '../recipes/model-catalog';
import { composeSystemPrompt } from '../recipes/prompt-composition';
import { processRenderContext } from '../processes/render-context';
import { withToolOrigins, type ToolPool } from '../recipes/tool-pool';
import type { ToolDescriptor } from '../tools/tool-descriptor';
import { deferredMetaTools, DeferredToolShelf } from '../tools/deferred-tools';
import { unresolvedReason } from '../tools/unresolved-tools';
import type { ServerTool } from '../tools/server-tool';
import { ToolRegistry } from '../tools/tool-registry';
import { descriptorOf, EMPTY_TOOL_SET } from '../tools/tool-universe';
import type { SourcedTool, ToolOrigin, ToolSourceProblem } from '../tools/tool-source';
import type { ClientToolSpec } from '../client-tools/client-tool';
import type { ChatLogMessage } from './turn';
import { budgetCatalog, fitContext, PendingOpenSkills, skillPickerTools, type BudgetedCatalog, type FittedContext, type SkillVerdict } from '../activation';
import { newestFirst } from '../processes/triggers/trigger-match';
import { composeSkillsSection } from '../processes/turn-preparation/skills-section';
import { positiveInt } from '../shared/positive-int';
import { resolveSampling, type SamplingParams } from '../recipes/sampling-params';
import { buildModelRequest, type ModelRequest } from './model-request';
import { toChatMessages } from './history';
import { messageTokens } from './message-tokens';
import { turnPrivacy, type TurnPrivacy } from './prompt-visibility';
import type { TurnRunnerDeps } from './turn-runner';


export interface PromptSection {
  readonly kind: string;
  readonly text: string;
}

/** What the model sees for a turn (also the composeTurnPreview answer): prompt sections, tools, model. */
export interface TurnComposition {
  readonly model: ResolvedModel;
  readonly tier: ModelTier;
  readonly sections: readonly PromptSection[];
  readonly system: readonly ChatMessage[];
  readonly pool: ToolPool;
  readonly tools: readonly ToolSpec[];
  readonly composedSkills: readonly string[];
  readonly warnings: readonly { skill: string; message: string }[];
  readonly scope: CascadeScope;
  /** This turn's own tools: the composed skills' scripts, the sources' tools, the session's client tools, open_skill/close_skill, tool_list/tool_describe. */
  readonly turnTools: ToolRegistry;
  /** What the tool sources could not offer this turn (a document that does not parse, a pack that is down). */
  readonly toolProblems: readonly ToolSourceProblem[];
  /** The deferred tools (seed 004 §6): what tool_list lists and tool_describe loads for the rest of the turn. */
  readonly deferredTools: DeferredToolShelf;
  /** Every candidate skill's verdict (issue 8). */
  readonly verdicts: readonly SkillVerdict[];
  /** The open `picked` skills of the reply being written (committed when the turn finishes). */
  readonly openSkills: PendingOpenSkills;
  /** open_skill's catalog, when picked skills exist: what the budget cut. */
  readonly catalog: BudgetedCatalog | null;
  /** The token split of the context window and which history messages give way. */
  readonly budget: FittedContext;
  readonly contextWindow: number;
  /** The chat log the composition was made from (the turn's input included), as model messages. */
  readonly history: readonly ChatMessage[];
  /** What of it the owner's USER layer contributed: withheld from everyone else (prompt-visibility.ts). */
  readonly privacy: TurnPrivacy;
  /** The process's sampling params (seed 004 §5c). */
  readonly sampling: SamplingParams;
  /** The first model call's request, built by the function the turn sends with (model-request.ts). */
  readonly request: ModelRequest;
  /** What the templates of this turn were rendered with (seed 004 §5.1), `profileAppend` included. */
  readonly renderContext: Readonly<Record<string, unknown>>;
}

/** Messages a verdict may look back on (the largest useful scanDepth). */
const MAX_SCAN_DEPTH = 64;
const DEFAULT_CONTEXT_WINDOW = 128_000;
/** The share of the context window open_skill's catalog may take (params.skillCatalogShare). */
const DEFAULT_CATALOG_SHARE = 0.05;

export type TurnComposerDeps = Pick<
  TurnRunnerDeps,
  'processes' | 'store' | 'toolbox' | 'tools' | 'skills' | 'skillSets' | 'turnCaches' | 'templates' | 'settings' | 'scripts' | 'clientTools' | 'enginePrompts'
  | 'toolUniverse' | 'principalOf'
>;

export class TurnComposer {
  constructor(
    private readonly deps: TurnComposerDeps,
    private readonly catalog: ModelCatalog,
  ) {}

  /**
   * `given`: the scope to compose in instead of the process's (a process not spawned yet: spawn-preview.ts).
   * `read`: what the caller read already and is still so (beginTurn reads the session's client tools
   * and the chat log).
   */
  async compose(
    process: Process, engine: Engine, upcoming: readonly string[] = [], given?: CascadeScope,
    read: { readonly tools?: readonly ClientToolSpec[]; readonly log?: readonly ChatLogMessage[] } = {},
  ): Promise<TurnComposition> {
    const { processes, templates, skills } = this.deps;
    const readTools = read.tools;
    // Both reads at once (two round trips in parallel on PostgreSQL's pool; issue 18).
    const [messages, registered] = await Promise.all([
      read.log ? [...read.log] : this.deps.store.listMessages(process.tenantId, process.id),
      !this.deps.clientTools ? [] : readTools ?? this.deps.clientTools.toolsOf(process.tenantId, process.sessionId),
    ]);
    const said = messages.filter((m) => m.role === 'user' || m.role === 'assistant').map((m) => m.content);
    const scan = newestFirst([...said, ...upcoming], MAX_SCAN_DEPTH);
    const params = process.engineParams;
    const settings = this.deps.settings.reader(process.tenantId, given ? given.projectId : process.projectId);
    const model = await resolveModel(modelSpecOf(params.model) ?? DEFAULT_MODEL_SPEC, settings);
    const tier = tierFor(this.catalog, model.provider, model.model, readModelSize(params.modelSize) ?? 'AUTO');
    const context = processRenderContext(process, { ...model, tier });
    const scope = given ?? await processes.scopeOf(process);
    const enginePrompt = (await this.deps.enginePrompts?.defaultPrompt(scope, engine.name)) ?? { text: engine.defaultPrompt, source: null };
    const composed = await composeSystemPrompt(templates, enginePrompt.text, {
      promptOverride: process.promptOverride, profileAppend: process.profileAppend, promptMode: process.promptMode,
    }, context);
    const extra = (await engine.promptSections?.({ process, scope })) ?? [];
    const adjustments = process.toolAdjustments;
    const [skillList, sourced] = await Promise.all([
      this.deps.skillSets ? this.deps.skillSets.list(scope) : skills.listAvailable(scope),
      // The tool universe of the scope (issue 19, seed 004 §6.2): documents, packs — cached per scope.
      this.deps.toolUniverse?.toolsFor(scope, () => this.deps.principalOf(process.tenantId, process.userId)) ?? EMPTY_TOOL_SET,
    ]);
    const builtinTools = mergeDescriptors(this.deps.tools.list(), this.deps.toolbox.descriptors());
    // The universe keeps the built-ins' names and offers only object schemas (tool-universe.ts).
    const sourcedTools = sourced.tools;
    const serverTools = sourcedTools.length === 0 ? builtinTools : [...builtinTools, ...sourcedTools.map(descriptorOf)];
    const serverNames = new Set(serverTools.map((t) => t.name));
    // A client tool named like a server tool is not offered: the server's wins (seed 004 §6.2 resolves per turn).
    const clientTools = registered.filter((t) => !serverNames.has(t.name));
    const prepared = await prepareTurn({
      skills: skillList,
      activeSkills: process.activeSkills,
      allowedSkillsOverride: process.allowedSkillsOverride,
      message: null,
      templates,
      renderContext: { ...context, profileAppend: composed.profileAppend },
      toolInput: {
        available: clientTools.length === 0 ? serverTools : [...serverTools, ...clientTools.map((t) => ({ name: t.name, labels: t.labels, description: t.description, deferred: t.deferred }))],
        engineAllowed: engine.allowedTools,
        add: adjustments.add, remove: adjustments.remove, keep: adjustments.keep, dropFirst: adjustments.dropFirst, defer: adjustments.defer,
        maxTools: positiveInt(params.maxTools) ?? null,
      },
      indexKey: `${scope.tenantId}/${scope.projectId ?? ''}/${scope.userProjectId}`,
      ...(this.deps.turnCaches ? { caches: this.deps.turnCaches } : {}),
      scan,
      openSkills: process.openSkills,
    });
    const renderContext = { ...context, profileAppend: composed.profileAppend };
    const prompt = [composed.systemPrompt, ...extra.map((s) => s.text)].join('\n\n');
    const sections: PromptSection[] = [{ kind: 'SYSTEM_PROMPT', text: composed.systemPrompt }, ...extra];
    const system: ChatMessage[] = [{ role: 'system', content: prompt }];
    if (prepared.skillsSection.trim() !== '') {
      sections.push({ kind: 'SKILLS', text: prepared.skillsSection });
      system.push({ role: 'system', content: prepared.skillsSection });
    }
    const composedSet = new Set(prepared.composedSkills);
    const scriptTools = this.deps.scripts?.toolsFor(skillList.filter((s) => composedSet.has(s.name))) ?? [];
    const openSkills = new PendingOpenSkills(process.openSkills, prepared.closes);
    const contextWindow = positiveInt(params.contextWindow) ?? DEFAULT_CONTEXT_WINDOW;
    let catalog: BudgetedCatalog | null = null;
    let pickerTools: ServerTool[] = [];
    if (prepared.pickable.length > 0) {
      const share = typeof params.skillCatalogShare === 'number' && params.skillCatalogShare > 0 && params.skillCatalogShare <= 1 ? params.skillCatalogShare : DEFAULT_CATALOG_SHARE;
      catalog = budgetCatalog({
        skills: prepared.pickable.map((s) => ({ name: s.name, description: s.skill.description })),
        uses: process.skillUses, budgetTokens: Math.floor(contextWindow * share), header: 'Skills:',
      });
      pickerTools = skillPickerTools({
        pickable: prepared.pickable, state: openSkills, catalog,
        render: async (skill) => (await composeSkillsSection([{ skill, args: null }], templates, renderContext)).text,
      });
    }
    const ownNames = new Set([...scriptTools, ...pickerTools].map((t) => t.name));
    const turnSourced = sourcedTools.filter((t) => !ownNames.has(t.name));
    const turnTools = new ToolRegistry([...scriptTools, ...pickerTools, ...turnSourced, ...clientTools.map((t) => this.clientTool(process, t))]);
    const shared = turnPrivacy(process, skillList, prepared.composedSkills, scriptTools, prepared.pickable);
    // An engine prompt from the owner's USER layer is as private as a recipe from it.
    const privacy = enginePrompt.source === 'USER' ? { ...shared, prompt: true } : shared;
    // Scripts of the composed skills (seed 000 §13.2) and the picker tools come and go with their skills.
    const own = [...scriptTools, ...pickerTools];
    const pool = withToolOrigins(own.length === 0 ? prepared.toolPool : withTools(prepared.toolPool, own), originsOf(turnSourced, clientTools, scriptTools, pickerTools));
    const specOf = (name: string) => (turnTools.has(name) ? turnTools.specs([name]) : this.deps.toolbox.specs([name]));
    // Deferred tools go without their schemas; tool_list/tool_describe reach them (seed 004 §6, §6.2).
    const labelsOf = new Map(pool.details.map((t) => [t.name, t.labels]));
    const deferredTools = new DeferredToolShelf(pool.deferred.flatMap((name) => specOf(name).map((spec) => ({ ...spec, labels: labelsOf.get(name) ?? [] }))));
    // The pool lists tool_list/tool_describe when anything is deferred; their implementations are the turn's.
    for (const tool of deferredMetaTools(deferredTools)) {
      if (pool.primary.includes(tool.name) && specOf(tool.name).length === 0) turnTools.register(tool);
    }
    const tools = pool.primary.flatMap(specOf);
    const partial = {
      model, tier, sections, system, pool, tools, composedSkills: prepared.composedSkills, warnings: prepared.warnings, scope, turnTools, deferredTools, toolProblems: sourced.problems,
      verdicts: prepared.verdicts, openSkills, catalog, contextWindow, privacy, sampling: resolveSampling({ params }).sampling, renderContext,
    };
    // A preview's upcoming messages are the user messages the turn will add to the log first.
    const history = [...toChatMessages(messages), ...upcoming.map((content): ChatMessage => ({ role: 'user', content }))];
    const fitted = fitHistory({ ...partial, skillsText: prepared.skillsSection }, history);
    return { ...partial, budget: fitted.fitted, history, request: buildModelRequest(partial, fitted.history) };
  }

  /** A registered client tool as a tool of this turn: a call goes to the session's client. */
  private clientTool(process: Process, spec: ClientToolSpec): ServerTool {
    const clientTools = this.deps.clientTools!;
    const timeoutMs = positiveInt(process.engineParams.clientToolTimeoutMs);
    return {
      name: spec.name, labels: spec.labels, description: spec.description, parameters: spec.parameters,
      invoke: (args, ctx) => clientTools.call({
        tenantId: process.tenantId, sessionId: process.sessionId, userId: process.userId, processId: process.id,
        turnId: ctx.turn?.turnId ?? null, kind: 'TOOL', tool: spec.name, arguments: { ...args }, script: null,
      }, timeoutMs),
    };
  }
}

/**
 * The history that fits the context window next to the system prompt, the skills section and the
 * tools (issue 8): oldest messages give way first; a tool result is never kept without the call it
 * answers. The skills section is reserved, never dropped.
 */
export function fitHistory(
  c: Pick<TurnComposition, 'system' | 'sections' | 'tools' | 'contextWindow'> & { readonly skillsText?: string },
  history: ChatMessage[],
): { history: ChatMessage[]; fitted: FittedContext } {
  const skills = c.skillsText ?? c.sections.find((s) => s.kind === 'SKILLS')?.text ?? '';
  const system = c.sections.filter((s) => s.kind !== 'SKILLS').map((s) => s.text).join('\n\n');
  const fitted = fitContext({
    // The tools as the provider gets them: labels are not sent.
    window: c.contextWindow, system, skills, tools: c.tools.map((t) => ({ name: t.name, description: t.description, parameters: t.parameters })),
    // Each message's estimate is kept with it: the whole history is fitted every turn (message-tokens.ts).
    history: history.map((m) => ({ role: m.role, content: messageTokens(m) })),
  });
  const keep = new Set(fitted.kept);
  let kept = history.filter((_m, i) => keep.has(i));
  while (kept.length > 0 && kept[0]!.role === 'tool') kept = kept.slice(1);
  return { history: kept, fitted };
}

/** The pool with the turn's own tools added as primary tools (an entry they satisfy is no longer unresolved). */
function withTools(pool: ToolPool, own: readonly ToolDescriptor[]): ToolPool {
  const names = own.map((t) => t.name);
  const add = (list: readonly string[]): string[] => [...new Set([...list, ...names])].sort();
  const details = new Map(pool.details.map((t) => [t.name, t]));
  for (const t of own) details.set(t.name, { name: t.name, labels: t.labels, placement: 'PRIMARY' });
  const unresolvedTools = pool.unresolvedTools.filter((u) => unresolvedReason(u.entry, own) !== null);
  return {
    ...pool, allowed: add(pool.allowed), primary: add(pool.primary), deferred: pool.deferred.filter((n) => !names.includes(n)),
    details: [...details.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)),
    unresolvedTools, unresolved: [...new Set(unresolvedTools.map((u) => u.entry))],
  };
}

const CLIENT: ToolOrigin = Object.freeze({ kind: 'CLIENT' });
const SCRIPT: ToolOrigin = Object.freeze({ kind: 'SCRIPT' });
const PICKER: ToolOrigin = Object.freeze({ kind: 'PICKER' });

function originsOf(
  sourced: readonly SourcedTool[], client: readonly ClientToolSpec[], scripts: readonly ServerTool[], pickers: readonly ServerTool[],
): ReadonlyMap<string, ToolOrigin> {
  const origins = new Map<string, ToolOrigin>();
  for (const t of sourced) origins.set(t.name, t.origin);
  for (const t of client) origins.set(t.name, CLIENT);
  for (const t of scripts) origins.set(t.name, SCRIPT);
  for (const t of pickers) origins.set(t.name, PICKER);
  return origins;
}

function mergeDescriptors(a: readonly ToolDescriptor[], b: readonly ToolDescriptor[]): ToolDescriptor[] {
  const seen = new Set(a.map((t) => t.name));
  return [...a, ...b.filter((t) => !seen.has(t.name))];
}

import { CachedDocumentReader, DocumentCascade, type DocumentCacheOptions, type DocumentStore, type ResourceLayer } from './domain/cascade';
import { DocumentService } from './domain/documents/document-service';
import { inlineChecker, type DocumentChecker } from './domain/documents/document-validator';
import { createDocumentValidator } from './validation/document-validators';
import type { LargeDocumentParser } from './domain/shared/large-document-parser';
import type { ParseRecipeResult, RecipeInput } from './domain/recipes/parse-recipe';
import type { ParsedSkill, SkillSource } from './domain/skills/parse-skill';
import { LayerTargetResolver } from './domain/documents/layer-target';
import { DOCUMENT_CHANGED_TOPIC, type DocumentChanged } from './domain/events/document-changed';
import type { EventBus } from './domain/events/event-bus';
import { IdentityService } from './domain/identity/identity-service';
import type { IdentityStore } from './domain/identity/identity-store';
import { SettingsService, type SettingsStore } from './domain/settings';
import {
  Manuals, RecipeCatalog, RecipeLoader, RecipePicker, RecipeResolver, type RecipeAuditEntry,
} from './domain/recipes';
import { SkillCatalog, SkillResolver, type BacktrackingAnalyser } from './domain/skills';
import { SkillPublisher } from './domain/skill-serving';
import { createEngineCommandDispatcher } from './domain/processes/commands';
import { ProcessEvents } from './domain/processes/process-events';
import { ProcessLane } from './domain/processes/process-lane';
import { ProcessService } from './domain/processes/process-service';
import { ProcessSpawner } from './domain/processes/process-spawner';
import type { LaneLock, ProcessStore } from './domain/processes/process-store';
import { SkillActivationService, type CommandGateFactory, type TriggerHook } from './domain/processes/skill-activation-service';
import { EngineCommandService } from './domain/processes/engine-command-service';
import { NotFoundError } from './domain/errors';
import { SkillSteer } from './domain/processes/skill-steer';
import { createTriggerHook, SkillSetCache } from './domain/processes/triggers';
import { createTurnCaches } from './domain/processes/turn-preparation';
import type { TemplateEngine } from './domain/templates';
import type { ToolCatalog } from './domain/tools';
import { ARTHUR_DEFAULT_PROMPT, arthurEngine, EnginePrompts, ford, type Engine } from './domain/engines';
import type { ModelProvider } from './domain/llm/model-provider';
import { TurnSlots } from './domain/turns/turn-slots';
import { TurnComposer, TurnRunner, TurnService, type TurnRunnerDeps, type TurnStore } from './domain/turns';
import { SpawnPreview } from './domain/turns/spawn-preview';
import { StaticModelCatalog } from './domain/recipes/model-catalog';
import type { RetryPolicy } from './domain/turns/turn-retry';
import { ToolRegistry } from './domain/tools/tool-registry';
import { createBuiltinTools } from './domain/tools/builtin';
import type { ServerTool } from './domain/tools/server-tool';
import { ClientToolService, type ClientToolStore } from './domain/client-tools';
import { modelPickJudge, SkillEvalService, SkillTriggerBench } from './domain/activation';
import { TemplatePreviewService } from './domain/authoring';
import { GuardRunner, RecipeLlmJsonCaller, activeGuards, runsAt, withGuardScratch } from './domain/guards';
import type { ScriptRunner } from './domain/scripting/script-runner';
import { documentScriptRunner, scriptToolsFor, workspaceBinding } from './domain/scripts';
import { descriptorOf, DocumentToolSource, ToolUniverse, type HttpToolCaller, type ToolSource } from './domain/tools';
import { ProjectTools } from './domain/tools/project-tools';

/** The domain services one Vance instance runs, wired over whatever adapters main.ts chose. */
export interface Services {
  readonly identity: IdentityService;
  readonly targets: LayerTargetResolver;
  readonly documents: DocumentService;
  readonly cascade: DocumentCascade;
  readonly cache: CachedDocumentReader;
  readonly bus: EventBus;
  readonly settings: SettingsService;
  readonly validator: DocumentChecker;
  readonly templates: TemplateEngine;
  readonly skills: SkillResolver;
  readonly skillCatalog: SkillCatalog;
  /** The skills published to outside agents (MCP, issue 19). */
  readonly skillPublisher: SkillPublisher;
  readonly recipes: RecipeLoader;
  readonly recipeCatalog: RecipeCatalog;
  readonly tools: ToolCatalog;
  /** The tools of every ToolSource (documents, packs) per scope, cached until `_vance/tools/` changes (issue 19). */
  readonly toolUniverse: ToolUniverse;
  /** projectTools: a project's tools with their source and labels. */
  readonly projectTools: ProjectTools;
  readonly processes: ProcessService;
  readonly activation: SkillActivationService;
  /** engineCommand: one `//` engine command on a process. */
  readonly engineCommands: EngineCommandService;
  readonly turns: TurnService;
  readonly turnRunner: TurnRunner;
  readonly clientTools: ClientToolService;
  readonly triggerBench: SkillTriggerBench;
  /** skillEvals: a skill's evals.yaml against a project's effective cascade (issue 20). */
  readonly skillEvals: SkillEvalService;
  /** renderTemplate: templates rendered for authors by the turns' engine and limits. */
  readonly templatePreview: TemplatePreviewService;
  /** Stops listening for cross-instance invalidations. */
  dispose(): void;
}

export interface ServiceAdapters {
  readonly identityStore: IdentityStore;
  readonly documentStore: DocumentStore;
  readonly settingsStore: SettingsStore;
  readonly defaultSettings: Readonly<Record<string, string>>;
  readonly bus: EventBus;
  readonly resources: ResourceLayer;
  readonly maxDocumentBytes: number;
  readonly identityCacheTtlMs?: number;
  readonly templates: TemplateEngine;
  /** Save-time advice on trigger patterns that backtrack on other engines (issue 13); none: no advice. */
  readonly backtracking?: BacktrackingAnalyser;
  /** Where documents are validated; default: on the calling thread with `templates` and `backtracking`. */
  readonly documentChecker?: DocumentChecker;
  /** Where large stored skills and recipes are parsed when loaded; default: in place. */
  readonly largeDocuments?: {
    readonly skills: LargeDocumentParser<SkillSource, ParsedSkill>;
    readonly recipes: LargeDocumentParser<RecipeInput, ParseRecipeResult>;
  };
  readonly processStore: ProcessStore;
  readonly laneLock: LaneLock;
  readonly triggers?: TriggerHook;
  readonly turnStore: TurnStore;
  readonly modelProvider: ModelProvider;
  /** Server tools registered beside the built-in ones (tests, extensions). */
  readonly extraTools?: readonly ServerTool[];
  /** Where HTTP tool documents send their calls (server-tools/fetch-http-tool-caller.ts). */
  readonly httpToolCaller?: HttpToolCaller;
  /** Tool sources after the tool documents (MCP packs, …): each is one more entry of the universe (issue 19). */
  readonly toolSources?: readonly ToolSource[];
  readonly onTurnError?: (err: unknown, context: string) => void;
  /** Receives the seed 004 §4 audit line of every resolution with caller overrides. */
  readonly recipeAudit?: (entry: RecipeAuditEntry) => void;
  readonly documentCache?: DocumentCacheOptions;
  /** The sandbox for skill scripts and guards (isolated-vm). */
  readonly scriptRunner: ScriptRunner;
  readonly clientToolStore: ClientToolStore;
  /** How long a turn waits for a client tool's answer (ms). */
  readonly clientToolTimeoutMs?: number;
  /** Turns running at once on this instance, and of one tenant (issue 14). */
  readonly turnSlots?: { readonly total: number; readonly perTenant: number };
  /** A failed turn's retries (issue 14); DEFAULT_RETRY_POLICY without. */
  readonly turnRetry?: RetryPolicy;
  /** Failures that are not a message's fault (a lost database connection): retried, not counted. */
  readonly isTransientError?: (err: unknown) => boolean;
  /** How long a turn's composition events may wait for its next write (ms; tests lift it to count statements). */
  readonly heldEventsMaxDelayMs?: number;
  /** Limit on a script's or guard's own running time (ms); the wall clock allows for the tools and models it waits on. */
  readonly scriptCpuTimeoutMs?: number;
}

export function createServices(adapters: ServiceAdapters): Services {
  const identity = new IdentityService(adapters.identityStore, { cacheTtlMs: adapters.identityCacheTtlMs ?? 5_000 });
  const targets = new LayerTargetResolver(identity);
  const cache = new CachedDocumentReader(adapters.documentStore, adapters.documentCache);
  const cascade = new DocumentCascade(cache, adapters.resources);
  const { templates } = adapters;
  // Tool entries are checked against the catalog below (issue 15), read when a document is validated.
  const validator = adapters.documentChecker ?? inlineChecker(createDocumentValidator(templates, adapters.backtracking, { list: () => tools.list() }));
  const settings = new SettingsService(adapters.settingsStore, targets, adapters.defaultSettings, adapters.identityCacheTtlMs ?? 5_000);
  // The catalog is the registry itself: recipes, skills and previews see exactly the tools a turn can run
  // (issue 15). It is filled below, once the services the built-in tools call exist.
  const toolRegistry = new ToolRegistry();
  const tools: ToolCatalog = toolRegistry;
  const skills = new SkillResolver(cascade, templates, adapters.largeDocuments ? { largeParser: adapters.largeDocuments.skills } : {});
  const documents = new DocumentService({
    targets, cascade, cache, validator, store: adapters.documentStore, maxDocumentBytes: adapters.maxDocumentBytes, siblings: skills,
  });
  const recipes = new RecipeLoader({ cascade, templates, ...(adapters.largeDocuments ? { largeParser: adapters.largeDocuments.recipes } : {}) });
  const engines = new Map<string, Engine>([['ford', ford], ['arthur', arthurEngine(recipes)]]);
  const recipeResolver = new RecipeResolver({ loader: recipes, templates, tools, engineTools: (name) => engines.get(name)?.allowedTools ?? [] });
  const manuals = new Manuals(cascade);
  // The built-in texts are the fallback when no layer holds _vance/prompts/<engine>-prompt.md.
  const enginePrompts = new EnginePrompts(cascade, new Map([['ford', ford.defaultPrompt], ['arthur', ARTHUR_DEFAULT_PROMPT]]));
  const recipeCatalog = new RecipeCatalog({
    loader: recipes,
    resolver: recipeResolver,
    picker: new RecipePicker({ loader: recipes, cascade }),
    manuals,
    targets,
    settings,
    ...(adapters.recipeAudit ? { audit: adapters.recipeAudit } : {}),
    engineDefaults: async (name, scope) => {
      const engine = engines.get(name);
      return engine ? { prompt: (await enginePrompts.defaultPrompt(scope, name)).text, allowedTools: engine.allowedTools } : null;
    },
    // Bound late (as requestPreview): the universe is built below; resolveRecipe's pool sees the scope's tool documents and packs as a turn does.
    serverTools: async (principal, scope) => (await toolUniverse.toolsFor(scope, async () => principal)).tools.map((t) => ({ ...descriptorOf(t), origin: t.origin })),
    // Bound late: the turn composer needs the services below; it is called per request, after they exist.
    requestPreview: (principal, scope, resolution, profile) => spawnPreview.request(principal, scope, resolution, profile),
  });
  // The auto-trigger hot path (seed 000 §4a, DESIGN §4): skill sets and their trigger indexes are
  // cached per scope and dropped when a skill document changes.
  const skillSets = new SkillSetCache(skills);
  const turnCaches = createTurnCaches();
  const processes = new ProcessService({
    store: adapters.processStore,
    lane: new ProcessLane(adapters.laneLock),
    events: new ProcessEvents(adapters.processStore, adapters.onTurnError),
    bus: adapters.bus,
    spawner: new ProcessSpawner({ store: adapters.processStore, recipes: recipeResolver, skills }),
    identity,
    targets,
    settings,
  });
  const builtinTools = createBuiltinTools({ manuals, recipes, cascade, skills, documents, processes, identity });
  const workspace = workspaceBinding(builtinTools);
  const clientTools = new ClientToolService({
    store: adapters.clientToolStore, sessions: adapters.processStore, bus: adapters.bus,
    ...(adapters.onTurnError ? { onLost: adapters.onTurnError } : {}),
    ...(adapters.clientToolTimeoutMs ? { timeoutMs: adapters.clientToolTimeoutMs } : {}),
  });
  const runner = adapters.scriptRunner;
  const cpuTimeoutMs = adapters.scriptCpuTimeoutMs;
  const guards = new GuardRunner({
    runner, workspace, cpuTimeoutMs,
    documents: {
      lookup: async (scope, path) => (await cascade.lookupCascade(scope, path))?.document ?? null,
      // `//project/path` (issue 16): that project's cascade as the process's owner sees it; unreadable reads as missing.
      lookupIn: async (owner, project, path) => {
        const principal = await identity.principalOfUser(owner.tenantId, owner.userId);
        const scope = await targets.scope(principal, project).catch((error: unknown) => {
          if (error instanceof NotFoundError) return null;
          throw error;
        });
        return scope ? (await cascade.lookupCascade(scope, path))?.document ?? null : null;
      },
    },
    llm: new RecipeLlmJsonCaller({ resolver: recipeResolver, settings, provider: adapters.modelProvider }),
    ...(adapters.onTurnError ? { onError: adapters.onTurnError } : {}),
    // On the process's lane (a turn, a steering request): merged into the row as it is now, guard by guard.
    saveState: (process, state) => processes.deps.store.update(process.tenantId, process.id, (current) => ({
      ...(state.rounds ? { guardRounds: state.rounds } : {}),
      ...(state.scratch ? { guardScratch: Object.entries(state.scratch).reduce((all, [key, value]) => withGuardScratch(all, key, value), current.guardScratch) } : {}),
    })),
  });
  // `command` guards at dispatch (seed 004 §1): before each activate:/deactivate: step and each command run
  // directly (engineCommand), outside a turn — no turn events, no tools; a refusal or a guard that cannot run
  // refuses the command (fail-closed).
  const commandGate: CommandGateFactory = ({ principal, process, scope }) => {
    if (!activeGuards(process).some((g) => runsAt(g.trigger, 'command'))) return undefined;
    // The steps of one request in order: each guard run sees the scratch the one before it left.
    let current = process;
    return async ({ command, skill, phase }) => {
      const acting = principal ?? await identity.principalOfUser(process.tenantId, process.userId);
      // A step of a skill from the owner's USER layer is private, and so is what its guards decided (owner-view.ts).
      const isPrivate = skill !== null && scope.userProjectId !== null && (await skills.inspect(scope, skill).catch(() => null))?.source === 'USER';
      // Outside a turn, a guard's run is a process event (processEvents) instead of a GuardRan turn event.
      const emit = async (type: 'GuardRan' | 'ScriptLog', payload: Readonly<Record<string, unknown>>): Promise<void> => {
        if (type !== 'GuardRan') return;
        const failed = payload.failed as { kind: string; message: string } | undefined;
        await processes.deps.events.emit(process, {
          type: 'GUARD_RAN', guard: String(payload.guard), point: 'command', continued: false, skipped: null,
          failed: failed ? { kind: failed.kind, message: failed.message } : null,
          command: command.text, denied: typeof payload.denied === 'string' ? payload.denied : null,
          ...(isPrivate ? { private: true } : {}),
        });
      };
      const checked = await guards.check({ point: 'command', process: current, scope, principal: acting, task: command.text, output: '', emit }, {
        text: command.text, verb: command.verb, args: command.rest, skill, phase,
      });
      current = checked.process;
      return checked.refusal;
    };
  };
  const commands = createEngineCommandDispatcher();
  const activation = new SkillActivationService({
    processes,
    skills,
    steer: new SkillSteer({ skills, templates, commands }),
    triggers: adapters.triggers ?? createTriggerHook({ skillSets, indexes: turnCaches.indexes }),
    commandGate,
  });
  // The `//` surface (seed 000 §2a): one engine command typed by a person, through the same dispatcher and gate.
  const engineCommands = new EngineCommandService({ processes, commands, commandGate });
  for (const tool of [...builtinTools, ...(adapters.extraTools ?? [])]) toolRegistry.register(tool);
  // The per-turn tool universe beyond the built-ins (issue 19, seed 004 §6.2): first source wins a name.
  const toolSources: ToolSource[] = [
    new DocumentToolSource(cascade, tools, {
      http: adapters.httpToolCaller ?? { send: () => Promise.reject(new Error('HTTP tool documents are not wired on this instance')) },
      settings: (process) => settings.reader(process.tenantId, process.projectId),
      script: documentScriptRunner({ runner, workspace, cpuTimeoutMs }),
    }),
    ...(adapters.toolSources ?? []),
  ];
  const toolUniverse = new ToolUniverse(toolSources, { builtins: tools });
  const projectTools = new ProjectTools({ builtins: tools, universe: toolUniverse, scope: (principal, project) => targets.scope(principal, project) });
  const turnDeps: TurnRunnerDeps = {
    processes, activation, store: adapters.turnStore, bus: adapters.bus, provider: adapters.modelProvider,
    toolbox: toolRegistry, tools, toolUniverse, skills, skillSets, turnCaches, templates, settings, engines, enginePrompts,
    principalOf: (tenantId, userId) => identity.principalOfUser(tenantId, userId),
    ...(adapters.onTurnError ? { onError: adapters.onTurnError } : {}),
    scripts: { toolsFor: (composed) => scriptToolsFor(composed, { runner, files: cascade, clientTools, workspace, cpuTimeoutMs }) },
    clientTools,
    guards,
    ...(adapters.turnSlots ? { slots: new TurnSlots(adapters.turnSlots.total, adapters.turnSlots.perTenant) } : {}),
    ...(adapters.turnRetry ? { retry: adapters.turnRetry } : {}),
    ...(adapters.isTransientError ? { isTransient: adapters.isTransientError } : {}),
    ...(adapters.heldEventsMaxDelayMs !== undefined ? { heldEventsMaxDelayMs: adapters.heldEventsMaxDelayMs } : {}),
  };
  const turnRunner = new TurnRunner(turnDeps);
  // resolveRecipe's request: the spawn snapshot through the same composer and request builder as a turn.
  const spawnPreview = new SpawnPreview({
    composer: new TurnComposer(turnDeps, new StaticModelCatalog()), engines,
    recipeSkills: (scope, resolution) => processes.deps.spawner.recipeSkills(scope, resolution),
  });
  const templatePreview = new TemplatePreviewService({
    templates,
    defaultContext: async (principal, project, recipe) => (await recipeCatalog.resolve(principal, { name: recipe, project })).renderContext,
  });
  const triggerBench = new SkillTriggerBench({
    scope: (principal, project) => targets.scope(principal, project),
    skills: (scope) => skillSets.list(scope),
    indexes: turnCaches.indexes,
    resolveRecipe: (principal, name, project) => recipeCatalog.resolve(principal, { name, project }),
  });
  const skillEvals = new SkillEvalService({
    scope: (principal, project) => targets.scope(principal, project),
    skills: (scope) => skillSets.list(scope),
    indexes: turnCaches.indexes,
    lookup: async (scope, path) => {
      const hit = await cascade.lookupCascade(scope, path);
      return hit ? { content: hit.document.content, source: hit.source } : null;
    },
    resolveRecipe: async (principal, name, project) => {
      const r = await recipeCatalog.resolve(principal, { name, project });
      return { name: r.recipe?.name ?? name, allowedSkills: r.allowedSkills, defaultActiveSkills: r.defaultActiveSkills };
    },
    judge: (scope) => modelPickJudge(adapters.modelProvider, settings.reader(scope.tenantId, scope.projectId)),
    read: async (principal, layer, project, path) => (await documents.get(principal, layer, project, path))?.content ?? null,
    write: async (principal, layer, project, path, content) => {
      await documents.put(principal, layer, project, path, content);
    },
  });
  const turns = new TurnService({ processes, store: adapters.turnStore, runner: turnRunner, bus: adapters.bus });
  // Writes on other instances arrive through the bus (LISTEN/NOTIFY); local writes invalidate directly too.
  const unsubscribe = adapters.bus.subscribe<DocumentChanged>(DOCUMENT_CHANGED_TOPIC, (e) => {
    cache.invalidate(e.projectId);
    skillSets.onDocumentChanged(e);
    toolUniverse.onDocumentChanged(e);
  });
  // After a gap (bus reconnect) we cannot know what changed elsewhere: start cold.
  const unsubscribeGaps = adapters.bus.onMissedEvents(() => {
    cache.clear();
    skillSets.clear();
    toolUniverse.clear();
  });
  const dispose = () => {
    unsubscribe();
    unsubscribeGaps();
    clientTools.close();
  };
  return {
    identity, targets, documents, cascade, cache, settings, validator, templates, tools, toolUniverse, projectTools,
    skills, skillCatalog: new SkillCatalog(skills, targets), skillPublisher: new SkillPublisher(skills, cascade, targets), recipes, recipeCatalog, processes, activation, engineCommands, turns, turnRunner, clientTools, triggerBench, skillEvals, templatePreview, bus: adapters.bus, dispose,
  };
}

/** The shapes of schema.graphql the dashboard reads (hand-written; the schema is the contract). */
export type Layer = 'USER' | 'PROJECT' | 'VANCE' | 'RESOURCE';
export const LAYERS: readonly Layer[] = ['USER', 'PROJECT', 'VANCE', 'RESOURCE'];
export const WRITABLE_LAYERS: readonly Exclude<Layer, 'RESOURCE'>[] = ['USER', 'PROJECT', 'VANCE'];

export interface Diagnostic {
  severity: 'ERROR' | 'WARNING';
  message: string;
  path: string | null;
  line: number | null;
  column: number | null;
  field: string | null;
}

export type TemplateKind = 'PROMPT' | 'SKILL_BODY' | 'ACTION';
/** renderTemplate's answer: the output, or why and where the template failed (line/column in the template). */
export interface TemplateRender {
  output: string | null;
  error: { code: string; message: string; line: number | null; column: number | null } | null;
  context: Record<string, unknown>;
}

export interface Me { id: string; login: string; role: 'SYSTEM_ADMIN' | 'TENANT_ADMIN' | 'MEMBER'; tenant: { name: string } }
/** Project.myPermissions: what the caller may do in the project (schema.graphql). */
export type ProjectPermission = 'READ' | 'WRITE_USER_LAYER' | 'WRITE_PROJECT_LAYER' | 'WRITE_TENANT_LAYER' | 'FORCE_SAVE' | 'MANAGE_MEMBERS' | 'ADMINISTER_TENANT';
export interface Project { id: string; name: string; kind: 'NORMAL' | 'SYSTEM'; myRole: 'ADMIN' | 'MEMBER' | null; myPermissions: ProjectPermission[]; createdAt: string }
export interface UserRow { id: string; login: string; role: Me['role']; createdAt: string }
export interface ProjectMember { project: string; login: string; role: 'ADMIN' | 'MEMBER' }

export interface VanceDocument {
  layer: Layer;
  project: string | null;
  path: string;
  content: string;
  version: number;
  size: number;
  updatedAt: string | null;
  updatedBy: string | null;
  diagnostics: Diagnostic[];
}
export interface DocumentRow extends Omit<VanceDocument, 'content' | 'diagnostics'> { id: string }
export interface EffectiveDocument { document: VanceDocument; source: Layer; shadowed: Layer[] }
export interface DocumentRevision { version: number; content: string | null; deleted: boolean; createdAt: string; author: string | null }

export interface SkillTrigger { type: string; pattern: string | null; keywords: string[] | null; minMatch: number | null }
export interface Skill {
  id: string;
  name: string;
  path: string;
  source: Layer;
  shadowed: Layer[];
  documentVersion: number;
  status: 'AVAILABLE' | 'DISABLED' | 'INVALID';
  title: string | null;
  description: string | null;
  tags: string[];
  tools: string[];
  lifecycle: string | null;
  triggers: SkillTrigger[];
  argumentsMode: string;
  run: { target: string; recipe: string | null } | null;
  modelInvocable: boolean;
  userInvocable: boolean;
  diagnostics: Diagnostic[];
}
export interface SkillVerdict { skill: string; on: boolean; reason: string; when: string | null; source: Layer | null }

export interface RecipeSummary { id: string; name: string; description: string; engine: string; tags: string[]; locked: boolean; source: string }
export interface Recipe {
  id: string;
  name: string;
  path: string;
  source: Layer;
  shadowed: Layer[];
  valid: boolean;
  diagnostics: Diagnostic[];
  description: string | null;
  engine: string | null;
  title: string | null;
  category: string | null;
  locked: boolean;
  listed: boolean;
  defaultActiveSkills: string[];
  allowedSkills: string[] | null;
  profiles: { name: string }[];
}
export interface ListedRecipes {
  categories: { id: string; title: Record<string, string> | null }[];
  recipes: { name: string; title: string | null; description: string; category: string | null }[];
  warnings: Diagnostic[];
}
export interface ResolvedRecipe {
  kind: string;
  recipe: { name: string; source: Layer; reason: string } | null;
  engine: string;
  params: Record<string, unknown>;
  overriddenKeys: string[];
  profile: { profile: string | null; match: string; block: string | null };
  promptMode: string;
  promptTemplate: string | null;
  profileAppendTemplate: string | null;
  systemPromptPreview: string | null;
  tools: { unrestricted: boolean; allowed: string[]; primary: string[]; deferred: string[]; removed: string[]; unresolved: string[] };
  allowedSkills: string[] | null;
  defaultActiveSkills: string[];
  locked: boolean;
  model: { provider: string; model: string; tier: string; chain: string[] } | null;
  warnings: Diagnostic[];
}

export interface ActiveSkill { name: string; source: Layer; oneShot: boolean; fromRecipe: boolean; activatedAt: string; args: string | null; reason: string }
/** A guard the `guard` commands installed; it runs at `stop` with the default round cap. */
export interface RuntimeGuard { kind: 'SCRIPT' | 'INLINE'; path: string | null; body: string | null; installedBy: string | null }
export type GuardTrigger = 'start' | 'command' | 'stop' | 'terminate' | 'both';
/** A recipe's `guard:` entry as snapshotted at spawn (seed 004 §6d); Process.recipeGuards is JSON in the schema. */
export interface RecipeGuard {
  script: { kind: 'PATH'; path: string } | { kind: 'INLINE'; body: string };
  params: Record<string, unknown>;
  trigger: GuardTrigger;
  maxRounds: number | null;
  allowTools: boolean;
}
export interface PendingMessage { id: string; sender: string; senderName: string; content: string; createdAt: string }
export interface Process {
  id: string;
  name: string;
  /** What it is, for people (a spawn skill's title, or given at spawn). */
  title: string | null;
  /** Its task (a spawn skill's rendered action, process_spawn's goal). */
  goal: string | null;
  project: string;
  session: { id: string; name: string };
  status: string;
  engine: string;
  recipe: string | null;
  recipeSource: Layer | null;
  activeSkills: ActiveSkill[];
  allowedSkills: string[] | null;
  locked: boolean;
  /** The `picked` skills the model has open (issue 8). */
  openSkills: string[];
  guards: RuntimeGuard[];
  recipeGuards: RecipeGuard[];
  /** Guard rounds used since the last user message, by guard key (`recipe:<index>`, `runtime:<path>`, …). */
  guardRounds: Record<string, number>;
  pending: PendingMessage[];
  turnRequestedAt: string | null;
  createdAt: string;
  updatedAt: string;
}
export interface Turn { id: string; status: string; engine: string; finishReason: string | null; errorMessage: string | null; startedAt: string; finishedAt: string | null }
export interface ChatLogMessage { id: string; role: string; senderName: string | null; content: string; turnId: string | null; createdAt: string }
/** Token split of the context window (TurnPreview.tokens and PromptComposed.tokens). */
export interface TokenSplit { system: number; skills: number; history: number; tools: number; total: number; window: number }
/** open_skill's catalog: what the catalog budget cut, per skill. */
export interface SkillCatalog { summary: string; cuts: { skill: string; cut: string }[] }
/** The activation part of composeTurnPreview: the next turn's verdicts, open skills and context budget. */
export interface TurnActivation {
  verdicts: SkillVerdict[];
  openSkills: string[];
  tokens: TokenSplit;
  budget: string;
  droppedHistory: number;
  catalog: SkillCatalog | null;
}
export interface TurnEvent { id: string; processId: string; turnId: string; type: string; payload: Record<string, unknown>; at: string }

export interface Setting { id: string; key: string; value: string | null; secret: boolean; hasValue: boolean; source: string | null; updatedAt: string | null }

/** skillCommand's answer (SkillCommandResult): kind ACTIVATE, CLEAR or LIST with its one-line message. */
export interface SkillCommandOutcome {
  kind: 'ACTIVATE' | 'CLEAR' | 'LIST';
  message: string;
  activation: { outcome: string; reason: string } | null;
  clear: { cleared: string[]; kept: string[] } | null;
  skills: { name: string; title: string | null; description: string | null; source: Layer; active: boolean }[] | null;
}

/** Where a tool comes from (issue 19): a built-in, a tool document (layer, path), an MCP pack. */
export interface ToolOrigin {
  kind: 'BUILTIN' | 'DOCUMENT' | 'MCP_PACK' | 'CLIENT' | 'SCRIPT' | 'PICKER';
  layer: string | null;
  path: string | null;
  pack: string | null;
}

/** projectTools: a tool the project's turns select from. */
export interface ProjectTool {
  name: string;
  description: string;
  labels: string[];
  deferred: boolean;
  origin: ToolOrigin;
}

export interface ProjectTools {
  tools: ProjectTool[];
  problems: { path: string; message: string }[];
}

/** skillEvals / addSkillEvalCase (issue 20): one skill's trigger evals. */
export interface SkillEvalCase {
  index: number; line: number; kind: 'fires' | 'picked'; messages: string[]; expected: boolean; passed: boolean; skipped: boolean;
  verdict: string; problems: string[]; confusions: string[]; rate: number | null;
}
export interface SkillEvalReport {
  skill: string; path: string; source: Layer; passed: number; failed: number; skipped: number; precision: number | null; recall: number | null;
  confusions: { skill: string; cases: number[] }[]; notes: string[]; cases: SkillEvalCase[];
}

/**
 * The GraphQL operations the dashboard sends, named after schema.graphql's fields. Only these
 * strings speak to the API; the data provider and pages call them through `ops`.
 */
import { gql } from './graphql';
import { session } from './session';
import type {
  ChatLogMessage, Diagnostic, ProjectTools, DocumentRevision, EffectiveDocument, Layer, ListedRecipes, Me, PendingMessage, Process, Project, ProjectMember, Recipe,
  RecipeSummary, ResolvedRecipe, Setting, Skill, SkillCommandOutcome, SkillEvalReport, SkillVerdict, TemplateKind, TemplateRender, Turn, TurnActivation, UserRow, VanceDocument,
} from './types';

const DIAG = 'severity message path line column field';
const DOC = `layer project path content version size updatedAt updatedBy diagnostics { ${DIAG} }`;
const SKILL = `name path source shadowed documentVersion status title description tags tools lifecycle
  triggers { type pattern keywords minMatch } argumentsMode run { target recipe } modelInvocable userInvocable diagnostics { ${DIAG} }`;
const RECIPE = `name path source shadowed valid diagnostics { ${DIAG} } description engine title category locked listed
  defaultActiveSkills allowedSkills profiles { name }`;
const PROCESS = `id name title goal project session { id name } status engine recipe recipeSource allowedSkills locked turnRequestedAt createdAt updatedAt
  activeSkills { name source oneShot fromRecipe activatedAt args reason } pending { id sender senderName content createdAt }
  openSkills recipeGuards guardRounds guards { kind path body installedBy }`;
const SETTING = 'key value secret hasValue source updatedAt';
const EVALS = `skill path source passed failed skipped precision recall confusions { skill cases } notes
  cases { index line kind messages expected passed skipped verdict problems confusions rate }`;

/** The project every project-scoped operation uses (null: the tenant). */
const project = (): string | null => session.project();

export const ops = {
  me: (token?: string) => gql<{ me: Me }>('{ me { id login role tenant { name } } }', {}, token).then((d) => d.me),
  projects: () => gql<{ projects: Project[] }>('{ projects { id name kind myRole myPermissions createdAt } }').then((d) => d.projects),

  documents: (layer: Layer, prefix = '') =>
    gql<{ documents: VanceDocument[] }>(`query($layer: Layer!, $project: String, $prefix: String) { documents(layer: $layer, project: $project, prefix: $prefix) { ${DOC} } }`,
      { layer, project: project(), prefix }).then((d) => d.documents),
  document: (layer: Layer, path: string) =>
    gql<{ document: VanceDocument | null }>(`query($layer: Layer!, $project: String, $path: String!) { document(layer: $layer, project: $project, path: $path) { ${DOC} } }`,
      { layer, project: project(), path }).then((d) => d.document),
  effectiveDocument: (path: string) =>
    gql<{ effectiveDocument: EffectiveDocument | null }>(`query($project: String, $path: String!) { effectiveDocument(project: $project, path: $path) { source shadowed document { ${DOC} } } }`,
      { project: project(), path }).then((d) => d.effectiveDocument),
  documentHistory: (layer: Layer, path: string) =>
    gql<{ documentHistory: DocumentRevision[] }>(`query($layer: Layer!, $project: String, $path: String!) { documentHistory(layer: $layer, project: $project, path: $path) { version content deleted createdAt author } }`,
      { layer, project: project(), path }).then((d) => d.documentHistory),
  /** `force`: write even with validation errors (whoever may write the layer may force; the diagnostics come back). */
  putDocument: (layer: Layer, path: string, content: string, expectedVersion?: number | null, force = false) =>
    gql<{ putDocument: VanceDocument }>(`mutation($layer: Layer!, $project: String, $path: String!, $content: String!, $expectedVersion: Int, $force: Boolean) {
      putDocument(layer: $layer, project: $project, path: $path, content: $content, expectedVersion: $expectedVersion, force: $force) { ${DOC} } }`,
      { layer, project: project(), path, content, expectedVersion: expectedVersion ?? null, force }).then((d) => d.putDocument),
  deleteDocument: (layer: Layer, path: string) =>
    gql<{ deleteDocument: boolean }>('mutation($layer: Layer!, $project: String, $path: String!) { deleteDocument(layer: $layer, project: $project, path: $path) }',
      { layer, project: project(), path }).then((d) => d.deleteDocument),
  /** With a layer other than RESOURCE: also against the documents beside it in that layer of the project. */
  validateDocument: (path: string, content: string, layer?: Layer) =>
    gql<{ validateDocument: Diagnostic[] }>(`query($path: String!, $content: String!, $project: String, $layer: Layer) { validateDocument(path: $path, content: $content, project: $project, layer: $layer) { ${DIAG} } }`,
      { path, content, project: layer && layer !== 'RESOURCE' ? project() : null, layer: layer && layer !== 'RESOURCE' ? layer : null })
      .then((d) => d.validateDocument),
  renderTemplate: (source: string, context: Record<string, unknown> | null, kind: TemplateKind, recipe: string | null) =>
    gql<{ renderTemplate: TemplateRender }>(`query($project: String!, $source: String!, $context: JSON, $kind: TemplateKind, $recipe: String) {
      renderTemplate(project: $project, source: $source, context: $context, kind: $kind, recipe: $recipe) { output error { code message line column } context } }`,
      { project: project(), source, context, kind, recipe }).then((d) => d.renderTemplate),

  skills: () => gql<{ skills: Skill[] }>(`query($project: String) { skills(project: $project) { ${SKILL} } }`, { project: project() }).then((d) => d.skills),
  skill: (name: string) => gql<{ skill: Skill | null }>(`query($name: String!, $project: String) { skill(name: $name, project: $project) { ${SKILL} } }`, { name, project: project() })
    .then((d) => d.skill),
  skillTriggerTest: (messages: string[], recipe: string | null) =>
    gql<{ skillTriggerTest: SkillVerdict[] }>('query($project: String, $messages: [String!]!, $recipe: String) { skillTriggerTest(project: $project, messages: $messages, recipe: $recipe) { skill on reason when source } }',
      { project: project(), messages, recipe }).then((d) => d.skillTriggerTest),
  skillEvals: (skill: string, models = false) =>
    gql<{ skillEvals: SkillEvalReport }>(`query($project: String, $skill: String!, $models: Boolean) { skillEvals(project: $project, skill: $skill, models: $models) { ${EVALS} } }`,
      { project: project(), skill, models })
      .then((d) => d.skillEvals),
  addSkillEvalCase: (layer: Layer, skill: string, messages: string[], fires: boolean, recipe: string | null) =>
    gql<{ addSkillEvalCase: SkillEvalReport }>(`mutation($project: String, $layer: Layer!, $skill: String!, $messages: [String!]!, $fires: Boolean!, $recipe: String) {
      addSkillEvalCase(project: $project, layer: $layer, skill: $skill, messages: $messages, fires: $fires, recipe: $recipe) { ${EVALS} } }`,
    { project: project(), layer, skill, messages, fires, recipe }).then((d) => d.addSkillEvalCase),

  recipes: () => gql<{ recipes: { recipes: Omit<RecipeSummary, 'id'>[] } }>('query($project: String) { recipes(project: $project) { recipes { name description engine tags locked source } } }',
    { project: project() }).then((d) => d.recipes.recipes),
  recipe: (name: string) => gql<{ recipe: Omit<Recipe, 'id'> | null }>(`query($name: String!, $project: String) { recipe(name: $name, project: $project) { ${RECIPE} } }`, { name, project: project() })
    .then((d) => d.recipe),
  projectTools: () => gql<{ projectTools: ProjectTools }>(`query($project: String) { projectTools(project: $project) { tools { name description labels deferred origin { kind layer path pack } } problems { path message } } }`,
    { project: project() }).then((d) => d.projectTools),
  listedRecipes: () => gql<{ listedRecipes: ListedRecipes }>(`query($project: String) { listedRecipes(project: $project) { categories { id title } recipes { name title description category } warnings { ${DIAG} } } }`,
    { project: project() }).then((d) => d.listedRecipes),
  resolveRecipe: (name: string, profile: string | null) =>
    gql<{ resolveRecipe: ResolvedRecipe }>(`query($name: String, $project: String, $profile: String) { resolveRecipe(name: $name, project: $project, profile: $profile) {
      kind recipe { name source reason } engine params overriddenKeys profile { profile match block } promptMode promptTemplate profileAppendTemplate systemPromptPreview
      tools { unrestricted allowed primary deferred removed unresolved } allowedSkills defaultActiveSkills locked model { provider model tier chain } warnings { ${DIAG} } } }`,
      { name, project: project(), profile }).then((d) => d.resolveRecipe),

  processes: (projectName: string) => gql<{ processes: Process[] }>(`query($project: String!) { processes(project: $project) { ${PROCESS} } }`, { project: projectName }).then((d) => d.processes),
  process: (id: string) => gql<{ process: Process }>(`query($id: ID!) { process(id: $id) { ${PROCESS} } }`, { id }).then((d) => d.process),
  spawnProcess: (input: { project: string; recipe?: string | null; name?: string | null }) =>
    gql<{ spawnProcess: Process }>(`mutation($input: SpawnProcessInput!) { spawnProcess(input: $input) { ${PROCESS} } }`, { input }).then((d) => d.spawnProcess),
  skillCompletions: (processId: string, prefix = '') => gql<{ skillCompletions: string[] }>('query($id: ID!, $prefix: String) { skillCompletions(processId: $id, prefix: $prefix) }', { id: processId, prefix })
    .then((d) => d.skillCompletions),
  /** A `/skill …` line from the message box (never sendMessage): activate, clear or list. */
  skillCommand: (processId: string, line: string) =>
    gql<{ skillCommand: SkillCommandOutcome }>(`mutation($id: ID!, $line: String!) { skillCommand(processId: $id, line: $line) {
      kind message activation { outcome reason } clear { cleared kept } skills { name title description source active } } }`, { id: processId, line })
      .then((d) => d.skillCommand),
  activateSkill: (processId: string, name: string, once: boolean) =>
    gql<{ activateSkill: { outcome: string; reason: string } }>('mutation($id: ID!, $name: String!, $once: Boolean) { activateSkill(processId: $id, name: $name, once: $once) { outcome reason } }',
      { id: processId, name, once }).then((d) => d.activateSkill),
  clearSkills: (processId: string, name?: string) =>
    gql<{ clearSkills: { cleared: string[]; kept: string[] } }>('mutation($id: ID!, $name: String) { clearSkills(processId: $id, name: $name) { cleared kept } }', { id: processId, name: name ?? null })
      .then((d) => d.clearSkills),
  sendMessage: (processId: string, text: string) =>
    gql<{ sendMessage: PendingMessage }>('mutation($id: ID!, $text: String!) { sendMessage(processId: $id, text: $text) { id sender senderName content createdAt } }', { id: processId, text })
      .then((d) => d.sendMessage),
  turns: (processId: string) => gql<{ turns: Turn[] }>('query($id: ID!) { turns(processId: $id) { id status engine finishReason errorMessage startedAt finishedAt } }', { id: processId }).then((d) => d.turns),
  messages: (processId: string) => gql<{ messages: ChatLogMessage[] }>('query($id: ID!) { messages(processId: $id) { id role senderName content turnId createdAt } }', { id: processId })
    .then((d) => d.messages),

  /** composeTurnPreview, only its activation fields: verdicts, open skills, token split, budget, catalog. */
  turnActivation: (processId: string) =>
    gql<{ composeTurnPreview: TurnActivation }>('query($id: ID!) { composeTurnPreview(processId: $id) { verdicts { skill on reason when source } openSkills tokens budget droppedHistory catalog } }',
      { id: processId }).then((d) => d.composeTurnPreview),
  regenerateTurn: (processId: string) =>
    gql<{ regenerateTurn: Process }>(`mutation($id: ID!) { regenerateTurn(processId: $id) { ${PROCESS} } }`, { id: processId }).then((d) => d.regenerateTurn),

  settings: (projectName: string | null) => gql<{ settings: Omit<Setting, 'id'>[] }>(`query($project: String) { settings(project: $project) { ${SETTING} } }`, { project: projectName })
    .then((d) => d.settings),
  putSetting: (key: string, value: string | null, projectName: string | null, secret: boolean) =>
    gql<{ putSetting: Omit<Setting, 'id'> }>(`mutation($key: String!, $value: String, $project: String, $secret: Boolean) { putSetting(key: $key, value: $value, project: $project, secret: $secret) { ${SETTING} } }`,
      { key, value, project: projectName, secret }).then((d) => d.putSetting),
  users: () => gql<{ users: UserRow[] }>('{ users { id login role createdAt } }').then((d) => d.users),
  projectMembers: (projectName: string) =>
    gql<{ projectMembers: ProjectMember[] }>('query($project: String!) { projectMembers(project: $project) { project login role } }', { project: projectName })
      .then((d) => d.projectMembers),
  createUser: (login: string, role: string) =>
    gql<{ createUser: { user: { login: string; role: string }; token: string } }>('mutation($login: String!, $role: UserRole!) { createUser(login: $login, role: $role) { user { login role } token } }',
      { login, role }).then((d) => d.createUser),
  createProject: (name: string) => gql<{ createProject: Project }>('mutation($name: String!) { createProject(name: $name) { id name kind myRole myPermissions createdAt } }', { name }).then((d) => d.createProject),
  addProjectMember: (projectName: string, login: string, role: string) =>
    gql<{ addProjectMember: { project: string; login: string; role: string } }>('mutation($project: String!, $login: String!, $role: ProjectRole!) { addProjectMember(project: $project, login: $login, role: $role) { project login role } }',
      { project: projectName, login, role }).then((d) => d.addProjectMember),
};

export type Ops = typeof ops;

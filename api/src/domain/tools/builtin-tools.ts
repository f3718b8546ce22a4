/**
 * The built-in server tools the seeds name (seed 004 §6, §6b, §8, §10; seed 000 §5c), with the
 * labels recipes select them by (`@read`, `@write`, `@side-effect`, `@destructive`, `@executive`).
 * THIS IS THE CATALOG ONLY: the turns issue backs each entry with an implementation and may add
 * more; until then recipes, profiles and the resolver preview are computed against this list.
 * The implemented ones live in builtin/ (createBuiltinTools) with these same labels (a test checks).
 *
 * Label meanings (seed 004 §6.1): `read` has no effect; `write` changes project data; `side-effect`
 * reaches outside the project; `destructive` deletes or wipes (recipes remove it wholesale);
 * `executive` starts or steers processes.
 */
import { StaticToolCatalog, type ToolDescriptor } from './tool-descriptor';

const tool = (name: string, labels: string[], description: string): ToolDescriptor => ({ name, labels, description });

export const BUILTIN_TOOLS: readonly ToolDescriptor[] = Object.freeze([
  tool('respond', ['read', 'chat'], 'Reply to the user or caller (structured respond convention)'),
  tool('whoami', ['read'], 'The current user, tenant and project'),
  tool('current_time', ['read'], 'The current date and time'),
  tool('how_do_i', ['read', 'manual'], 'Answer a how-to question from the manuals'),
  tool('manual_list', ['read', 'docs'], 'List the manuals of the recipe manualPaths'),
  tool('manual_read', ['read', 'docs'], 'Read one manual by name'),
  tool('recipe_list', ['read', 'recipes'], 'The effective recipe catalog of this project'),
  tool('recipe_describe', ['read', 'recipes'], 'The full document of one recipe'),
  tool('skill_reference_doc', ['read', 'skills'], 'Load an ON_DEMAND reference doc of an active skill'),
  tool('process_spawn', ['side-effect', 'executive', 'process'], 'Spawn a worker process from a recipe'),
  tool('process_status', ['read', 'process'], 'The status of a spawned process'),
  tool('process_list', ['read', 'process'], 'The processes of this session'),
  tool('process_stop', ['executive', 'process'], 'Stop a spawned process'),
  tool('workspace_read', ['read', 'workspace'], 'Read a project workspace file'),
  tool('workspace_list', ['read', 'workspace'], 'List project workspace files'),
  tool('workspace_write', ['write', 'workspace'], 'Write a project workspace file'),
  tool('workspace_delete', ['write', 'destructive', 'workspace'], 'Delete a project workspace file'),
  tool('doc_read', ['read', 'docs'], 'Read a project document'),
  tool('doc_list', ['read', 'docs'], 'List project documents'),
  tool('doc_find', ['read', 'docs'], 'Find project documents by name'),
  tool('doc_grep', ['read', 'docs'], 'Search project documents by content'),
  tool('doc_info', ['read', 'docs'], 'Metadata of a project document'),
  tool('doc_link', ['read', 'docs'], 'A vance: link to a document for rich output'),
  tool('doc_write', ['write', 'docs'], 'Create or overwrite a project document'),
  tool('doc_edit', ['write', 'docs'], 'Edit part of a project document'),
  tool('doc_append', ['write', 'docs'], 'Append to a project document'),
  tool('doc_replace_lines', ['write', 'docs'], 'Replace a line range of a project document'),
  tool('doc_delete', ['write', 'destructive', 'docs'], 'Delete a project document (soft)'),
  tool('doc_restore', ['write', 'destructive', 'docs'], 'Restore an earlier version of a project document'),
  tool('doc_purge', ['write', 'destructive', 'docs'], 'Wipe deleted documents for good'),
  tool('memory_search', ['read', 'memory'], 'Search the conversation memory'),
  tool('rag_query', ['read', 'rag'], "Query the project's retrieval index"),
  tool('web_search', ['read', 'side-effect', 'web'], 'Search the web'),
  tool('web_fetch', ['read', 'side-effect', 'web'], 'Fetch a web page'),
]);

export const BUILTIN_TOOL_NAMES: readonly string[] = Object.freeze(BUILTIN_TOOLS.map((t) => t.name));

export function builtinToolCatalog(): StaticToolCatalog {
  return new StaticToolCatalog(BUILTIN_TOOLS);
}

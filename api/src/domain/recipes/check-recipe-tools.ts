/**
 * The tool entries of a recipe checked against a tool catalog at save (issue 15): every entry of
 * the allowedTools* lists and of each profile block's add/remove lists that selects no tool is a
 * WARNING at the entry (tools/unresolved-tool.ts says why). Only where a catalog is given — the
 * validator of putDocument, validateDocument and `vance lint`; loading for a turn skips it. Walks
 * the YAML values as written, so each warning has its entry's own line.
 */
import { unresolvedToolProblem } from '../tools/unresolved-tools';
import type { ToolDescriptor } from '../tools/tool-descriptor';
import type { RecipeDiagnostics, YamlPath } from './recipe-diagnostics';
import { isPlainMap, type PlainMap } from './read-fields';

const RECIPE_TOOL_LISTS = ['allowedToolsAdd', 'allowedToolsRemove', 'allowedToolsKeep', 'allowedToolsDropFirst', 'allowedToolsDefer'] as const;
const PROFILE_TOOL_LISTS = ['allowedToolsAdd', 'allowedToolsRemove'] as const;

export function checkRecipeTools(d: RecipeDiagnostics, doc: PlainMap, tools: readonly ToolDescriptor[]): void {
  for (const key of RECIPE_TOOL_LISTS) checkList(d, doc[key], [key], tools);
  if (!isPlainMap(doc.profiles)) return;
  for (const [name, block] of Object.entries(doc.profiles)) {
    if (!isPlainMap(block)) continue;
    for (const key of PROFILE_TOOL_LISTS) checkList(d, block[key], ['profiles', name, key], tools);
  }
}

function checkList(d: RecipeDiagnostics, value: unknown, path: YamlPath, tools: readonly ToolDescriptor[]): void {
  if (value === null || value === undefined) return;
  const entries: readonly unknown[] = Array.isArray(value) ? value : [value];
  entries.forEach((entry, index) => {
    if (typeof entry !== 'string') return;
    const problem = unresolvedToolProblem(entry, tools);
    const at = Array.isArray(value) ? [...path, index] : path;
    if (problem !== null) d.warning(at, problem);
  });
}

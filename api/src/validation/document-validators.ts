import { skillEvalsDocumentKind } from '../domain/activation/skill-evals-document-kind';
import { DocumentValidator } from '../domain/documents/document-validator';
import { enginePromptDocumentKind } from '../domain/engines/engine-prompt-document-kind';
import { mcpPackDocumentKind } from '../domain/tools/mcp-pack-document-kind';
import { recipeDocumentKind } from '../domain/recipes/recipe-document-kind';
import type { BacktrackingAnalyser } from '../domain/skills';
import { skillDocumentKind } from '../domain/skills';
import type { TemplateEngine } from '../domain/templates/template-engine';
import type { ToolCatalog } from '../domain/tools/tool-descriptor';
import { toolDocumentKind } from '../domain/tools/tool-document-kind';

/**
 * The document kinds Vance validates: one list for the server, its workers and the CLI. `tools`: the
 * catalog that recipe and skill tool entries must select from (a warning otherwise, issue 15).
 */
export function createDocumentValidator(templates?: TemplateEngine, backtracking?: BacktrackingAnalyser, tools?: ToolCatalog): DocumentValidator {
  // MCP packs (`<pack>.mcp.yaml`) before tool documents (`<name>.yaml`): first match wins.
  return new DocumentValidator([
    skillDocumentKind(templates, backtracking, tools), recipeDocumentKind(templates, tools), enginePromptDocumentKind(templates),
    mcpPackDocumentKind(), toolDocumentKind(tools), skillEvalsDocumentKind(),
  ]);
}

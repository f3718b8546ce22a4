import { DocumentValidator } from '../domain/documents/document-validator';
import { enginePromptDocumentKind } from '../domain/engines/engine-prompt-document-kind';
import { recipeDocumentKind } from '../domain/recipes/recipe-document-kind';
import type { BacktrackingAnalyser } from '../domain/skills';
import { skillDocumentKind } from '../domain/skills';
import type { TemplateEngine } from '../domain/templates/template-engine';

/** The document kinds Vance validates: one list for the server, its workers and the CLI. */
export function createDocumentValidator(templates?: TemplateEngine, backtracking?: BacktrackingAnalyser): DocumentValidator {
  return new DocumentValidator([skillDocumentKind(templates, backtracking), recipeDocumentKind(templates), enginePromptDocumentKind(templates)]);
}

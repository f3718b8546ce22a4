export * from './engine-names';
export * from './engine';
export { enginePromptDocumentKind, ENGINE_PROMPT_PATH_PATTERN } from './engine-prompt-document-kind';
export { EnginePrompts, enginePromptPath, ENGINE_PROMPTS_PREFIX, type EnginePrompt } from './engine-prompts';
export { ford, FORD_DEFAULT_PROMPT } from './ford';
export { arthurEngine, recipeCatalogSection, ARTHUR_DEFAULT_PROMPT, ARTHUR_TOOLS, RECIPE_CATALOG_HEADER } from './arthur';
export { runToolLoop } from './tool-loop';
export * from './validator-corrections';

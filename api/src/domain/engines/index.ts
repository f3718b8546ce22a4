export * from './engine-names';
export * from './engine';
export { ford, FORD_DEFAULT_PROMPT } from './ford';
export { arthurEngine, recipeCatalogSection, ARTHUR_DEFAULT_PROMPT, ARTHUR_TOOLS, RECIPE_CATALOG_HEADER } from './arthur';
export { runToolLoop } from './tool-loop';
export * from './validator-corrections';
export { builtinDefaultPrompt, type EngineDefaultPrompt } from './default-prompt';

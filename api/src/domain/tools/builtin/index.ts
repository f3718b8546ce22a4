/** The implemented built-in server tools and the argument-schema subset they use. */
export * from './create-builtin-tools';
export * from './json-schema';
export { manualPathsOf } from './manual-tools';
export { RESPOND_TOOL, respondMessage, respondTool } from './respond-tool';
export { MAX_GOAL_LENGTH, type ProcessToolService } from './process-tools';
export { WORKSPACE_FOLDER, WorkspacePathError, workspaceDocumentPath, workspacePrefix } from './workspace-tools';
export type { BuiltinTool, ProjectNames } from './tool-support';

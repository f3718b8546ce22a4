export { scriptToolsFor, brainBindings, DEFAULT_MAX_TOOL_DEPTH, type ScriptToolDeps } from './script-tools';
export { scriptToolName } from './script-tool-name';
export { scriptParamsSchema } from './script-params-schema';
export { workspaceBinding, type WorkspaceBinding } from './workspace-binding';
export { LogLimiter } from './log-limiter';
export { documentScriptRunner, type DocumentScriptDeps } from './document-script';

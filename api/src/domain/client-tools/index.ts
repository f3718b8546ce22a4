export * from './client-tool';
export type { ClientToolStore } from './client-tool-store';
export { ClientToolService, CLIENT_TOOL_CALLS_TOPIC, CLIENT_TOOL_RESULTS_TOPIC, MAX_CLIENT_TOOLS, type ClientToolInput, type ClientCallOutcome, type ClientToolServiceDeps } from './client-tool-service';

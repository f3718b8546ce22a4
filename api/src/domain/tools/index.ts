/** Tool descriptors, the catalog port, selector matching and why an entry resolves to no tool. */
export * from './tool-descriptor';
export * from './select';
export * from './unresolved-tools';
export * from './server-tool';
export * from './tool-source';
export * from './tool-document';
export * from './parse-tool-document';
export * from './tool-document-kind';
export * from './tool-call-errors';
export * from './http-tool-caller';
export * from './document-tool';
export * from './document-tool-source';
export * from './tool-universe';
export * from './project-tools';
export * from './mcp-pack';
export * from './mcp-tool-names';
export * from './mcp-pack-document-kind';

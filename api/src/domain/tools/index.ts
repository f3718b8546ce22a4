/** Tool descriptors, the catalog port, selector matching and why an entry resolves to no tool. */
export * from './tool-descriptor';
export * from './select';
export * from './unresolved-tools';
export * from './server-tool';
export * from './tool-source';
export * from './mcp-pack';
export * from './mcp-tool-names';
export * from './mcp-pack-document-kind';

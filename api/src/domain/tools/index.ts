/** Tool descriptors, the catalog port, selector matching and the built-in tool list. */
export * from './tool-descriptor';
export * from './select';
export * from './unresolved-tool';
export * from './builtin-tools';
export * from './server-tool';

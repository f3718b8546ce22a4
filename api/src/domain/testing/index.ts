/** In-memory fakes of the domain's ports and a wired document stack, for unit tests only. */
export * from './deferred';
export * from './in-memory-document-store';
export * from './in-memory-identity-store';
export * from './document-fixture';

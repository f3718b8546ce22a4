export * from './template-engine';
export * from './errors';
export * from './template-context';

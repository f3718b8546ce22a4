export * from './template-engine';
export * from './errors';

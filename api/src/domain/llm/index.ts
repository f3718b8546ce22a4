export * from './model-provider';
export * from './errors';

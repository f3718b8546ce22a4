export * from './setting';
export * from './settings-reader';
export * from './settings-store';
export * from './settings-service';

/**
 * Every migration, oldest first, as classes (not a glob) so the same list works from TypeScript
 * (vitest, tsx) and from the compiled JavaScript. Append new migrations here.
 */
import { Init1764500000000 } from './1764500000000-Init';

export const MIGRATIONS = [Init1764500000000];

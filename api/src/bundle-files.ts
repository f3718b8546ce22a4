import fs from 'node:fs';
import path from 'node:path';
import type * as LateModules from './late-modules';

/** The bundled rest of the server beside main.js (build-bundle.ts), and the list of the build's own files in it. */
export const BUNDLE_FILE = 'main.bundle.js';
export const BUNDLE_INPUTS_FILE = 'main.bundle.inputs.json';

/**
 * Whether `folder` holds a bundle that is current: none of the build's own files it was made from
 * is missing or newer than it. A bare `tsc -b api` after `npm run build` rewrites some of them and
 * not the bundle; the server then runs from main.js rather than from stale code. (~200 stats.)
 */
export function bundleIsCurrent(folder: string): boolean {
  try {
    const bundled = fs.statSync(path.join(folder, BUNDLE_FILE)).mtimeMs;
    const inputs = JSON.parse(fs.readFileSync(path.join(folder, BUNDLE_INPUTS_FILE), 'utf8')) as string[];
    return inputs.length > 0 && inputs.every((input) => fs.statSync(path.join(folder, input)).mtimeMs <= bundled);
  } catch {
    return false; // no bundle, no list, or an input gone
  }
}

/** The rest of Vance for main.ts: from the bundle when it is current, else from the build's (or tsx's) own files. */
export function loadLateModules(folder = __dirname): typeof LateModules {
  const bundle = path.join(folder, BUNDLE_FILE);
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require(__filename.endsWith('.js') && bundleIsCurrent(folder) ? bundle : './late-modules') as typeof LateModules;
}

// Whether the compiled CLI (`npm run build`: api/dist) may stand in for the TypeScript sources: it
// exists and its build is at least as new as every file it is built from. Loading the sources
// through tsx costs about a second more CPU than the compiled files (107 modules transpiled or read
// from tsx's cache, issue 18: `vance lint` start), so a development install uses the build when it
// is fresh, and the sources otherwise — never a stale build.
const fs = require('node:fs');
const path = require('node:path');

/** The compiled entry of the CLI, below an api/ folder. */
function compiledEntry(apiDir) {
  return path.join(apiDir, 'dist/api/src/cli/main.js');
}

/**
 * True when `apiDir`'s build (dist/api/tsconfig.tsbuildinfo, written by `tsc -b` at the end of a
 * build) exists with the CLI's entry and is not older than any file under src/ nor the tsconfigs.
 */
function compiledIsFresh(apiDir) {
  let built;
  try {
    built = fs.statSync(path.join(apiDir, 'dist/api/tsconfig.tsbuildinfo')).mtimeMs;
    fs.statSync(compiledEntry(apiDir));
  } catch {
    return false;
  }
  const newer = (file) => {
    try {
      return fs.statSync(file).mtimeMs > built;
    } catch {
      return false; // the root tsconfig.json of a packed install is absent: nothing to compare
    }
  };
  if (newer(path.join(apiDir, 'tsconfig.json')) || newer(path.join(apiDir, '../tsconfig.json'))) return false;
  const pending = [path.join(apiDir, 'src')];
  while (pending.length > 0) {
    const dir = pending.pop();
    let entries;
    try {
      entries = fs.readdirSync(dir, { withFileTypes: true });
    } catch {
      return false;
    }
    for (const entry of entries) {
      const file = path.join(dir, entry.name);
      if (entry.isDirectory()) pending.push(file);
      else if (fs.statSync(file).mtimeMs > built) return false;
    }
  }
  return true;
}

module.exports = { compiledEntry, compiledIsFresh };

#!/usr/bin/env node
// The `vance` CLI: the compiled output of `npm run build` when it is at least as new as the sources
// (compiled-cli.js); from a development install (tsx present) with no fresh build, the TypeScript
// sources, so it is never stale.
const path = require('node:path');
const { compiledEntry, compiledIsFresh } = require('./compiled-cli');

const apiDir = path.join(__dirname, '..');
let fromSource = true;
try {
  require.resolve('tsx/cjs');
} catch {
  fromSource = false;
}
if (fromSource && !compiledIsFresh(apiDir)) {
  require('tsx/cjs');
  require(path.join(apiDir, 'src/cli/main.ts'));
} else {
  require(compiledEntry(apiDir));
}

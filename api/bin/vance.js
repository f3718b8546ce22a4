#!/usr/bin/env node
// The `vance` CLI. From a development install (tsx present) it runs the TypeScript sources, so it
// is never stale; otherwise the compiled output of `npm run build`.
const path = require('node:path');
let fromSource = true;
try {
  require.resolve('tsx/cjs');
} catch {
  fromSource = false;
}
if (fromSource) {
  require('tsx/cjs');
  require(path.join(__dirname, '../src/cli/main.ts'));
} else {
  require(path.join(__dirname, '../dist/api/src/cli/main.js'));
}

import { createRequire } from 'node:module';
import { defineConfig } from 'vitest/config';

const require = createRequire(import.meta.url);

// isolated-vm (later issues) needs forks + --no-node-snapshot; threads with that flag crash (STACK.md §6).
export default defineConfig({
  // One graphql in tests, as in production (CommonJS, where Apollo, graphql-ws and graphql-armor load
  // it too): left alone, Vite resolves our `import 'graphql'` to its ESM build, a second module with
  // its own classes, and `validate(schema, …)` refuses a schema built by the other one.
  resolve: { alias: [{ find: /^graphql$/, replacement: require.resolve('graphql') }] },
  test: {
    pool: 'forks',
    execArgv: ['--no-node-snapshot'],
    include: ['api/src/**/*.test.ts', 'test/**/*.test.ts'],
    // Load: timeouts only catch hangs. The suite must pass on a loaded 2-core machine (another
    // suite, a CPU hog beside it), where a test that takes 5 s unloaded can take many times that;
    // speed is measured in benchmarks (npm run bench), never asserted here.
    testTimeout: 120_000,
    hookTimeout: 180_000,
  },
});

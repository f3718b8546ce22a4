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
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});

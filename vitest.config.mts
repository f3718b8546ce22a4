import { defineConfig } from 'vitest/config';

// isolated-vm (later issues) needs forks + --no-node-snapshot; threads with that flag crash (STACK.md §6).
export default defineConfig({
  test: {
    pool: 'forks',
    execArgv: ['--no-node-snapshot'],
    include: ['api/src/**/*.test.ts', 'test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});

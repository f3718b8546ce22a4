// ESLint flat config (ESLint 10 + typescript-eslint 8). Owns: lint rules for api/src and test/.
// Deliberately syntax-only (no type-checked rules) so `npm run lint` stays fast; `npm run typecheck`
// is the type gate. The one architectural rule lives here: api/src/domain stays pure (DESIGN §2).
import { defineConfig, globalIgnores } from 'eslint/config';
import { builtinRules } from 'eslint/use-at-your-own-risk';
import tseslint from 'typescript-eslint';

// ESLint's core "recommended" set, read from the rules' own metadata because @eslint/js (which ships
// it as `js.configs.recommended`) is not a devDependency. typescript-eslint's recommended config, which
// comes after, switches off the core rules that TypeScript itself covers (no-undef, no-redeclare, ...).
const coreRecommended = {
  name: 'vance/core-recommended',
  rules: Object.fromEntries(
    [...builtinRules]
      .filter(([, rule]) => rule.meta?.docs?.recommended === true)
      .map(([name]) => [name, 'error']),
  ),
};

const PURE_DOMAIN_MESSAGE =
  'api/src/domain stays pure (DESIGN §2): declare a port and wire an adapter in main.ts';

// Packages the domain must never import (drivers, transports, sandbox, renderer, LLM SDKs, logging).
const FORBIDDEN_PACKAGES = [
  'graphql',
  'graphql/*',
  'graphql-ws',
  'graphql-ws/*',
  'typeorm',
  'typeorm/*',
  'pg',
  'pg/*',
  '@electric-sql/*',
  'ws',
  'nunjucks',
  'nunjucks/*',
  'isolated-vm',
  'isolated-vm-*',
  '@apollo/*',
  'express',
  'node:http',
  'http',
  'node:https',
  'https',
  'node:net',
  'net',
  'pino',
  'ai',
  '@ai-sdk/*',
];

// Outer layers a relative import could reach (`../../persistence/...`). Both the folder itself
// (an index import) and anything below it are matched.
const OUTER_LAYERS = ['persistence', 'graphql', 'sandbox', 'llm', 'bundled'];
const FORBIDDEN_RELATIVE = OUTER_LAYERS.flatMap((dir) => [`**/${dir}`, `**/${dir}/**`]);
// The domain's own model-provider port (api/src/domain/llm, a sibling of the importing folder) is not the outer llm layer.
const DOMAIN_PORTS = ['!../llm', '!../llm/*'];

export default defineConfig(
  globalIgnores([
    '**/dist/**',
    '**/node_modules/**',
    '**/__generated__/**',
    '**/coverage/**',
    'admin/**', // lint the dashboard once it exists (its own React rules)
    'data/**',
  ]),

  coreRecommended,
  tseslint.configs.recommended,

  {
    files: ['**/*.ts', '**/*.mts', '**/*.cts'],
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        {
          args: 'after-used',
          argsIgnorePattern: '^_',
          varsIgnorePattern: '^_',
          caughtErrorsIgnorePattern: '^_',
          destructuredArrayIgnorePattern: '^_',
          ignoreRestSiblings: true,
        },
      ],
    },
  },

  {
    files: ['api/src/domain/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          // One group, so an import matching both lists (`graphql`) is reported once.
          patterns: [
            { group: [...FORBIDDEN_PACKAGES, ...FORBIDDEN_RELATIVE, ...DOMAIN_PORTS], message: PURE_DOMAIN_MESSAGE },
          ],
        },
      ],
    },
  },

  {
    // Tests read arbitrary GraphQL JSON; `any` there is the honest type.
    files: ['test/**/*.ts', '**/*.test.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
);

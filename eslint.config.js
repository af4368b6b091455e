// ESLint flat config: typescript-eslint with type information (the project service reads each
// package's tsconfig), import cycles, and the layer rules of the README's Design section.
import tseslint from 'typescript-eslint';
import { importX } from 'eslint-plugin-import-x';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';

/** What a transport is: the core (the data layer) never imports one, nor anything that frames bytes. */
const TRANSPORTS = [
  '@decorum/stdio',
  '@decorum/fastify',
  '@decorum/cli',
  '@decorum/client',
  '@decorum/create-decorum',
  'fastify',
  '@fastify/*',
  'redis',
  'ioredis',
  'node:http',
  'node:https',
  'node:net',
  'node:readline',
];

export default tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', 'packages/create-decorum/template/**', '.conformance/**', 'docs/api/**'] },
  {
    files: ['packages/*/src/**/*.ts', 'examples/*/src/**/*.ts'],
    extends: [tseslint.configs.recommended],
    plugins: { 'import-x': importX },
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    settings: {
      'import-x/extensions': ['.ts', '.js', '.mjs'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts'] },
      'import-x/resolver-next': [
        createTypeScriptImportResolver({ project: ['packages/*/tsconfig.json', 'examples/*/tsconfig.json'], noWarnOnMultipleProjects: true }),
      ],
    },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      // Type-aware: a promise nobody awaits or handles loses its error.
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: false }],
      '@typescript-eslint/await-thenable': 'error',
      // `Function` is how class-validator and reflect-metadata name a class; decorators need it.
      '@typescript-eslint/no-unsafe-function-type': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { args: 'after-used', argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
    },
  },
  {
    // The data layer never imports a transport (README, Design: "two layers").
    files: ['packages/core/src/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ group: TRANSPORTS, message: '@decorum/core is the data layer: it never imports a transport.' }] }],
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            {
              target: './packages/core/src',
              from: ['./packages/stdio', './packages/fastify', './packages/cli', './packages/client', './packages/create-decorum'],
              message: 'the core never imports another package',
            },
            { target: './packages/core/src/mrtr', from: './packages/core/src/engine', message: 'mrtr/ is below the engine: pass it what it needs instead' },
          ],
        },
      ],
    },
  },
  {
    // TODO(#16): mrtr/input-required.ts imports engine/ (thenable, request-scope); it is being
    // changed on the legacy-era branch, so the rule is waived for it alone until that lands.
    files: ['packages/core/src/mrtr/input-required.ts'],
    rules: { 'import-x/no-restricted-paths': 'off' },
  },
  {
    // TODO(#16): findings in files the legacy-era branch is changing, waived for those files alone
    // until it lands (then fix them and drop this block).
    files: ['packages/core/src/mrtr/elicitation-schema.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    files: ['packages/fastify/src/plugin.ts'],
    rules: { '@typescript-eslint/no-this-alias': 'off' },
  },
  {
    // The packages meet only through their public entry points, never each other's files.
    files: ['packages/{stdio,fastify,cli,client,create-decorum}/src/**/*.ts', 'examples/*/src/**/*.ts'],
    rules: {
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            {
              target: './packages/client/src',
              from: ['./packages/fastify/src', './packages/stdio/src', './packages/cli/src'],
              message: 'the client speaks to servers over the wire, not through transport internals',
            },
            {
              target: './packages/stdio/src',
              from: ['./packages/core/src', './packages/fastify', './packages/client'],
              message: 'import @decorum/core, not its files',
            },
            {
              target: './packages/fastify/src',
              from: ['./packages/core/src', './packages/stdio', './packages/client'],
              message: 'import @decorum/core, not its files',
            },
            {
              target: './packages/cli/src',
              from: ['./packages/core/src', './packages/stdio/src', './packages/fastify/src', './packages/client'],
              message: 'import the packages, not their files',
            },
            {
              target: './examples',
              from: ['./packages/core/src', './packages/stdio/src', './packages/fastify/src', './packages/client/src', './packages/cli/src'],
              message: 'examples import the published packages (@decorum/*), not their files',
            },
          ],
        },
      ],
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: ['@decorum/*/src/*', '@decorum/*/dist/*'], message: 'import a package by its name, not its files' }] },
      ],
    },
  },
);

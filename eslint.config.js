// ESLint flat config: typescript-eslint with type information (the project service reads each
// package's tsconfig), import cycles, and the layer rules of the README's Design section, for the
// sources; a lighter set without type information for tests, scripts and benches (type-aware
// linting of those would double the run for little: they are type-checked by `npm run typecheck`).
//
// Cycles: import-x/no-cycle counts value imports only (it skips `import type`, which is erased at
// compile time, so it cannot make a module read a half-initialized one). Type-only cycles remain
// and are not counted (README, Design: "Lint has the layer rules" lists them).
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';
import { importX } from 'eslint-plugin-import-x';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import { dirname, relative, resolve } from 'node:path';

/** The folder of this file: path rules are anchored here, wherever ESLint is started from. */
const ROOT = import.meta.dirname;

/** Import patterns of the entry-point rules: packages by name only; the private transport kit. */
const BY_NAME = { group: ['@decorum/*/src/*', '@decorum/*/dist/*'], message: 'import a package by its name, not its files' };
const KIT_IS_PRIVATE = { group: ['@decorum/transport-kit'], message: '@decorum/transport-kit is private to the transports: it has no public API' };

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

/** The sources: linted with type information and the layer rules. */
const SOURCES = ['packages/*/src/**/*.ts', 'examples/*/src/**/*.ts'];

/** Tests, their fixtures and support, scripts, benches and configs: the lighter set. */
const TESTS_AND_SCRIPTS = [
  'packages/*/test/**/*.{ts,mts,mjs}',
  'packages/*/bin/*.js',
  'examples/*/test/**/*.ts',
  'examples/*/scripts/*.mjs',
  'test/**/*.{ts,mts,mjs}',
  'scripts/**/*.{mjs,mts}',
  'bench/**/*.{ts,mjs}',
  '*.{js,ts}',
];

/**
 * A package's or an example's tests stay inside it: shared support is imported by name
 * (@decorum-internal/test-support), never by a relative path into the root test/ folder or into
 * another package's tests. (Importing an example's sources, the fixtures of record, is fine.)
 */
const testsStayInTheirPackage = {
  meta: {
    type: 'problem',
    schema: [],
    messages: {
      reach:
        "'{{specifier}}' reaches into {{where}}: import shared test support by name (@decorum-internal/test-support), or keep it in this package's test/support",
    },
  },
  create(context) {
    const own = /^(?:packages|examples)\/[^/]+\//.exec(relative(ROOT, context.filename))?.[0];
    const check = (node) => {
      const specifier = node.source?.value;
      if (own === undefined || typeof specifier !== 'string' || !specifier.startsWith('.')) return;
      const target = relative(ROOT, resolve(dirname(context.filename), specifier));
      const where = target.startsWith('test/')
        ? 'the root test/ folder'
        : /^(?:packages|examples)\/[^/]+\/test\//.test(target) && !target.startsWith(own)
          ? "another package's tests"
          : undefined;
      if (where) context.report({ node: node.source, messageId: 'reach', data: { specifier, where } });
    };
    return { ImportDeclaration: check, ExportNamedDeclaration: check, ExportAllDeclaration: check, ImportExpression: check };
  },
};

/** The unused-variable rule of every file: `_`-prefixed names say "unused on purpose". */
const UNUSED_VARS = ['error', { args: 'after-used', argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }];

export default tseslint.config(
  {
    ignores: [
      '**/dist/**',
      '**/node_modules/**',
      'packages/create-decorum/template/**',
      '.conformance/**',
      'docs/api/**',
      'bench/.build/**',
      // A module that does not parse, on purpose (mcp-serve reports its syntax error).
      'packages/cli/test/fixtures/broken.ts',
    ],
  },
  // Every linted file: a disable comment that disables nothing is an error, so none goes stale.
  { linterOptions: { reportUnusedDisableDirectives: 'error' } },
  {
    files: SOURCES,
    extends: [tseslint.configs.recommended],
    plugins: { 'import-x': importX },
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: ROOT } },
    settings: {
      'import-x/extensions': ['.ts', '.js', '.mjs'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts'] },
      'import-x/resolver-next': [
        createTypeScriptImportResolver({ project: [`${ROOT}/packages/*/tsconfig.json`, `${ROOT}/examples/*/tsconfig.json`], noWarnOnMultipleProjects: true }),
      ],
    },
    rules: {
      // Type-aware: a promise nobody awaits or handles loses its error.
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: false }],
      '@typescript-eslint/await-thenable': 'error',
      // `Function` is how class-validator and reflect-metadata name a class; decorators need it.
      '@typescript-eslint/no-unsafe-function-type': 'off',
      '@typescript-eslint/no-unused-vars': UNUSED_VARS,
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
    },
  },
  {
    files: TESTS_AND_SCRIPTS,
    extends: [js.configs.recommended, tseslint.configs.recommended],
    languageOptions: { globals: { ...globals.node } },
    rules: {
      // Tests read wire JSON (`result.content[0].text`) and build bad input on purpose.
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unsafe-function-type': 'off',
      '@typescript-eslint/no-unused-vars': UNUSED_VARS,
    },
  },
  {
    files: ['packages/*/test/**/*.{ts,mts,mjs}', 'examples/*/test/**/*.{ts,mts,mjs}'],
    plugins: { decorum: { rules: { 'tests-stay-in-their-package': testsStayInTheirPackage } } },
    rules: { 'decorum/tests-stay-in-their-package': 'error' },
  },
  {
    // The data layer never imports a transport (README, Design: "two layers").
    files: ['packages/core/src/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ group: TRANSPORTS, message: '@decorum/core is the data layer: it never imports a transport.' }] }],
      'import-x/no-restricted-paths': [
        'error',
        {
          basePath: ROOT,
          zones: [
            {
              target: './packages/core/src',
              from: ['./packages/stdio', './packages/fastify', './packages/cli', './packages/client', './packages/create-decorum'],
              message: 'the core never imports another package',
            },
            {
              target: './packages/core/src/asks',
              from: './packages/core/src/engine',
              message: 'asks/ is below the engine: pass it what it needs instead',
            },
          ],
        },
      ],
    },
  },
  {
    // The packages meet only through their public entry points, never each other's files.
    files: ['packages/{stdio,fastify,cli,client,create-decorum}/src/**/*.ts', 'examples/*/src/**/*.ts'],
    rules: {
      'import-x/no-restricted-paths': [
        'error',
        {
          basePath: ROOT,
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
  {
    // The client depends on @decorum/core alone (installing a client installs no server transport);
    // examples use the published packages, never the private @decorum/transport-kit.
    files: ['packages/client/src/**/*.ts', 'examples/*/src/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [BY_NAME, KIT_IS_PRIVATE],
        },
      ],
    },
  },
  {
    files: ['packages/client/src/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            BY_NAME,
            KIT_IS_PRIVATE,
            {
              group: ['@decorum/stdio', '@decorum/fastify', '@decorum/cli', '@decorum/redis', 'fastify', '@fastify/*'],
              message: 'the client depends on @decorum/core alone: what it needs of the wire is in @decorum/core/transport',
            },
          ],
        },
      ],
    },
  },
  {
    // The bottom of the house: @decorum/transport-kit imports no package of ours.
    files: ['packages/transport-kit/src/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: ['@decorum/*'], message: '@decorum/transport-kit is below every package: it imports none of ours' }] },
      ],
    },
  },
);

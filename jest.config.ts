/** @jest-config-loader esbuild-register */
// Jest loads this file with esbuild-register (the config has no decorators, so esbuild is enough);
// the tests themselves are compiled by @swc/jest with mcp-serve's own swc options (decorator metadata kept).
import type { Config } from 'jest';
import { swcOptions } from './packages/cli/src/ts-loader/swc-options.ts';

const swc = swcOptions();

const config: Config = {
  testEnvironment: 'node',
  extensionsToTreatAsEsm: ['.ts'],
  transform: {
    '^.+\\.ts$': ['@swc/jest', swc as Record<string, unknown>],
    // app.inject() (light-my-request) require()s cookie, which ships ESM only; Jest's VM-modules mode
    // cannot require ESM on Node 20, so that one dependency is compiled to CommonJS for it.
    '/node_modules/cookie/.+\\.js$': ['@swc/jest', {}],
  },
  transformIgnorePatterns: ['/node_modules/(?!cookie/)'],
  // Tests import the packages' sources, not their builds, so a test never runs stale code.
  moduleNameMapper: {
    // A subpath entry point (@decorum/core/transport, @decorum/client/host) is the file of that name in src/.
    '^@decorum/([a-z-]+)/([a-z-]+)$': '<rootDir>/packages/$1/src/$2.ts',
    '^@decorum/([a-z-]+)$': '<rootDir>/packages/$1/src/index.ts',
    // The shared test support, a private workspace (test/support) imported by name.
    '^@decorum-internal/test-support(/fixtures)?$': '<rootDir>/test/support$1/index.ts',
    '^(\\.{1,2}/.*)\\.js$': '$1',
  },
  testMatch: ['<rootDir>/packages/*/test/**/*.test.ts', '<rootDir>/examples/*/test/**/*.test.ts', '<rootDir>/test/**/*.test.ts'],
  // The bench's builds of other commits (bench/.build/commits/<sha>/packages/...) hold packages of the
  // same names; Jest's module map must not see them, or every test that imports a package fails.
  modulePathIgnorePatterns: ['<rootDir>/bench/.build/'],
  testTimeout: 20_000,
  // Most suites wait on child processes and sockets, so one worker per core keeps both cores busy (CI has two).
  maxWorkers: '100%',
};

export default config;

/** @jest-config-loader esbuild-register */
// Jest loads this file with esbuild-register (the config has no decorators, so esbuild is enough);
// the tests themselves are compiled by @swc/jest, which keeps decorator metadata.
import type { Config } from 'jest';

const swc = {
  jsc: {
    target: 'es2022',
    parser: { syntax: 'typescript', decorators: true },
    transform: { legacyDecorator: true, decoratorMetadata: true, useDefineForClassFields: true },
    keepClassNames: true,
  },
  module: { type: 'es6' },
  sourceMaps: 'inline',
};

const config: Config = {
  testEnvironment: 'node',
  extensionsToTreatAsEsm: ['.ts'],
  transform: { '^.+\\.ts$': ['@swc/jest', swc as Record<string, unknown>] },
  // Tests import the packages' sources, not their builds, so a test never runs stale code.
  moduleNameMapper: {
    '^@decorum/([a-z-]+)$': '<rootDir>/packages/$1/src/index.ts',
    '^(\\.{1,2}/.*)\\.js$': '$1',
  },
  testMatch: ['<rootDir>/packages/*/test/**/*.test.ts', '<rootDir>/examples/*/test/**/*.test.ts', '<rootDir>/test/**/*.test.ts'],
  testTimeout: 20_000,
};

export default config;

/**
 * The version ranges a generated project depends on. The `@decorum/*` packages are released
 * together with this scaffolder, so they take its own version; the others are the ranges
 * `@decorum/core` is built and tested with (a test keeps the two in step).
 */
export const THIRD_PARTY = {
  dependencies: {
    // The DTOs' decorators and design types land in these libraries' metadata, which @decorum/core
    // reads: one copy each (the same ranges as core's), imported by the project's own code.
    'class-transformer': '^0.5.1',
    'class-validator': '^0.15.1',
    'reflect-metadata': '^0.2.2',
    typebox: '^1.4.3',
  },
  devDependencies: {
    '@types/node': '^20.19.0',
    typescript: '^5.9.3',
  },
} as const;

/** The Decorum packages a generated project uses. */
export const DECORUM_PACKAGES = ['@decorum/core', '@decorum/stdio', '@decorum/fastify', '@decorum/cli', '@decorum/client'] as const;

import 'reflect-metadata';
import { describe, expect, test } from '@jest/globals';
import { z } from 'zod';
import * as z3 from 'zod/v3';
import * as v from 'valibot';
import { toStandardJsonSchema } from '@valibot/to-json-schema';
import { type } from 'arktype';
import { Type } from 'typebox';
import { createServer, DecorumStartupError, Prompt, StartupErrorCode, Tool } from '@decorum/core';
import { quietLogger } from './support/engine-harness.js';

/**
 * What `input:`/`output:` accept is decided at start-up: a DTO class, a TypeBox schema or JSON
 * Schema object literal, or a Standard Schema with a JSON Schema. Anything else — another
 * library's schema mistaken for JSON Schema, a schema without JSON Schema, a stray object — is a
 * start-up error that names the tool, never a listing of the library's internals.
 */
function startupError(build: () => unknown): DecorumStartupError {
  try {
    build();
  } catch (error) {
    if (error instanceof DecorumStartupError) return error;
    throw error;
  }
  throw new Error('expected a start-up error');
}

/** A server with one tool `lookup` whose `input:` (or `output:`) is `schema`. */
function serverWith(schema: unknown, where: 'input' | 'output' = 'input') {
  class Lookup {
    // `as never`: these are wrong on purpose, which the decorator's types would refuse.
    @Tool(where === 'input' ? { input: schema as never } : { input: null, output: schema as never })
    lookup() {
      return 'x';
    }
  }
  return () => createServer([Lookup], { logger: quietLogger });
}

describe('input: and output: sources that are refused at start-up', () => {
  test('a zod 3 schema (Standard Schema without JSON Schema): DECORUM_ERR_NO_JSON_SCHEMA, naming the tool, saying to use zod 4', () => {
    const error = startupError(serverWith(z3.z.object({ n: z3.z.number() })));
    expect(error.code).toBe(StartupErrorCode.NO_JSON_SCHEMA);
    expect(error.message).toBe(
      'DECORUM_ERR_NO_JSON_SCHEMA: input schema of Lookup.lookup: this zod Standard Schema offers no JSON Schema (no ~standard.jsonSchema, the Standard JSON Schema interface), ' +
        "which MCP needs to list it: zod 3 schemas have none: use zod 4.2 or later (import { z } from 'zod'), whose schemas implement it",
    );
  });

  test('a valibot schema without toStandardJsonSchema: the error says how to wrap it', () => {
    const error = startupError(serverWith(v.object({ n: v.number() })));
    expect(error.code).toBe(StartupErrorCode.NO_JSON_SCHEMA);
    expect(error.message).toMatch(/^DECORUM_ERR_NO_JSON_SCHEMA: input schema of Lookup\.lookup: this valibot Standard Schema offers no JSON Schema/);
    expect(error.message).toContain("wrap it with toStandardJsonSchema from '@valibot/to-json-schema' (input: toStandardJsonSchema(v.object({ ... })))");
  });

  test('the same for output:', () => {
    const error = startupError(serverWith(v.object({ n: v.number() }), 'output'));
    expect(error.code).toBe(StartupErrorCode.NO_JSON_SCHEMA);
    expect(error.message).toMatch(/^DECORUM_ERR_NO_JSON_SCHEMA: output schema of Lookup\.lookup: this valibot Standard Schema/);
  });

  test.each([
    ['a plain object that is no schema', { n: 'number' }, /an object with keys \[n\] that is not a JSON Schema/],
    ['an object with an invalid type', { type: 'zod' }, /an object with keys \[type\] that is not a JSON Schema/],
    ['a JSON Schema literal with a function inside', { type: 'object', properties: { n: { type: 'number', check: () => true } } }, /that is not a JSON Schema/],
    [
      'a class instance with schema-like keys (as zod 3 schemas are)',
      new (class ZodObject {
        type = 'object';
      })(),
      /an instance of ZodObject, not a plain JSON Schema object/,
    ],
    ['a function that is not a class', () => ({}), /the function \(anonymous\), which is not a class/],
  ])('%s: DECORUM_ERR_UNSUPPORTED_INPUT, naming the tool and the kinds accepted', (_name, schema, detail) => {
    const error = startupError(serverWith(schema));
    expect(error.code).toBe(StartupErrorCode.UNSUPPORTED_INPUT);
    expect(error.message).toMatch(
      /^DECORUM_ERR_UNSUPPORTED_INPUT: input schema of Lookup\.lookup: a schema must be a class-validator DTO class, a TypeBox schema .* or a Standard Schema with a JSON Schema .*; got /,
    );
    expect(error.message).toMatch(detail);
  });

  test('a Standard Schema of another version is refused', () => {
    const error = startupError(serverWith({ '~standard': { version: 2, vendor: 'future', validate: () => ({ value: 1 }) } }));
    expect(error.message).toBe(
      'DECORUM_ERR_UNSUPPORTED_INPUT: input schema of Lookup.lookup: a future schema whose ~standard is not Standard Schema version 1 with a validate function (version: 2)',
    );
  });

  test('a Standard Schema whose JSON Schema cannot be made names the reason', () => {
    const error = startupError(serverWith(z.object({ when: z.date() })));
    expect(error.code).toBe(StartupErrorCode.UNSUPPORTED_INPUT);
    expect(error.message).toMatch(
      /^DECORUM_ERR_UNSUPPORTED_INPUT: input schema of Lookup\.lookup: this zod schema cannot be expressed as JSON Schema \(input\): .*Date/,
    );
  });

  test('arguments must be an object schema, whatever the library', () => {
    const error = startupError(serverWith(z.string()));
    expect(error.message).toBe(
      'DECORUM_ERR_UNSUPPORTED_INPUT: input schema of Lookup.lookup: an arguments schema must have "type": "object" at its root (got "string"); use an object schema (z.object, v.object, type({ ... }))',
    );
  });
});

describe('what is accepted', () => {
  test('zod 4, valibot wrapped, ArkType, TypeBox and a JSON Schema literal; for prompts too', () => {
    for (const schema of [
      z.object({ q: z.string() }),
      toStandardJsonSchema(v.object({ q: v.string() })),
      type({ q: 'string' }),
      Type.Object({ q: Type.String() }),
      { type: 'object', properties: { q: { type: 'string' } } },
    ]) {
      class Search {
        @Tool({ input: schema as never }) search() {
          return 'x';
        }
        @Prompt({ input: schema }) ask() {
          return 'x';
        }
      }
      const server = createServer([Search], { logger: quietLogger });
      expect(server.registry.tools.get('search')?.definition.inputSchema).toMatchObject({ type: 'object', properties: { q: { type: 'string' } } });
      expect(server.registry.prompts.get('ask')?.descriptor.arguments).toEqual([{ name: 'q', required: expect.any(Boolean) }]);
    }
  });
});

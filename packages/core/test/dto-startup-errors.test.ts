import 'reflect-metadata';
import { describe, expect, test } from '@jest/globals';
import { IsInt, IsString, ValidateNested } from 'class-validator';
import { Type } from 'typebox';
import { DecorumStartupError, Field, StartupErrorCode, Tool } from '@decorum/core';
import { compileSchema } from '../src/schema/compiled-input.js';
import { startupError } from './support/startup-error.js';

/**
 * A DTO or schema that cannot serve a tool fails with a `DecorumStartupError` whose code says
 * which rule it broke, from `compileSchema` itself and, naming the tool, from `createServer`.
 */

/** The `DecorumStartupError` `compileSchema(source)` throws. */
function compileError(source: Function | object): DecorumStartupError {
  let thrown: unknown;
  try {
    compileSchema(source);
  } catch (error) {
    thrown = error;
  }
  expect(thrown).toBeInstanceOf(DecorumStartupError);
  return thrown as DecorumStartupError;
}

/** A server class with one tool `lookup` whose input is `input`. */
function serverWith(input: unknown): Function {
  class Lookup {
    @Tool({ input: input as never })
    lookup() {
      return 'x';
    }
  }
  return Lookup;
}

class Address {
  @IsString() city!: string;
}

class Needy {
  @IsString() name: string;
  constructor(name: string) {
    this.name = name.trim();
  }
}

class Bare {
  describe() {
    return 'no fields';
  }
}

class Loose {
  @ValidateNested() address!: Address;
}

class Uncopyable {
  @Field({ default: () => 1 }) @IsInt() n!: number;
}

describe('DTOs that cannot become a schema, each with its code', () => {
  test.each([
    ['a class that needs constructor arguments', Needy, StartupErrorCode.DTO_NOT_CONSTRUCTIBLE, /Needy cannot be constructed without arguments/],
    ['a class without any decorated property', Bare, StartupErrorCode.EMPTY_DTO, /Bare has no property with a class-validator decorator or @Field/],
    ['@ValidateNested without @Type', Loose, StartupErrorCode.UNTYPED_NESTED_DTO, /Loose\.address has @ValidateNested\(\) but no @Type/],
    ['a @Field default structuredClone cannot copy', Uncopyable, StartupErrorCode.INVALID_FIELD_DEFAULT, /the @Field default of Uncopyable\.n is not data/],
  ])('%s', (_name, dto, code, detail) => {
    const direct = compileError(dto);
    expect(direct.code).toBe(code);
    expect(direct.detail).toMatch(detail);

    const served = startupError(serverWith(dto))!;
    expect(served.code).toBe(code);
    expect(served.message).toMatch(new RegExp(`^${code}: input schema of Lookup\\.lookup: `));
    expect(served.detail).toMatch(detail);
  });
});

describe('schemas compileSchema does not take', () => {
  test('neither a class nor a schema: DECORUM_ERR_UNSUPPORTED_INPUT', () => {
    const error = compileError({ location: 'x' });
    expect(error.code).toBe(StartupErrorCode.UNSUPPORTED_INPUT);
    expect(error.detail).toMatch(/^a schema must be a class-validator DTO class/);
  });

  test('arguments whose root is not an object: DECORUM_ERR_UNSUPPORTED_INPUT', () => {
    const error = compileError(Type.String());
    expect(error.code).toBe(StartupErrorCode.UNSUPPORTED_INPUT);
    expect(error.detail).toMatch(/^an arguments schema must have "type": "object" at its root \(got "string"\)/);
  });
});

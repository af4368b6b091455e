import 'reflect-metadata';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsBoolean,
  IsDateString,
  IsEmail,
  IsEnum,
  IsHexColor,
  IsIn,
  IsInt,
  IsISO8601,
  IsNotEmpty,
  IsNumber,
  IsOptional,
  IsPositive,
  IsString,
  IsUrl,
  IsUUID,
  Length,
  Matches,
  Max,
  MaxLength,
  Min,
  MinLength,
  ValidateNested,
} from 'class-validator';
import { Type } from 'class-transformer';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { Field, McpHeader } from '@decorum/core';
import { compileSchema } from '../src/schema/compiled-input.js';
import { dtoToJsonSchema } from '../src/schema/dto/to-json-schema.js';

enum Color {
  Red = 'red',
  Blue = 'blue',
}
enum Level {
  Low,
  High,
}

class Address {
  @IsString() street!: string;
  @Matches(/^\d{5}$/) zip!: string;
}

class LineItem {
  @IsString() sku!: string;
  @IsInt() @Min(1) qty!: number;
}

/** One property per supported decorator (and a few combinations). */
class Zoo {
  @Field({ description: 'Display name', title: 'Name', examples: ['Ada'] }) @IsString() @MinLength(1) @MaxLength(40) name!: string;
  @IsInt() @Min(0) @Max(130) age!: number;
  @IsNumber() @IsPositive() weight!: number;
  @IsBoolean() active!: boolean;
  @IsIn(['a', 'b']) letter!: string;
  @IsIn([1, 2, 3]) small!: number;
  @IsEnum(Color) color!: Color;
  @IsEnum(Level) level!: Level;
  @IsEmail() email!: string;
  @IsUrl() homepage!: string;
  @IsUUID() id!: string;
  @IsISO8601() since!: string;
  @IsDateString() until!: string;
  @Length(2, 4) code!: string;
  @IsNotEmpty() @IsString() nickname!: string;
  @IsOptional() @IsString() note?: string;
  @IsArray() @ArrayMinSize(1) @ArrayMaxSize(3) @IsString({ each: true }) tags!: string[];
  @IsInt({ each: true }) @Min(0, { each: true }) scores!: number[];
  @ValidateNested() @Type(() => Address) address!: Address;
  @ValidateNested({ each: true }) @Type(() => LineItem) @IsArray() items!: LineItem[];
  @IsOptional() @IsIn(['x', 'y']) mode: 'x' | 'y' = 'x';
  @Field({ default: 10, description: 'Page size' }) @IsInt() limit!: number;
  @Field({ default: 'metric' }) @IsString() units = 'imperial';
  @IsHexColor() tint!: string;
}

class TreeNode {
  @IsString() label!: string;
  @IsOptional() @ValidateNested({ each: true }) @Type(() => TreeNode) children?: TreeNode[];
}

class Category {
  @IsString() name!: string;
  @IsOptional() @ValidateNested() @Type(() => Category) parent?: Category;
}
class Catalog {
  @ValidateNested({ each: true }) @Type(() => Category) categories!: Category[];
  @IsOptional() @ValidateNested() @Type(() => Category) featured?: Category;
}

function namespaceA() {
  class Address {
    @IsString() city!: string;
  }
  return Address;
}
function namespaceB() {
  class Address {
    @IsInt() code!: number;
  }
  return Address;
}
const CityAddress = namespaceA();
const CodeAddress = namespaceB();
class TwoAddresses {
  @ValidateNested() @Type(() => CityAddress) home!: InstanceType<typeof CityAddress>;
  @ValidateNested() @Type(() => CodeAddress) work!: InstanceType<typeof CodeAddress>;
  @ValidateNested() @Type(() => Address) billing!: Address;
}

class Base {
  @IsString() id!: string;
}
class Derived extends Base {
  @IsInt() count!: number;
}

let counter = 0;
class Initializers {
  @IsString() fixed = 'same';
  @IsOptional() @IsString() changing = `run-${++counter}`;
  @IsOptional() @IsArray() @IsString({ each: true }) list: string[] = ['a'];
  @IsOptional() when: Date = new Date(0);
  @Field({ description: 'only @Field' }) plain!: string;
}

class Headers {
  @Field({ description: 'Region', mcpHeader: 'Region' }) @IsString() region!: string;
  @McpHeader('Zone') @IsString() zone!: string;
}

const ajv = new Ajv2020({ strict: false, validateFormats: false });

describe('JSON Schema 2020-12 from DTOs', () => {
  test('the zoo', () => {
    expect(compileSchema(Zoo).jsonSchema).toMatchSnapshot();
  });

  test('each decorator maps to its keyword', () => {
    const { properties, required } = compileSchema(Zoo).jsonSchema as { properties: Record<string, unknown>; required: string[] };
    expect(properties).toEqual({
      name: { type: 'string', minLength: 1, maxLength: 40, title: 'Name', description: 'Display name', examples: ['Ada'] },
      age: { type: 'integer', minimum: 0, maximum: 130 },
      weight: { type: 'number', exclusiveMinimum: 0 },
      active: { type: 'boolean' },
      letter: { type: 'string', enum: ['a', 'b'] },
      small: { type: 'integer', enum: [1, 2, 3] },
      color: { type: 'string', enum: ['red', 'blue'] },
      level: { type: 'integer', enum: [0, 1] },
      email: { type: 'string', format: 'email' },
      homepage: { type: 'string', format: 'uri' },
      id: { type: 'string', format: 'uuid' },
      since: { type: 'string', format: 'date-time' },
      until: { type: 'string', format: 'date-time' },
      code: { type: 'string', minLength: 2, maxLength: 4 },
      nickname: { type: 'string', minLength: 1 },
      note: { type: 'string' },
      tags: { type: 'array', minItems: 1, maxItems: 3, items: { type: 'string' } },
      scores: { type: 'array', items: { type: 'integer', minimum: 0 } },
      address: { $ref: '#/$defs/Address' },
      items: { type: 'array', items: { $ref: '#/$defs/LineItem' } },
      mode: { type: 'string', enum: ['x', 'y'], default: 'x' },
      limit: { type: 'integer', description: 'Page size', default: 10 },
      // @Field's default is the author's explicit word; it wins over the initializer.
      units: { type: 'string', default: 'metric' },
      // Unknown to the mapper: only the design type shows (class-validator still enforces it).
      tint: { type: 'string' },
    });
    expect(required).toEqual(expect.arrayContaining(['name', 'address', 'items', 'tags', 'tint']));
    // Optional, or filled by a default before validation: never required.
    for (const name of ['note', 'mode', 'limit', 'units']) expect(required).not.toContain(name);
  });

  test('the root is an object with $defs for nested DTOs, and no $schema', () => {
    const schema = compileSchema(Zoo).jsonSchema;
    expect(schema).toMatchObject({ type: 'object', $defs: { Address: expect.any(Object), LineItem: expect.any(Object) } });
    expect(schema).not.toHaveProperty('$schema');
    expect((schema.$defs as Record<string, unknown>).Address).toEqual({
      type: 'object',
      properties: { street: { type: 'string' }, zip: { type: 'string', pattern: '^\\d{5}$' } },
      required: ['street', 'zip'],
    });
  });

  test('a DTO that contains itself ends at a $ref to the root', () => {
    expect(compileSchema(TreeNode).jsonSchema).toEqual({
      type: 'object',
      properties: { label: { type: 'string' }, children: { type: 'array', items: { $ref: '#' } } },
      required: ['label'],
    });
  });

  test('a nested recursive DTO is one definition, referenced from itself and from every use', () => {
    expect(compileSchema(Catalog).jsonSchema).toEqual({
      type: 'object',
      properties: { categories: { type: 'array', items: { $ref: '#/$defs/Category' } }, featured: { $ref: '#/$defs/Category' } },
      required: ['categories'],
      $defs: { Category: { type: 'object', properties: { name: { type: 'string' }, parent: { $ref: '#/$defs/Category' } }, required: ['name'] } },
    });
  });

  test('two different classes with one name get two definitions', () => {
    const schema = compileSchema(TwoAddresses).jsonSchema as { $defs: Record<string, any>; properties: Record<string, unknown> };
    expect(Object.keys(schema.$defs)).toEqual(['Address', 'Address_2', 'Address_3']);
    expect(schema.properties).toEqual({ home: { $ref: '#/$defs/Address' }, work: { $ref: '#/$defs/Address_2' }, billing: { $ref: '#/$defs/Address_3' } });
    expect(schema.$defs.Address.properties).toEqual({ city: { type: 'string' } });
    expect(schema.$defs.Address_2.properties).toEqual({ code: { type: 'integer' } });
  });

  test('inherited properties come first', () => {
    expect(compileSchema(Derived).jsonSchema).toEqual({
      type: 'object',
      properties: { id: { type: 'string' }, count: { type: 'integer' } },
      required: ['id', 'count'],
    });
  });

  test('initializers are defaults only when they are constant JSON data; either way the property is not required', () => {
    const schema = compileSchema(Initializers).jsonSchema as { properties: Record<string, unknown>; required: string[] };
    expect(schema.properties).toEqual({
      fixed: { type: 'string', default: 'same' },
      changing: { type: 'string' },
      list: { type: 'array', items: { type: 'string' }, default: ['a'] },
      when: { type: 'string', format: 'date-time' },
      plain: { type: 'string', description: 'only @Field' },
    });
    expect(schema.required).toEqual(['plain']);
  });

  test('@Field({ mcpHeader }) and @McpHeader become x-mcp-header', () => {
    expect((compileSchema(Headers).jsonSchema as { properties: unknown }).properties).toEqual({
      region: { type: 'string', description: 'Region', 'x-mcp-header': 'Region' },
      zone: { type: 'string', 'x-mcp-header': 'Zone' },
    });
  });

  test('the schema is frozen; dtoToJsonSchema returns a fresh copy each call', () => {
    const schema = compileSchema(Zoo).jsonSchema as { properties: Record<string, object> };
    expect(Object.isFrozen(schema)).toBe(true);
    expect(Object.isFrozen(schema.properties.name)).toBe(true);
    expect(dtoToJsonSchema(Zoo)).not.toBe(dtoToJsonSchema(Zoo));
    expect(dtoToJsonSchema(Zoo)).toEqual(schema);
  });

  test.each([Zoo, TreeNode, Catalog, TwoAddresses, Derived, Initializers, Headers])('%p is a valid 2020-12 schema whose $refs resolve (ajv)', (cls) => {
    expect(() => ajv.compile(compileSchema(cls).jsonSchema)).not.toThrow();
  });
});

describe('DTOs that cannot become a schema fail at start-up, saying why', () => {
  test('@ValidateNested without @Type', () => {
    class Loose {
      @ValidateNested() address!: Address;
    }
    expect(() => compileSchema(Loose)).toThrow(/Loose\.address has @ValidateNested\(\) but no @Type\(\(\) => SomeDto\)/);
  });

  test('a class without any decorated property', () => {
    class Bare {
      describe() {
        return 'no fields';
      }
    }
    expect(() => compileSchema(Bare)).toThrow(/Bare has no property with a class-validator decorator or @Field/);
  });

  test('a class that needs constructor arguments', () => {
    class Needy {
      @IsString() name: string;
      constructor(name: string) {
        this.name = name.trim();
      }
    }
    expect(() => compileSchema(Needy)).toThrow(/Needy cannot be constructed without arguments/);
  });

  test('neither a class nor a schema', () => {
    expect(() => compileSchema({ location: 'x' })).toThrow(
      /class-validator DTO class, a TypeBox schema .* or a Standard Schema .*keys \[location\] that is not a JSON Schema/,
    );
    expect(() => compileSchema((() => 1) as unknown as Function)).toThrow(/not a class/);
    expect(() => compileSchema([] as unknown as object)).toThrow(/got an array/);
  });
});

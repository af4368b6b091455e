import 'reflect-metadata';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsBoolean,
  IsEmail,
  IsEnum,
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
import { compileSchema, Field } from '@decorum/core';

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
  @Length(2, 4) code!: string;
  @IsNotEmpty() @IsString() nickname!: string;
  @IsOptional() @IsString() note?: string;
  @IsArray() @ArrayMinSize(1) @ArrayMaxSize(3) @IsString({ each: true }) tags!: string[];
  @ValidateNested() @Type(() => Address) address!: Address;
  @ValidateNested({ each: true }) @Type(() => LineItem) @IsArray() items!: LineItem[];
  @IsOptional() @IsIn(['x', 'y']) mode: 'x' | 'y' = 'x';
  @Field({ default: 10 }) @IsInt() limit!: number;
}

class TreeNode {
  @IsString() label!: string;
  @IsOptional() @ValidateNested({ each: true }) @Type(() => TreeNode) children?: TreeNode[];
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
}

const ajv = new Ajv2020({ strict: false, validateFormats: false });

describe('JSON Schema 2020-12 from DTOs', () => {
  test('the zoo', () => {
    expect(compileSchema(Zoo).jsonSchema).toMatchSnapshot();
  });

  test('key mappings', () => {
    const { properties, required } = compileSchema(Zoo).jsonSchema as { properties: Record<string, any>; required: string[] };
    expect(properties.name).toEqual({ type: 'string', minLength: 1, maxLength: 40, title: 'Name', description: 'Display name', examples: ['Ada'] });
    expect(properties.age).toEqual({ type: 'integer', minimum: 0, maximum: 130 });
    expect(properties.weight).toEqual({ type: 'number', exclusiveMinimum: 0 });
    expect(properties.small).toEqual({ type: 'integer', enum: [1, 2, 3] });
    expect(properties.color).toEqual({ type: 'string', enum: ['red', 'blue'] });
    expect(properties.level).toEqual({ type: 'integer', enum: [0, 1] });
    expect(properties.email).toEqual({ type: 'string', format: 'email' });
    expect(properties.homepage).toEqual({ type: 'string', format: 'uri' });
    expect(properties.id).toEqual({ type: 'string', format: 'uuid' });
    expect(properties.since).toEqual({ type: 'string', format: 'date-time' });
    expect(properties.code).toEqual({ type: 'string', minLength: 2, maxLength: 4 });
    expect(properties.tags).toEqual({ type: 'array', minItems: 1, maxItems: 3, items: { type: 'string' } });
    expect(properties.address).toEqual({ $ref: '#/$defs/Address' });
    expect(properties.items).toEqual({ type: 'array', items: { $ref: '#/$defs/LineItem' } });
    expect(properties.mode).toEqual({ type: 'string', enum: ['x', 'y'], default: 'x' });
    expect(properties.limit).toEqual({ type: 'integer', default: 10 });
    expect(required).not.toContain('note');
    expect(required).not.toContain('mode');
    expect(required).not.toContain('limit');
    expect(required).toContain('address');
  });

  test('a recursive DTO ends at a $ref to the root', () => {
    expect(compileSchema(TreeNode).jsonSchema).toEqual({
      type: 'object',
      properties: { label: { type: 'string' }, children: { type: 'array', items: { $ref: '#' } } },
      required: ['label'],
    });
  });

  test('two different classes named alike get two definitions', () => {
    const schema = compileSchema(TwoAddresses).jsonSchema as { $defs: Record<string, unknown>; properties: Record<string, unknown> };
    expect(Object.keys(schema.$defs)).toEqual(['Address', 'Address_2']);
    expect(schema.properties.home).toEqual({ $ref: '#/$defs/Address' });
    expect(schema.properties.work).toEqual({ $ref: '#/$defs/Address_2' });
  });

  test.each([Zoo, TreeNode, TwoAddresses])('%p compiles with ajv (2020-12), and its $refs resolve', (cls) => {
    expect(() => ajv.compile(compileSchema(cls).jsonSchema)).not.toThrow();
  });
});

const valid = {
  name: 'Ada',
  age: 36,
  weight: 60.5,
  active: true,
  letter: 'a',
  small: 2,
  color: 'red',
  level: 1,
  email: 'ada@example.com',
  homepage: 'https://example.com',
  id: '123e4567-e89b-42d3-a456-426614174000',
  since: '2026-01-01T00:00:00Z',
  code: 'abc',
  nickname: 'A',
  tags: ['x'],
  address: { street: 'Main', zip: '12345' },
  items: [{ sku: 'a', qty: 1 }],
};

describe('DTO validation', () => {
  const zoo = compileSchema(Zoo);
  const check = ajv.compile(zoo.jsonSchema);

  test('a valid value becomes an instance with defaults; ajv agrees', async () => {
    const outcome = await zoo.validate(valid);
    expect(outcome.ok).toBe(true);
    if (!outcome.ok) return;
    expect(outcome.value).toBeInstanceOf(Zoo);
    expect((outcome.value as Zoo).mode).toBe('x');
    expect((outcome.value as Zoo).limit).toBe(10);
    expect((outcome.value as Zoo).address).toBeInstanceOf(Address);
    expect(check(valid)).toBe(true);
  });

  test('nested and array-item failures point into the value; ajv agrees it is invalid', async () => {
    const bad = { ...valid, address: { street: 'Main', zip: 'nope' }, items: [{ sku: 'a', qty: 1 }, { sku: 'b', qty: 0 }], color: 'green' };
    const outcome = await zoo.validate(bad);
    expect(outcome.ok).toBe(false);
    if (outcome.ok) return;
    expect(outcome.issues).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ pointer: '/address/zip', keyword: 'pattern' }),
        expect.objectContaining({ pointer: '/items/1/qty', keyword: 'minimum' }),
        expect.objectContaining({ pointer: '/color', keyword: 'enum' }),
      ]),
    );
    expect(check(bad)).toBe(false);
  });

  test('a missing required property is one "required" issue', async () => {
    const { name: _omit, ...rest } = valid;
    const outcome = await zoo.validate(rest);
    expect(outcome).toEqual({ ok: false, issues: [{ pointer: '/name', keyword: 'required', message: 'is required' }] });
  });

  test('a non-object is refused at the root', async () => {
    expect(await zoo.validate([1])).toEqual({ ok: false, issues: [{ pointer: '', keyword: 'type', message: expect.stringContaining('must be an object') }] });
  });
});

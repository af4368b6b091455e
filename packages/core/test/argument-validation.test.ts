import 'reflect-metadata';
import { ArrayMinSize, IsEmail, IsHexColor, IsIn, IsInt, IsOptional, IsString, Matches, Max, MaxLength, Min, ValidateNested } from 'class-validator';
import { Type as Nested } from 'class-transformer';
import { Type } from 'typebox';
import { Settings } from 'typebox/system';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { Field } from '@decorum/core';
import { compileSchema, type CompiledSchema } from '../src/schema/compiled-input.js';
import { formatIssues, type ValidationIssue } from '../src/schema/issues.js';

// ---------------------------------------------------------------------------------------------
// One schema, written twice: as a class-validator DTO and as TypeBox.
// ---------------------------------------------------------------------------------------------

class Address {
  @IsString() @Matches(/^\d{5}$/) zip!: string;
  @IsString() city!: string;
}

class Item {
  @IsString() sku!: string;
  @IsInt() @Min(1) qty!: number;
}

class Order {
  @IsString() @MaxLength(20) location!: string;
  @IsOptional() @IsIn(['metric', 'imperial', 'kelvin']) units?: string;
  @IsInt() @Min(1) @Max(7) days!: number;
  @ValidateNested() @Nested(() => Address) address!: Address;
  @ValidateNested({ each: true }) @Nested(() => Item) @ArrayMinSize(1) items!: Item[];
  @IsOptional() @IsEmail() email?: string;
  @IsOptional() @IsString({ each: true }) tags?: string[];
}

const OrderBox = Type.Object({
  location: Type.String({ maxLength: 20 }),
  units: Type.Optional(Type.Union([Type.Literal('metric'), Type.Literal('imperial'), Type.Literal('kelvin')])),
  days: Type.Integer({ minimum: 1, maximum: 7 }),
  address: Type.Object({ zip: Type.String({ pattern: '^\\d{5}$' }), city: Type.String() }),
  items: Type.Array(Type.Object({ sku: Type.String(), qty: Type.Integer({ minimum: 1 }) }), { minItems: 1 }),
  email: Type.Optional(Type.String({ format: 'email' })),
  tags: Type.Optional(Type.Array(Type.String())),
});

const dto = compileSchema(Order);
const box = compileSchema(OrderBox);
const good = { location: 'Paris', days: 3, address: { zip: '75001', city: 'Paris' }, items: [{ sku: 'a', qty: 1 }] };

/** `good` without one property (JSON has no `undefined`: a missing property is an absent key). */
const goodWithout = (key: keyof typeof good) => Object.fromEntries(Object.entries(good).filter(([k]) => k !== key));

const failed = async (compiled: Pick<CompiledSchema, 'validate'>, value: unknown) => {
  const outcome = await compiled.validate(value);
  if (outcome.ok) throw new Error(`expected ${JSON.stringify(value)} to be invalid`);
  return outcome.issues as ValidationIssue[];
};

describe('DTO and TypeBox report the same mistake identically (pointer, keyword, message)', () => {
  test.each<[string, Record<string, unknown>, ValidationIssue[]]>([
    ['missing required', goodWithout('location'), [{ pointer: '/location', keyword: 'required', message: 'is required' }]],
    ['wrong type', { ...good, location: 5 }, [{ pointer: '/location', keyword: 'type', message: 'must be a string' }]],
    ['null', { ...good, location: null }, [{ pointer: '/location', keyword: 'type', message: 'must be a string' }]],
    ['a string for an integer (one issue, not three)', { ...good, days: '3' }, [{ pointer: '/days', keyword: 'type', message: 'must be an integer' }]],
    ['a fraction for an integer', { ...good, days: 1.5 }, [{ pointer: '/days', keyword: 'type', message: 'must be an integer' }]],
    ['enum violation', { ...good, units: 'celsius' }, [{ pointer: '/units', keyword: 'enum', message: 'must be one of metric, imperial, kelvin' }]],
    ['enum violation of another type', { ...good, units: 5 }, [{ pointer: '/units', keyword: 'enum', message: 'must be one of metric, imperial, kelvin' }]],
    ['above range', { ...good, days: 9 }, [{ pointer: '/days', keyword: 'maximum', message: 'must be <= 7' }]],
    ['below range', { ...good, days: 0 }, [{ pointer: '/days', keyword: 'minimum', message: 'must be >= 1' }]],
    ['too long', { ...good, location: 'x'.repeat(21) }, [{ pointer: '/location', keyword: 'maxLength', message: 'must be at most 20 characters long' }]],
    ['format', { ...good, email: 'nope' }, [{ pointer: '/email', keyword: 'format', message: 'must be an email address' }]],
    [
      'nested pattern',
      { ...good, address: { zip: 'abc', city: 'Paris' } },
      [{ pointer: '/address/zip', keyword: 'pattern', message: 'must match the pattern ^\\d{5}$' }],
    ],
    ['nested missing', { ...good, address: { city: 'Paris' } }, [{ pointer: '/address/zip', keyword: 'required', message: 'is required' }]],
    ['nested not an object', { ...good, address: 'Paris' }, [{ pointer: '/address', keyword: 'type', message: 'must be an object' }]],
    [
      'nested array for an object',
      { ...good, address: [{ zip: '75001', city: 'Paris' }] },
      [{ pointer: '/address', keyword: 'type', message: 'must be an object' }],
    ],
    [
      'array item',
      {
        ...good,
        items: [
          { sku: 'a', qty: 1 },
          { sku: 'b', qty: 0 },
        ],
      },
      [{ pointer: '/items/1/qty', keyword: 'minimum', message: 'must be >= 1' }],
    ],
    ['array item missing a property', { ...good, items: [{ sku: 'a' }] }, [{ pointer: '/items/0/qty', keyword: 'required', message: 'is required' }]],
    ['array item not an object', { ...good, items: [5] }, [{ pointer: '/items/0', keyword: 'type', message: 'must be an object' }]],
    ['empty array', { ...good, items: [] }, [{ pointer: '/items', keyword: 'minItems', message: 'must contain at least 1 item' }]],
    ['not an array', { ...good, items: { sku: 'a', qty: 1 } }, [{ pointer: '/items', keyword: 'type', message: 'must be an array' }]],
    ['each item of a primitive array', { ...good, tags: ['a', 3] }, [{ pointer: '/tags/1', keyword: 'type', message: 'must be a string' }]],
    ['a primitive for a primitive array', { ...good, tags: 'a' }, [{ pointer: '/tags', keyword: 'type', message: 'must be an array' }]],
  ])('%s', async (_name, value, expected) => {
    expect(await failed(dto, value)).toEqual(expected);
    expect(await failed(box, value)).toEqual(expected);
  });

  test('every failing field is reported, by both, at once', async () => {
    const value = { units: 'celsius', days: 9, address: { zip: 1 }, items: [{ sku: 'a', qty: 1 }, { qty: 0 }], tags: [1] };
    const sorted = (issues: ValidationIssue[]) => [...issues].sort((a, b) => (a.pointer + a.keyword).localeCompare(b.pointer + b.keyword));
    const expected = sorted([
      { pointer: '/location', keyword: 'required', message: 'is required' },
      { pointer: '/units', keyword: 'enum', message: 'must be one of metric, imperial, kelvin' },
      { pointer: '/days', keyword: 'maximum', message: 'must be <= 7' },
      { pointer: '/address/zip', keyword: 'type', message: 'must be a string' },
      { pointer: '/address/city', keyword: 'required', message: 'is required' },
      { pointer: '/items/1/sku', keyword: 'required', message: 'is required' },
      { pointer: '/items/1/qty', keyword: 'minimum', message: 'must be >= 1' },
      { pointer: '/tags/0', keyword: 'type', message: 'must be a string' },
    ]);
    expect(sorted(await failed(dto, value))).toEqual(expected);
    // More raw errors than TypeBox's default cap of 8: none may be lost, and the cap is restored.
    expect(sorted(await failed(box, value))).toEqual(expected);
    expect(Settings.Get().maxErrors).toBe(8);
  });

  test('a non-object is refused at the root', async () => {
    for (const value of [null, [good], 'Paris', 3]) {
      for (const compiled of [dto, box]) expect(await failed(compiled, value)).toEqual([{ pointer: '', keyword: 'type', message: 'must be an object' }]);
    }
  });

  test('pointers escape "/" and "~" (RFC 6901)', async () => {
    class Odd {
      @IsString() 'a/b'!: string;
      @IsInt() '~n'!: number;
    }
    const OddBox = Type.Object({ 'a/b': Type.String(), '~n': Type.Integer() });
    const expected = [
      { pointer: '/a~1b', keyword: 'required', message: 'is required' },
      { pointer: '/~0n', keyword: 'required', message: 'is required' },
    ];
    expect(await failed(compileSchema(Odd), {})).toEqual(expected);
    expect(await failed(compileSchema(OddBox), {})).toEqual(expected);
    expect(await failed(compileSchema(Odd), { 'a/b': 1, '~n': 1 })).toEqual([{ pointer: '/a~1b', keyword: 'type', message: 'must be a string' }]);
  });
});

describe('valid arguments', () => {
  class Settings2 {
    @Field({ default: 3, description: 'Days ahead' }) @IsInt() @Min(1) days!: number;
    @IsOptional() @IsIn(['metric', 'imperial']) units: 'metric' | 'imperial' = 'metric';
    @Field({ default: { zip: '00000', city: 'Nowhere' } }) @ValidateNested() @Nested(() => Address) address!: Address;
    @ValidateNested({ each: true }) @Nested(() => Item) items: Item[] = [];
  }
  const compiled = compileSchema(Settings2);

  test('become a real instance, with @Field defaults and initializers applied, nested DTOs instantiated', async () => {
    const input = { items: [{ sku: 'a', qty: 2 }] };
    const outcome = await compiled.validate(input);
    expect(outcome.ok).toBe(true);
    if (!outcome.ok) return;
    const value = outcome.value as Settings2;
    expect(value).toBeInstanceOf(Settings2);
    expect(value).toMatchObject({ days: 3, units: 'metric', address: { zip: '00000', city: 'Nowhere' } });
    expect(value.address).toBeInstanceOf(Address);
    expect(value.items[0]).toBeInstanceOf(Item);
    // The caller's object is not touched, and defaults are copies.
    expect(input).toEqual({ items: [{ sku: 'a', qty: 2 }] });
    const again = await compiled.validate({});
    expect(again.ok && (again.value as Settings2).address).not.toBe(value.address);
  });

  test('present values win over defaults; a default is validated like any value', async () => {
    const outcome = await compiled.validate({ days: 5, units: 'imperial' });
    expect(outcome.ok && outcome.value).toMatchObject({ days: 5, units: 'imperial' });
    expect(await failed(compiled, { days: 0 })).toEqual([{ pointer: '/days', keyword: 'minimum', message: 'must be >= 1' }]);
  });

  test('TypeBox applies schema defaults on a copy', async () => {
    const onlyDefault = compileSchema(Type.Object({ n: Type.Optional(Type.Integer({ default: 3 })) }));
    const empty = {};
    expect(await onlyDefault.validate(empty)).toEqual({ ok: true, value: { n: 3 } });
    expect(empty).toEqual({});
    const withDefaults = compileSchema(
      Type.Object({
        q: Type.String(),
        n: Type.Optional(Type.Integer({ default: 3 })),
        o: Type.Optional(Type.Object({ k: Type.Optional(Type.String({ default: 'v' })) }, { default: {} })),
      }),
    );
    const input = { q: 'x' };
    expect(await withDefaults.validate(input)).toEqual({ ok: true, value: { q: 'x', n: 3, o: { k: 'v' } } });
    expect(input).toEqual({ q: 'x' });
  });

  test('TypeBox without defaults hands back the value itself (nothing to copy)', async () => {
    const input = { q: 'x' };
    const outcome = await compileSchema(Type.Object({ q: Type.String() })).validate(input);
    expect(outcome.ok && outcome.value).toBe(input);
  });

  test('the DTO and TypeBox orders both accept the good value', async () => {
    const fromDto = await dto.validate(good);
    expect(fromDto.ok && fromDto.value).toBeInstanceOf(Order);
    expect(await box.validate(good)).toEqual({ ok: true, value: good });
  });
});

// A raw JSON Schema `enum` (not a union of literals) beside `@IsIn`, with a nested object:
// the two sides report the same pointers and keywords, in words of their own.
describe('DTO and a raw-enum TypeBox schema report the same mistakes the same way', () => {
  class Zip {
    @IsString() code!: string;
  }
  class ShippingOrder {
    @IsString() item!: string;
    @IsInt() @Min(1) @Max(10) qty!: number;
    @IsIn(['fast', 'slow']) shipping!: string;
    @ValidateNested() @Nested(() => Zip) zip!: Zip;
  }
  const ShippingUnionBox = Type.Object({
    item: Type.String(),
    qty: Type.Integer({ minimum: 1, maximum: 10 }),
    shipping: Type.Union([Type.Literal('fast'), Type.Literal('slow')]),
    zip: Type.Object({ code: Type.String() }),
  });
  const ShippingEnumBox = Type.Object({
    item: Type.String(),
    qty: Type.Integer({ minimum: 1, maximum: 10 }),
    shipping: Type.Unsafe<string>({ type: 'string', enum: ['fast', 'slow'] }),
    zip: Type.Object({ code: Type.String() }),
  });
  const shippingDto = compileSchema(ShippingOrder);
  const shippingBox = compileSchema(ShippingEnumBox);
  const shape = (issues: ValidationIssue[]) => issues.map((i) => `${i.pointer} ${i.keyword}`).sort();
  const shipped = { item: 'pen', qty: 2, shipping: 'fast', zip: { code: '1' } };

  test.each([
    ['missing required', { qty: 2, shipping: 'fast', zip: { code: '1' } }],
    ['wrong type', { ...shipped, item: 5 }],
    ['out of range', { ...shipped, qty: 11 }],
    ['below range', { ...shipped, qty: 0 }],
    ['enum violation', { ...shipped, shipping: 'teleport' }],
    ['nested', { ...shipped, zip: { code: 7 } }],
    ['nested missing', { ...shipped, zip: {} }],
  ])('%s', async (_name, value) => {
    const a = await failed(shippingDto, value);
    const b = await failed(shippingBox, value);
    expect(shape(a)).toEqual(shape(b));
    for (const issue of [...a, ...b]) expect(issue.message.length).toBeGreaterThan(3);
  });

  test('both accept the same valid value, and so does the union form', async () => {
    expect((await shippingDto.validate(shipped)).ok).toBe(true);
    expect((await shippingBox.validate(shipped)).ok).toBe(true);
    expect((await compileSchema(ShippingUnionBox).validate(shipped)).ok).toBe(true);
  });
});

describe('what only one side has', () => {
  test('a class-validator decorator without a JSON Schema keyword keeps its name', async () => {
    class Paint {
      @IsString() @IsHexColor() tint!: string;
    }
    expect(await failed(compileSchema(Paint), { tint: 'zz' })).toEqual([{ pointer: '/tint', keyword: 'isHexColor', message: 'must be a hexadecimal color' }]);
  });

  test("a DTO author's own message is kept", async () => {
    class Polite {
      @IsString({ message: 'give the city name, e.g. Paris' }) city!: string;
      @IsInt() @Min(1, { message: 'at least one night' }) nights!: number;
    }
    expect(await failed(compileSchema(Polite), { city: 5, nights: 0 })).toEqual([
      { pointer: '/city', keyword: 'type', message: 'give the city name, e.g. Paris' },
      { pointer: '/nights', keyword: 'minimum', message: 'at least one night' },
    ]);
  });

  test('each: true constraints point at the failing items', async () => {
    class Scores {
      @IsInt({ each: true }) @Min(0, { each: true }) scores!: number[];
    }
    expect(await failed(compileSchema(Scores), { scores: [1, -1, 'x'] })).toEqual([
      { pointer: '/scores/1', keyword: 'minimum', message: 'must be >= 0' },
      { pointer: '/scores/2', keyword: 'type', message: 'must be an integer' },
    ]);
  });

  test('TypeBox additionalProperties: false names the stray property and the allowed ones', async () => {
    const strict = compileSchema(Type.Object({ a: Type.String(), b: Type.Optional(Type.Integer()) }, { additionalProperties: false }));
    expect(await failed(strict, { a: 'x', c: 1 })).toEqual([
      { pointer: '/c', keyword: 'additionalProperties', message: 'is not an allowed property (allowed: a, b)' },
    ]);
  });

  test('TypeBox unions of types say which types would do', async () => {
    const nullable = compileSchema(Type.Object({ n: Type.Union([Type.String(), Type.Null()]) }));
    expect(await failed(nullable, { n: 5 })).toEqual([{ pointer: '/n', keyword: 'type', message: 'must be a string or null' }]);
  });
});

describe('formatIssues', () => {
  test('one line per issue, naming where, what and the keyword', async () => {
    const issues = await failed(dto, { units: 'celsius', days: 3, address: good.address, items: good.items });
    expect(formatIssues(issues)).toBe('Invalid arguments:\n- /location: is required (required)\n- /units: must be one of metric, imperial, kelvin (enum)');
    expect(formatIssues(issues, null)).toBe('- /location: is required (required)\n- /units: must be one of metric, imperial, kelvin (enum)');
    expect(formatIssues([{ pointer: '', keyword: 'type', message: 'must be an object' }])).toBe('Invalid arguments:\n- (arguments): must be an object (type)');
  });
});

describe('ajv (2020-12) agrees with both validators', () => {
  // Formats are the validators' business (ajv needs a plugin for them), so they are left out here.
  const ajv = new Ajv2020({ strict: false, validateFormats: false });
  const samples: [string, unknown, boolean][] = [
    ['good', good, true],
    ['good with options', { ...good, units: 'kelvin', tags: ['x'], extra: true }, true],
    ['missing', goodWithout('location'), false],
    ['range', { ...good, days: 8 }, false],
    ['enum', { ...good, units: 'celsius' }, false],
    ['nested', { ...good, address: { zip: '1', city: 'x' } }, false],
    ['item', { ...good, items: [{ sku: 'a', qty: 0 }] }, false],
    ['tags', { ...good, tags: 'a' }, false],
    ['root', [good], false],
  ];
  test.each([
    ['DTO', dto],
    ['TypeBox', box],
  ])('%s', async (_name, compiled) => {
    const check = ajv.compile(JSON.parse(JSON.stringify(compiled.jsonSchema)));
    for (const [label, sample, valid] of samples) {
      const plain = JSON.parse(JSON.stringify(sample)) as unknown;
      expect([label, check(plain)]).toEqual([label, valid]);
      expect([label, (await compiled.validate(plain)).ok]).toEqual([label, valid]);
    }
  });
});

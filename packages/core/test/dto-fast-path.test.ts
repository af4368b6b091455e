import 'reflect-metadata';
import {
  ArrayMaxSize,
  ArrayMinSize,
  ArrayNotEmpty,
  ArrayUnique,
  Equals,
  IsArray,
  IsBoolean,
  IsDefined,
  IsEnum,
  IsIn,
  IsInt,
  IsNegative,
  IsNotEmpty,
  IsNumber,
  IsObject,
  IsOptional,
  IsPositive,
  IsString,
  Length,
  Matches,
  Max,
  MaxLength,
  Min,
  MinLength,
  ValidateNested,
} from 'class-validator';
import { Type } from 'class-transformer';
import { Field, type JsonSchema } from '@decorum/core';
import { compileSchema } from '../src/schema/compiled-input.js';
import type { ValidationOutcome } from '../src/schema/issues.js';
import { compileClassValidatorPath, compileDtoValidator } from '../src/schema/dto/validator.js';

// ---------------------------------------------------------------------------------------------
// A zoo of DTOs whose every constraint maps to JSON Schema: each must take the fast path, and
// for every generated value answer exactly as the class-validator path does.
// ---------------------------------------------------------------------------------------------

class Flat {
  @IsString() @Length(2, 10) name!: string;
  @IsInt() @Min(0) @Max(120) age!: number;
  @IsBoolean() active!: boolean;
  @IsNumber() score!: number;
  @IsOptional() @IsString() @MaxLength(5) note?: string;
  @Field({ description: 'no class-validator decorator: only its design type and presence are checked' }) hint!: string;
  @Field({ description: 'no type at all: only its presence is checked' }) payload!: unknown;
}

class Initialized {
  @IsOptional() @IsIn(['metric', 'imperial']) units: string = 'metric';
  @IsInt() @Min(1) days = 3;
  @IsOptional() @IsString({ each: true }) tags: string[] = [];
  @IsOptional() @IsBoolean() flag?: boolean;
  @IsOptional() @IsPositive() limit?: number;
}

/** An initializer class-validator refuses: valid only when `n` is given. */
class BadInitializer {
  @IsInt() @Min(1) n = 0;
  @IsOptional() @IsString() label?: string;
}

class Address {
  @Field({ examples: ['75001', '00000', '1234', '123456', 'abcde'] }) @IsString() @Matches(/^\d{5}$/) zip!: string;
  @IsString() @IsNotEmpty() city!: string;
}

class Defaults {
  @Field({ default: 3 }) @IsInt() @Min(1) n!: number;
  @Field({ default: 'x' }) @IsString() @MinLength(1) s!: string;
  @Field({ default: { zip: '00000', city: 'Nowhere' } }) @ValidateNested() @Type(() => Address) address!: Address;
  @Field({ default: ['a', 'b'] }) @IsString({ each: true }) letters!: string[];
}

/** A default class-validator refuses: valid only when `n` is given. */
class BadDefault {
  @Field({ default: 0 }) @IsInt() @Min(1) n!: number;
}

enum Color {
  Red = 'red',
  Green = 'green',
}
enum Level {
  Low = 1,
  High = 2,
}

class Enums {
  @IsEnum(Color) color!: Color;
  @IsEnum(Level) level!: Level;
  @IsIn([1, 'a', true, null]) mixed!: unknown;
  @Equals('yes') confirm!: string;
  @IsOptional() @IsIn(['x', 'y'], { each: true }) letters?: string[];
}

class Strings {
  @MinLength(2) @MaxLength(4) code!: string;
  @IsString() @Length(3) atLeast3!: string;
  @IsNotEmpty() @IsString() title!: string;
  @Field({ examples: ['abc', 'a-b', 'A-b', '-a'] }) @Matches('^[a-z]+(-[a-z]+)*$') slug!: string;
  @IsOptional() @MinLength(2, { each: true }) words?: string[];
  @IsOptional() @IsDefined() @IsString() present!: string;
}

class Numbers {
  @IsInt() @Min(-5) @Max(5) small!: number;
  @IsNumber() @Max(1.5) ratio!: number;
  @IsNegative() neg!: number;
  @IsPositive() @IsInt() pos!: number;
  @IsOptional() @IsNumber({ allowNaN: true }) loose?: number;
}

class Arrays {
  @IsArray() @ArrayMinSize(1) @ArrayMaxSize(3) @IsInt({ each: true }) ids!: number[];
  @ArrayNotEmpty() @IsString({ each: true }) @MaxLength(3, { each: true }) names!: string[];
  @ArrayUnique() @IsString({ each: true }) unique!: string[];
  @IsOptional() @IsBoolean({ each: true }) flags?: boolean[];
}

class Item {
  @IsString() sku!: string;
  @IsInt() @Min(1) qty!: number;
}

class Order {
  @ValidateNested() @Type(() => Address) address!: Address;
  @IsOptional() @ValidateNested() @Type(() => Address) billing?: Address;
  @ValidateNested({ each: true }) @Type(() => Item) @ArrayMinSize(1) items!: Item[];
  @IsOptional() @IsObject() meta?: Record<string, unknown>;
}

class TreeNode {
  @IsString() label!: string;
  @IsOptional() @ValidateNested({ each: true }) @Type(() => TreeNode) children?: TreeNode[];
}

class BaseQuery {
  @IsString() @MaxLength(10) id!: string;
  @IsOptional() @IsInt() @Min(0) page?: number;
}
class DerivedQuery extends BaseQuery {
  @IsBoolean() verbose = false;
  @IsInt() @Max(50) declare page?: number;
}

const ZOO: [string, Function][] = [
  ['flat', Flat],
  ['optional with initializers', Initialized],
  ['an initializer class-validator refuses', BadInitializer],
  ['@Field defaults', Defaults],
  ['a @Field default class-validator refuses', BadDefault],
  ['enums', Enums],
  ['strings with lengths and patterns', Strings],
  ['numbers with bounds', Numbers],
  ['arrays', Arrays],
  ['nested DTOs and arrays of them', Order],
  ['a recursive DTO', TreeNode],
  ['inheritance', DerivedQuery],
];

// ---------------------------------------------------------------------------------------------
// A deterministic generator of values around a JSON Schema: mostly near-valid, with boundary
// values, wrong types, null, undefined, unknown keys (some named like Object.prototype members)
// and the odd huge array. Generating twice from one seed gives two equal, unshared values.
// ---------------------------------------------------------------------------------------------

/**
 * A deep copy made in this realm: structuredClone would make objects whose prototype is another
 * realm's Object.prototype under Jest's VM modules, which the fast path leaves to the full path.
 */
function copy(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(copy);
  if (typeof value === 'object' && value !== null) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, copy(v)]));
  return value;
}

/** mulberry32: a small seeded PRNG, good enough to spread test cases. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const CHARS = ['a', 'b', 'z', 'A', '0', '7', ' ', '-', 'é', '😀', '\uFE0F', '\u212A', '_'];
const EXTRA_KEYS = ['extra', 'toString', 'constructor', 'hasOwnProperty', '__proto__', '0', 'valueOf', 'nested'];

class Generator {
  private readonly random: () => number;
  /** Half the samples stay close to valid, so that both answers are well represented. */
  private readonly careful: boolean;

  constructor(
    seed: number,
    private readonly top: JsonSchema,
  ) {
    this.random = prng(seed);
    this.careful = this.chance(0.5);
  }

  private chance(p: number): boolean {
    return this.random() < p;
  }

  private int(lo: number, hi: number): number {
    return lo + Math.floor(this.random() * (hi - lo + 1));
  }

  private pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.random() * items.length)];
  }

  /** Something of any type; objects and arrays only while shallow. */
  junk(depth: number): unknown {
    const scalars: unknown[] = [null, undefined, true, false, 0, -0, 1, -1, 1.5, 1e21, Number.NaN, Number.POSITIVE_INFINITY, '', 'x', '12', '😀', '\uFE0F'];
    if (depth > 3 || this.chance(0.6)) return this.pick(scalars);
    switch (this.int(0, 3)) {
      case 0:
        return [];
      case 1:
        return [this.junk(depth + 1), this.junk(depth + 1)];
      case 2:
        return {};
      default:
        return { a: this.junk(depth + 1), [this.pick(EXTRA_KEYS)]: this.junk(depth + 1) };
    }
  }

  value(schema: JsonSchema, depth = 0): unknown {
    if (typeof schema.$ref === 'string') {
      const target = schema.$ref === '#' ? this.top : (this.top.$defs as Record<string, JsonSchema>)[schema.$ref.slice('#/$defs/'.length)];
      const { $ref: _ref, ...rest } = schema;
      return this.value({ ...target, ...rest }, depth);
    }
    if (this.chance(this.careful ? 0.01 : 0.07)) return this.junk(depth);
    if (Array.isArray(schema.examples) && this.chance(0.6)) return copy(this.pick(schema.examples));
    if (Array.isArray(schema.enum)) return this.chance(0.85) ? this.pick(schema.enum) : this.junk(depth);
    if ('const' in schema) return this.chance(0.85) ? schema.const : this.pick(['no', 'Yes', '']);
    switch (schema.type) {
      case 'integer':
      case 'number':
        return this.number(schema);
      case 'string':
        return this.string(schema);
      case 'boolean':
        return this.chance(0.5);
      case 'array':
        return this.array(schema, depth);
      case 'object':
        return this.object(schema, depth);
      default:
        return this.chance(0.5) ? this.string({}) : this.junk(depth);
    }
  }

  private number(schema: JsonSchema): number {
    const lo = typeof schema.minimum === 'number' ? schema.minimum : typeof schema.exclusiveMinimum === 'number' ? schema.exclusiveMinimum : -100;
    const hi = typeof schema.maximum === 'number' ? schema.maximum : typeof schema.exclusiveMaximum === 'number' ? schema.exclusiveMaximum : 100;
    const inRange = lo + this.random() * (hi - lo);
    if (this.careful) return schema.type === 'integer' ? Math.min(Math.max(Math.round(inRange), Math.ceil(lo)), Math.floor(hi)) : inRange;
    return this.pick([lo, hi, lo - 1, hi + 1, lo - 0.5, hi + 0.5, 0, -0, Math.round(inRange), Math.round(inRange), inRange, Math.round(inRange) + 0.5]);
  }

  private string(schema: JsonSchema): string {
    const min = typeof schema.minLength === 'number' ? schema.minLength : 0;
    const max = typeof schema.maxLength === 'number' ? schema.maxLength : 8;
    const length = this.careful ? this.int(min, Math.max(min, max)) : this.pick([min - 1, min, min + 1, max - 1, max, max + 1, this.int(0, max + 2)]);
    let out = '';
    for (let i = 0; i < length; i++) out += this.chance(this.careful ? 0.9 : 0.75) ? this.pick(['a', 'b', 'z', '0', '7', '-']) : this.pick(CHARS);
    return out;
  }

  private array(schema: JsonSchema, depth: number): unknown[] {
    const min = typeof schema.minItems === 'number' ? schema.minItems : 0;
    const max = typeof schema.maxItems === 'number' ? schema.maxItems : 4;
    const length =
      depth < 2 && this.chance(0.02)
        ? 1500
        : depth > 3
          ? 0
          : this.careful
            ? this.int(min, Math.max(min, Math.min(max, 3)))
            : Math.max(0, this.pick([0, 1, min - 1, min, max, max + 1, this.int(0, max)]));
    const items = (schema.items ?? {}) as JsonSchema;
    const out: unknown[] = [];
    // A repeated item is a copy: the two paths must get equal values that share nothing.
    for (let i = 0; i < length; i++) out.push(i > 0 && this.chance(0.15) ? copy(out[this.int(0, i - 1)]) : this.value(items, depth + 1));
    return out;
  }

  private object(schema: JsonSchema, depth: number): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    const required = new Set((schema.required ?? []) as string[]);
    const properties = Object.entries((schema.properties ?? {}) as Record<string, JsonSchema>);
    for (let i = properties.length - 1; i > 0; i--) {
      const j = this.int(0, i);
      [properties[i], properties[j]] = [properties[j], properties[i]];
    }
    for (const [name, property] of properties) {
      if (this.chance(required.has(name) ? (this.careful ? 1 : 0.93) : depth > 2 ? 0.15 : 0.5)) out[name] = this.value(property, depth + 1);
      else if (this.chance(0.1)) out[name] = undefined; // not JSON, but a caller in JavaScript may pass it
    }
    if (this.chance(0.3)) {
      // Like JSON.parse, an own "__proto__" key is data, not the prototype.
      Object.defineProperty(out, this.pick(EXTRA_KEYS), { value: this.junk(depth + 1), enumerable: true, writable: true, configurable: true });
    }
    return out;
  }

  /** A root value: an object around the schema, rarely something else. */
  sample(): unknown {
    return this.chance(0.02) ? this.pick([null, [], 'x', 3]) : this.value(this.top);
  }
}

// ---------------------------------------------------------------------------------------------
// Comparing outcomes: same `ok`, and on success the same instance — prototypes at every level,
// own keys in order (with their enumerability), values by `Object.is`; on failure the same issues.
// ---------------------------------------------------------------------------------------------

/** Where `a` and `b` first differ, or `undefined` when they have the same shape and data. */
function difference(a: unknown, b: unknown, path = '$'): string | undefined {
  if (typeof a !== 'object' || a === null || typeof b !== 'object' || b === null) {
    return Object.is(a, b) ? undefined : `${path}: ${String(a)} vs ${String(b)}`;
  }
  if (Object.getPrototypeOf(a) !== Object.getPrototypeOf(b)) return `${path}: different prototypes`;
  const keysA = Reflect.ownKeys(a);
  const keysB = Reflect.ownKeys(b);
  if (keysA.join('\u0000') !== keysB.join('\u0000')) return `${path}: keys [${keysA.join(', ')}] vs [${keysB.join(', ')}]`;
  for (const key of keysA) {
    const da = Object.getOwnPropertyDescriptor(a, key)!;
    const db = Object.getOwnPropertyDescriptor(b, key)!;
    if (da.enumerable !== db.enumerable) return `${path}.${String(key)}: enumerability differs`;
    const inner = difference(da.value, db.value, `${path}.${String(key)}`);
    if (inner !== undefined) return inner;
  }
  return undefined;
}

/** Every object and array reachable from `value`. */
function objectsIn(value: unknown, out = new Set<object>()): Set<object> {
  if (typeof value === 'object' && value !== null && !out.has(value)) {
    out.add(value);
    for (const key of Reflect.ownKeys(value)) objectsIn(Object.getOwnPropertyDescriptor(value, key)!.value, out);
  }
  return out;
}

/** An outcome, or the message it was refused with. */
async function settle(answer: ValidationOutcome<object> | Promise<ValidationOutcome<object>>): Promise<ValidationOutcome<object> | { threw: string }> {
  try {
    return await answer;
  } catch (error) {
    return { threw: String((error as Error).message) };
  }
}

const SAMPLES = 400;

describe('the fast path answers exactly as the class-validator path (seeded differential)', () => {
  test.each(ZOO)('%s', async (_label, cls) => {
    const fast = compileDtoValidator(cls);
    expect([fast.strategy, fast.reason]).toEqual(['json-schema', undefined]);
    const full = compileClassValidatorPath(cls);
    const schema = compileSchema(cls).jsonSchema;
    let synchronous = 0;
    let accepted = 0;
    let refused = 0;
    let thrown = 0;
    for (let seed = 1; seed <= SAMPLES; seed++) {
      const input = new Generator(seed, schema).sample();
      const answer = fast(input);
      const label = `seed ${seed}: ${JSON.stringify(new Generator(seed, schema).sample())?.slice(0, 300)}`;
      const [outcome, expected] = await Promise.all([settle(answer), settle(full(new Generator(seed, schema).sample()))]);
      if ('threw' in outcome || 'threw' in expected) {
        // Should either path throw (an own "constructor" key once made class-transformer throw), both must.
        expect([label, outcome]).toEqual([label, expected]);
        thrown++;
        continue;
      }
      expect([label, outcome.ok]).toEqual([label, expected.ok]);
      if (outcome.ok && expected.ok) {
        expect([label, difference(outcome.value, expected.value)]).toEqual([label, undefined]);
        // Like plainToInstance, the fast path copies: nothing of the input ends up in the value.
        const shared = [...objectsIn(outcome.value)].filter((o) => objectsIn(input).has(o));
        expect([label, shared.length]).toEqual([label, 0]);
        accepted++;
      } else if (!outcome.ok && !expected.ok) {
        expect([label, outcome.issues]).toEqual([label, expected.issues]);
        refused++;
      }
      // The caller's value is never changed.
      expect([label, difference(input, new Generator(seed, schema).sample())]).toEqual([label, undefined]);
      if (!(answer instanceof Promise)) {
        // A synchronous answer is the fast path's, and the fast path only ever says "valid".
        expect([label, outcome.ok]).toEqual([label, true]);
        synchronous++;
      }
    }
    // Both sides of the comparison were exercised, and the fast path answered on its own.
    expect(thrown).toBeLessThan(SAMPLES / 10);
    expect(accepted).toBeGreaterThan(SAMPLES / 20);
    expect(refused).toBeGreaterThan(SAMPLES / 20);
    expect(synchronous).toBeGreaterThan(0);
  });
});

describe('hand-picked edge cases', () => {
  const fast = compileDtoValidator(Numbers);
  const full = compileClassValidatorPath(Numbers);
  const good = { small: 1, ratio: 1.5, neg: -1, pos: 2 };

  test.each<[string, unknown]>([
    ['the good value', good],
    ['a float for @IsInt', { ...good, small: 1.5 }],
    ['a string where a number goes', { ...good, ratio: '1' }],
    ['NaN', { ...good, ratio: Number.NaN }],
    ['Infinity', { ...good, ratio: Number.POSITIVE_INFINITY }],
    ['NaN where @IsNumber({ allowNaN: true }) is optional', { ...good, loose: Number.NaN }],
    ['-0 for @IsNegative', { ...good, neg: -0 }],
    ['null for an optional property', { ...good, loose: null }],
    ['undefined for an optional property', { ...good, loose: undefined }],
    ['undefined for a required property', { ...good, small: undefined }],
    ['a missing required property', { ratio: 1, neg: -1, pos: 2 }],
    ['an own __proto__ key', JSON.parse('{"small":1,"ratio":1,"neg":-1,"pos":2,"__proto__":{"small":9}}')],
    ['a class instance as the arguments', Object.assign(new Numbers(), good)],
  ])('%s', async (_label, value) => {
    const outcome = await fast(value);
    expect(outcome).toEqual(await full(value));
    if (outcome.ok) expect(difference(outcome.value, ((await full(value)) as { value: object }).value)).toBeUndefined();
  });

  test.each<[string, Function, unknown, 'sync' | 'async']>([
    ['an initialized property given as undefined', Initialized, { days: undefined }, 'async'],
    ['undefined for a property with a @Field default', Defaults, { n: undefined }, 'sync'],
    [
      'an explicit undefined for an optional nested DTO',
      Order,
      { address: { zip: '75001', city: 'P' }, items: [{ sku: 'a', qty: 1 }], billing: undefined },
      'sync',
    ],
    ['a missing property that has no type', Flat, { name: 'ab', age: 1, active: true, score: 1, hint: 'h' }, 'async'],
  ])('%s', async (_label, cls, value, how) => {
    const answer = compileDtoValidator(cls)(value);
    expect(answer instanceof Promise ? 'async' : 'sync').toBe(how);
    const outcome = await answer;
    const expected = await compileClassValidatorPath(cls)(value);
    expect(outcome).toEqual(expected);
    if (outcome.ok && expected.ok) expect(difference(outcome.value, expected.value)).toBeUndefined();
  });

  test('a huge array is judged the same way', async () => {
    const ids = Array.from({ length: 5000 }, (_, i) => i);
    for (const value of [
      { ids: [1, 2], names: ['a'], unique: ids.map(String) },
      { ids, names: ['a'], unique: [] },
    ]) {
      const outcome = await compileDtoValidator(Arrays)(value);
      expect(outcome).toEqual(await compileClassValidatorPath(Arrays)(value));
    }
  });

  test('a sparse array is compacted by both, and judged on what is left', async () => {
    const holes = [1, , 3]; // eslint-disable-line no-sparse-arrays
    const value = { ids: holes, names: ['a'], unique: [] };
    const outcome = await compileDtoValidator(Arrays)(value);
    expect(outcome).toEqual(await compileClassValidatorPath(Arrays)(value));
  });

  test('initializers and @Field defaults are applied on the fast path, synchronously', async () => {
    for (const cls of [Initialized, Defaults]) {
      const answer = compileDtoValidator(cls)({});
      expect(answer).not.toBeInstanceOf(Promise);
      const expected = await compileClassValidatorPath(cls)({});
      expect(expected.ok).toBe(true);
      expect(difference((answer as ValidationOutcome<object> & { ok: true }).value, (expected as { value: object }).value)).toBeUndefined();
    }
  });

  test('a property whose initializer sets a function stays on the full path, which leaves it alone', async () => {
    // class-transformer skips a key the new instance already holds a function under: the fast path
    // copies every planned property without asking, so such a DTO is not planned.
    class WithCallback {
      @IsOptional() @IsString() name?: string;
      @IsOptional() format: unknown = (value: unknown) => value;
    }
    const fast = compileDtoValidator(WithCallback);
    expect([fast.strategy, fast.reason]).toEqual(['class-validator', 'WithCallback.format: an initializer sets a function there']);
    const value = { name: 'n', format: 'plain text' };
    const outcome = await fast(value);
    const expected = await compileClassValidatorPath(WithCallback)(value);
    expect(outcome.ok && expected.ok).toBe(true);
    if (!outcome.ok || !expected.ok) return;
    // Each instance has its own function: the same shape, not the same value.
    for (const { value } of [outcome, expected]) {
      const instance = value as WithCallback;
      expect(instance).toBeInstanceOf(WithCallback);
      expect([instance.name, typeof instance.format]).toEqual(['n', 'function']);
    }
  });

  test('valid values become real instances, synchronously', () => {
    const answer = compileDtoValidator(Order)({
      address: { zip: '75001', city: 'Paris' },
      items: [{ sku: 'a', qty: 1 }],
      meta: { deep: [{ x: 1 }] },
      extra: { y: [2] },
    });
    expect(answer).not.toBeInstanceOf(Promise);
    const outcome = answer as ValidationOutcome<Order>;
    expect(outcome.ok).toBe(true);
    if (!outcome.ok) return;
    expect(outcome.value).toBeInstanceOf(Order);
    expect(outcome.value.address).toBeInstanceOf(Address);
    expect(outcome.value.items[0]).toBeInstanceOf(Item);
    expect(Object.getPrototypeOf(outcome.value.meta)).toBe(Object.prototype);
    expect((outcome.value as unknown as { extra: unknown }).extra).toEqual({ y: [2] });
  });
});

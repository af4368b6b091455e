import { Type } from 'typebox';
import { Settings } from 'typebox/system';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { compileSchema } from '../src/schema/compiled-input.js';
import { isTypeBoxSchema, typeBoxToJsonSchema } from '../src/schema/typebox/from-typebox.js';

const Weather = Type.Object({
  location: Type.String({ description: 'City name' }),
  units: Type.Optional(Type.Union([Type.Literal('metric'), Type.Literal('imperial')], { default: 'metric' })),
  days: Type.Integer({ minimum: 1, maximum: 7 }),
  tags: Type.Readonly(Type.Array(Type.String(), { maxItems: 3 })),
});

/** Every key of a JSON value, at any depth. */
function allKeys(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(allKeys);
  if (typeof value !== 'object' || value === null) return [];
  return [...Reflect.ownKeys(value).map(String), ...Object.values(value).flatMap(allKeys)];
}

const ajv = new Ajv2020({ strict: false, validateFormats: false });

describe('isTypeBoxSchema', () => {
  test.each([
    ['Type.Object', Weather],
    ['Type.String', Type.String()],
    ['Type.Union', Type.Union([Type.String(), Type.Null()])],
    ['Type.Any (no JSON keyword, only the ~kind marker)', Type.Any()],
    ['a plain JSON Schema object', { type: 'object', properties: {} }],
  ])('%s → true', (_name, value) => expect(isTypeBoxSchema(value)).toBe(true));

  test.each([
    ['null', null],
    ['an array', [Type.String()]],
    ['an empty object', {}],
    ['an object without schema keywords', { location: 'x' }],
    ['a class', class Args {}],
    ['a string', 'object'],
  ])('%s → false', (_name, value) => expect(isTypeBoxSchema(value)).toBe(false));
});

describe('typeBoxToJsonSchema', () => {
  test('is the plain JSON Schema TypeBox built, as a copy', () => {
    const json = typeBoxToJsonSchema(Weather);
    expect(json).toEqual({
      type: 'object',
      required: ['location', 'days', 'tags'],
      properties: {
        location: { type: 'string', description: 'City name' },
        units: {
          anyOf: [
            { type: 'string', const: 'metric' },
            { type: 'string', const: 'imperial' },
          ],
          default: 'metric',
        },
        days: { type: 'integer', minimum: 1, maximum: 7 },
        tags: { type: 'array', items: { type: 'string' }, maxItems: 3 },
      },
    });
    expect(json).not.toBe(Weather);
    expect(allKeys(json).filter((k) => k.startsWith('~'))).toEqual([]);
  });

  test("drops TypeBox's markers even when they are enumerable (Settings.enumerableKind)", () => {
    Settings.Set({ enumerableKind: true });
    try {
      const schema = Type.Object({ a: Type.Optional(Type.String()), b: Type.Readonly(Type.Integer()) });
      expect(Object.keys(schema)).toContain('~kind');
      expect(JSON.stringify(schema)).toContain('~kind'); // a JSON round trip alone would leak them
      const json = typeBoxToJsonSchema(schema);
      expect(allKeys(json).filter((k) => k.startsWith('~'))).toEqual([]);
      expect(json).toEqual({ type: 'object', required: ['b'], properties: { a: { type: 'string' }, b: { type: 'integer' } } });
    } finally {
      Settings.Set({ enumerableKind: false });
    }
  });

  test('keeps "~" where it is a name or data, not a marker', () => {
    const schema = Type.Object({ '~weird': Type.String({ default: '~x' }), meta: Type.Object({}, { default: { '~k': 1 } }) });
    const json = typeBoxToJsonSchema(schema) as { properties: Record<string, unknown>; required: string[] };
    expect(Object.keys(json.properties)).toEqual(['~weird', 'meta']);
    expect(json.properties['~weird']).toEqual({ type: 'string', default: '~x' });
    expect(json.properties.meta).toEqual({ type: 'object', properties: {}, default: { '~k': 1 } });
  });

  test('a cyclic schema keeps its $defs and $ref, and ajv resolves them', () => {
    const Node = Type.Cyclic({ Node: Type.Object({ name: Type.String(), children: Type.Array(Type.Ref('Node')) }) }, 'Node');
    const json = typeBoxToJsonSchema(Node);
    expect(json).toMatchObject({ $ref: 'Node', $defs: { Node: { type: 'object' } } });
    const check = ajv.compile(json);
    expect(check({ name: 'a', children: [{ name: 'b', children: [] }] })).toBe(true);
    expect(check({ name: 'a', children: [{ name: 1, children: [] }] })).toBe(false);
  });

  test('tuples are written the 2020-12 way (prefixItems, items)', () => {
    expect(typeBoxToJsonSchema(Type.Tuple([Type.String(), Type.Number()]))).toEqual({
      type: 'array',
      prefixItems: [{ type: 'string' }, { type: 'number' }],
      items: false,
      minItems: 2,
    });
    const check = ajv.compile(typeBoxToJsonSchema(Type.Object({ t: Type.Tuple([Type.String(), Type.Number()]) })));
    expect(check({ t: ['a', 1] })).toBe(true);
    expect(check({ t: ['a', 1, 2] })).toBe(false);
    expect(check({ t: [1, 'a'] })).toBe(false);
  });

  test.each([
    ['Weather', Weather],
    [
      'every keyword family',
      Type.Object(
        {
          e: Type.Enum(['a', 'b']),
          n: Type.Union([Type.Number({ exclusiveMinimum: 0 }), Type.Null()]),
          s: Type.String({ format: 'email', pattern: '@', minLength: 3 }),
        },
        { additionalProperties: false },
      ),
    ],
    ['records and tuples', Type.Object({ r: Type.Record(Type.String(), Type.Integer()), t: Type.Tuple([Type.String(), Type.Number()]) })],
    ['intersections', Type.Intersect([Type.Object({ a: Type.String() }), Type.Object({ b: Type.Integer() })])],
  ])('%s is a valid 2020-12 schema (ajv)', (_name, schema) => {
    expect(() => ajv.compile(typeBoxToJsonSchema(schema))).not.toThrow();
  });
});

describe('compileSchema with TypeBox', () => {
  test('serves the stripped schema, frozen', () => {
    const { jsonSchema } = compileSchema(Weather);
    expect(jsonSchema).toEqual(typeBoxToJsonSchema(Weather));
    expect(Object.isFrozen(jsonSchema)).toBe(true);
    expect(Object.isFrozen((jsonSchema.properties as Record<string, object>).units)).toBe(true);
    // The user's TypeBox schema is left as it was.
    expect(Object.isFrozen(Weather)).toBe(false);
  });

  test('an arguments schema must be an object at the root; an output schema need not be', () => {
    expect(() => compileSchema(Type.String())).toThrow(/"type": "object" at its root \(got "string"\)/);
    expect(compileSchema(Type.Array(Type.String()), false).jsonSchema).toEqual({ type: 'array', items: { type: 'string' } });
  });
});

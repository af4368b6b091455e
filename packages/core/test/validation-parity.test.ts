import 'reflect-metadata';
import { IsIn, IsInt, IsString, Max, Min, ValidateNested } from 'class-validator';
import { Type as Nested } from 'class-transformer';
import { Type } from 'typebox';
import { compileSchema, type ValidationIssue } from '@decorum/core';

class Zip {
  @IsString() code!: string;
}
class OrderDto {
  @IsString() item!: string;
  @IsInt() @Min(1) @Max(10) qty!: number;
  @IsIn(['fast', 'slow']) shipping!: string;
  @ValidateNested() @Nested(() => Zip) zip!: Zip;
}
const OrderBox = Type.Object({
  item: Type.String(),
  qty: Type.Integer({ minimum: 1, maximum: 10 }),
  shipping: Type.Union([Type.Literal('fast'), Type.Literal('slow')]),
  zip: Type.Object({ code: Type.String() }),
});
const OrderEnumBox = Type.Object({
  item: Type.String(),
  qty: Type.Integer({ minimum: 1, maximum: 10 }),
  shipping: Type.Unsafe<string>({ type: 'string', enum: ['fast', 'slow'] }),
  zip: Type.Object({ code: Type.String() }),
});

const dto = compileSchema(OrderDto);
const box = compileSchema(OrderEnumBox);
const shape = (issues: ValidationIssue[]) => issues.map((i) => `${i.pointer} ${i.keyword}`).sort();
const good = { item: 'pen', qty: 2, shipping: 'fast', zip: { code: '1' } };

describe('DTO and TypeBox report the same mistakes the same way', () => {
  test.each([
    ['missing required', { qty: 2, shipping: 'fast', zip: { code: '1' } }],
    ['wrong type', { ...good, item: 5 }],
    ['out of range', { ...good, qty: 11 }],
    ['below range', { ...good, qty: 0 }],
    ['enum violation', { ...good, shipping: 'teleport' }],
    ['nested', { ...good, zip: { code: 7 } }],
    ['nested missing', { ...good, zip: {} }],
  ])('%s', async (_name, value) => {
    const a = await dto.validate(value);
    const b = await box.validate(value);
    expect(a.ok).toBe(false);
    expect(b.ok).toBe(false);
    if (a.ok || b.ok) return;
    expect(shape(a.issues)).toEqual(shape(b.issues));
    for (const issue of [...a.issues, ...b.issues]) expect(issue.message.length).toBeGreaterThan(3);
  });

  test('both accept the same valid value', async () => {
    expect((await dto.validate(good)).ok).toBe(true);
    expect((await box.validate(good)).ok).toBe(true);
    expect((await compileSchema(OrderBox).validate(good)).ok).toBe(true);
  });

  test('TypeBox applies schema defaults on a copy', async () => {
    const withDefault = compileSchema(Type.Object({ n: Type.Optional(Type.Integer({ default: 3 })) }));
    const input = {};
    const outcome = await withDefault.validate(input);
    expect(outcome).toEqual({ ok: true, value: { n: 3 } });
    expect(input).toEqual({});
  });
});

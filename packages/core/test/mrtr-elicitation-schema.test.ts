import 'reflect-metadata';
import { IsEmail, IsString, Matches, ValidateNested } from 'class-validator';
import { Type as TransformType } from 'class-transformer';
import { Type } from 'typebox';
import { ElicitationSchemaError } from '@decorum/core';
import { checkContent, toRequestedSchema } from '../src/asks/elicitation-schema.js';

class Contact {
  @IsEmail() email!: string;
}
class WithPattern {
  @Matches(/^[a-z]+$/) slug!: string;
}
class Nested {
  @IsString() name!: string;
  @ValidateNested() @TransformType(() => Contact) contact!: Contact;
}

describe('elicitation requestedSchema: conversion to the flat subset', () => {
  test('DTO, TypeBox and plain schemas become the restricted subset', () => {
    expect(toRequestedSchema(Contact)).toEqual({ type: 'object', properties: { email: { type: 'string', format: 'email' } }, required: ['email'] });
    expect(
      toRequestedSchema(
        Type.Object({
          size: Type.Union([Type.Literal('s'), Type.Literal('m')]),
          tags: Type.Array(Type.Union([Type.Literal('a'), Type.Literal('b')]), { minItems: 1 }),
          when: Type.Optional(Type.String({ format: 'date' })),
        }),
      ),
    ).toEqual({
      type: 'object',
      properties: {
        size: { type: 'string', enum: ['s', 'm'] },
        tags: { type: 'array', minItems: 1, items: { type: 'string', enum: ['a', 'b'] } },
        when: { type: 'string', format: 'date' },
      },
      required: ['size', 'tags'],
    });
    const titled = {
      type: 'object',
      properties: { pick: { type: 'string', oneOf: [{ const: 'x', title: 'Ex' }] }, many: { type: 'array', items: { anyOf: [{ const: 'y', title: 'Why' }] } } },
    };
    expect(toRequestedSchema(titled)).toEqual(titled);
  });

  test('what the subset cannot express is an error naming the property', () => {
    expect(() => toRequestedSchema(Nested)).toThrow(ElicitationSchemaError);
    expect(() => toRequestedSchema(Nested)).toThrow(/"contact"/);
    expect(() => toRequestedSchema(WithPattern)).toThrow(/"slug" uses "pattern"/);
    expect(() => toRequestedSchema(Type.Object({ n: Type.Array(Type.Integer()) }))).toThrow(/"n" is an array/);
    expect(() => toRequestedSchema({ type: 'string' })).toThrow(/root/);
    expect(() => toRequestedSchema({ type: 'object', properties: { p: { type: 'string', format: 'ipv4' } } })).toThrow(/format "ipv4"/);
    expect(() => toRequestedSchema({ type: 'object', properties: {}, required: ['ghost'] })).toThrow(/ghost/);
  });

  test('accepted content is checked: types, bounds, enums, formats, required', () => {
    const schema = toRequestedSchema({
      type: 'object',
      properties: {
        age: { type: 'integer', minimum: 0, maximum: 130 },
        mail: { type: 'string', format: 'email' },
        tags: { type: 'array', items: { type: 'string', enum: ['a', 'b'] }, maxItems: 1 },
        ok: { type: 'boolean' },
      },
      required: ['age'],
    });
    expect(checkContent(schema, { age: 30, mail: 'a@b.c', tags: ['a'], ok: true, extra: 1 })).toEqual({
      ok: true,
      value: { age: 30, mail: 'a@b.c', tags: ['a'], ok: true },
    });
    const bad = checkContent(schema, { age: 1.5, mail: 'nope', tags: ['a', 'c'], ok: 'yes' });
    expect(bad.ok).toBe(false);
    if (!bad.ok)
      expect(bad.issues.map((i) => `${i.pointer} ${i.keyword}`)).toEqual(['/age type', '/mail format', '/tags/1 enum', '/tags maxItems', '/ok type']);
    const missing = checkContent(schema, {});
    expect(missing.ok || missing.issues).toEqual([{ pointer: '/age', keyword: 'required', message: 'is required' }]);
  });
});

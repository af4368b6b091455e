import 'reflect-metadata';
import {
  ArrayUnique,
  IsDivisibleBy,
  IsEmail,
  IsHexColor,
  IsIn,
  IsInt,
  IsNumber,
  IsObject,
  IsString,
  Matches,
  MaxLength,
  MinLength,
  Validate,
  ValidateIf,
  ValidateNested,
  ValidatorConstraint,
  type ValidatorConstraintInterface,
} from 'class-validator';
import { Exclude, Expose, Transform, Type } from 'class-transformer';
import { Type as T } from 'typebox';
import { Compile } from 'typebox/compile';
import { compileSchema } from '../src/schema/compiled-input.js';
import { compileClassValidatorPath, compileDtoValidator } from '../src/schema/dto/validator.js';

@ValidatorConstraint({ name: 'even' })
class Even implements ValidatorConstraintInterface {
  validate(value: unknown): boolean {
    return typeof value === 'number' && value % 2 === 0;
  }
}

class CustomConstraint {
  @IsInt() @Validate(Even) n!: number;
}
class Conditional {
  @IsIn(['a', 'b']) kind!: string;
  @ValidateIf((o: Conditional) => o.kind === 'b') @IsString() b?: string;
}
class Transformed {
  @Transform(({ value }) => (typeof value === 'string' ? value.trim() : value)) @IsString() @MinLength(2) name!: string;
}
class Converted {
  @Type(() => Number) @IsInt() n!: number;
}
class HexColor {
  @IsString() @IsHexColor() tint!: string;
}
class Email {
  @IsEmail() email!: string;
}
class Flagged {
  @Matches(/^abc$/i) code!: string;
}
class AnyChar {
  @Matches(/^.$/) char!: string;
}
class Grouped {
  @IsString({ groups: ['admin'] }) s!: string;
}
class Always {
  @IsString({ always: true }) s!: string;
}
class UniqueNumbers {
  @ArrayUnique() @IsInt({ each: true }) ids!: number[];
}
class Divisible {
  @IsInt() @IsDivisibleBy(3) n!: number;
}
class Decimals {
  @IsNumber({ maxDecimalPlaces: 1 }) x!: number;
}
class LengthOfAnArray {
  @MinLength(2) tags!: string[];
}
class ListedRefused {
  @IsIn(['ab', 'abc']) @MaxLength(2) code!: string;
}
class ObjectListed {
  @IsIn([{ a: 1 }]) o!: unknown;
}
class Inner {
  @IsEmail() email!: string;
}
class Outer {
  @ValidateNested() @Type(() => Inner) inner!: Inner;
}
class Exposed {
  @Expose({ name: 'full_name' }) @IsString() name!: string;
}
class Address {
  @IsString() city!: string;
}
class TypedOnly {
  @Type(() => Address) @IsObject() address!: Address;
}
class Accessor {
  @Exclude() private stored = 0;
  @IsInt()
  get n(): number {
    return this.stored;
  }
  set n(value: number) {
    this.stored = value * 2;
  }
}

describe('DTOs with a constraint that does not map exactly keep class-validator', () => {
  test.each<[string, Function, RegExp, unknown[]]>([
    ['custom @Validate', CustomConstraint, /CustomConstraint\.n: @Validate has no JSON Schema counterpart/, [{ n: 4 }, { n: 3 }]],
    ['@ValidateIf', Conditional, /Conditional\.b: @ValidateIf decides at run time/, [{ kind: 'a' }, { kind: 'b' }, { kind: 'b', b: 'x' }]],
    ['@Transform', Transformed, /Transformed\.name: @Transform/, [{ name: ' ab ' }, { name: ' a ' }]],
    ['@Type(() => Number) on a primitive', Converted, /Converted\.n: @Transform or @Type/, [{ n: '5' }, { n: 'x' }]],
    [
      'a constraint with no JSON Schema keyword (IsPhoneNumber-like)',
      HexColor,
      /HexColor\.tint: @IsHexColor has no JSON Schema counterpart/,
      [{ tint: 'fff' }, { tint: 'zz' }],
    ],
    ['a format whose check is not JSON Schema’s', Email, /Email\.email: @IsEmail/, [{ email: 'a@b.co' }, { email: 'nope' }]],
    ['@Matches with a flag', Flagged, /Flagged\.code: @Matches is not implied/, [{ code: 'ABC' }, { code: 'abd' }]],
    ['@Matches whose pattern reads differently with the u flag', AnyChar, /AnyChar\.char: @Matches is not implied/, [{ char: 'x' }, { char: '😀' }]],
    ['groups', Grouped, /Grouped\.s: @IsString has groups/, [{ s: 'x' }, { s: 1 }]],
    ['always', Always, /Always\.s: @IsString has the always option/, [{ s: 'x' }, { s: 1 }]],
    ['@ArrayUnique over numbers (0 and -0)', UniqueNumbers, /UniqueNumbers\.ids: @ArrayUnique is not implied/, [{ ids: [1, 2] }, { ids: [0, -0] }]],
    ['@IsDivisibleBy', Divisible, /Divisible\.n: @IsDivisibleBy/, [{ n: 9 }, { n: 10 }]],
    ['@IsNumber({ maxDecimalPlaces })', Decimals, /Decimals\.x: @IsNumber is not implied/, [{ x: 1.5 }, { x: 1.25 }]],
    [
      'a constraint the schema leaves out (@MinLength on an array)',
      LengthOfAnArray,
      /LengthOfAnArray\.tags: @MinLength is not implied/,
      [{ tags: ['a', 'b'] }],
    ],
    [
      'a listed value another constraint refuses',
      ListedRefused,
      /ListedRefused\.code: @MaxLength refuses a value the schema lists/,
      [{ code: 'ab' }, { code: 'abc' }],
    ],
    ['a listed value that is not a JSON scalar', ObjectListed, /ObjectListed\.o: lists values that are not all JSON scalars/, [{ o: { a: 1 } }]],
    ['a nested DTO that does not map', Outer, /^Inner\.email: @IsEmail/, [{ inner: { email: 'a@b.co' } }, { inner: { email: 'x' } }]],
    ['@Expose', Exposed, /Exposed\.name: @Expose or @Exclude changes which keys/, [{ full_name: 'x' }, { name: 'x' }]],
    [
      '@Type without @ValidateNested',
      TypedOnly,
      /TypedOnly\.address: @Type on a property without @ValidateNested/,
      [{ address: { city: 'P' } }, { address: 'P' }],
    ],
    ['a decorated accessor', Accessor, /Accessor\.n: the class's prototype defines it/, [{ n: 2 }, { n: 'x' }]],
  ])('%s', async (_label, cls, reason, samples) => {
    const validator = compileDtoValidator(cls);
    expect(validator.strategy).toBe('class-validator');
    expect(validator.reason).toMatch(reason);
    expect(compileSchema(cls).strategy).toBe('class-validator');
    const full = compileClassValidatorPath(cls);
    for (const value of samples) {
      const answer = validator(value);
      expect(answer).toBeInstanceOf(Promise);
      expect(await answer).toEqual(await full(value));
    }
  });

  test('they validate as before: the constraint the schema cannot say still decides', async () => {
    expect(await compileSchema(HexColor).validate({ tint: 'zz' })).toEqual({
      ok: false,
      issues: [{ pointer: '/tint', keyword: 'isHexColor', message: 'must be a hexadecimal color' }],
    });
    expect((await compileSchema(Conditional).validate({ kind: 'a' })).ok).toBe(true);
    const trimmed = await compileSchema(Transformed).validate({ name: ' ab ' });
    expect(trimmed.ok && trimmed.value).toEqual(Object.assign(new Transformed(), { name: 'ab' }));
    // Why /^.$/ cannot be compiled: JSON Schema's `u` flag takes "😀" as one character, class-validator as two.
    const schema = compileSchema(AnyChar);
    expect(Compile(JSON.parse(JSON.stringify(schema.jsonSchema))).Check({ char: '😀' })).toBe(true);
    expect((await schema.validate({ char: '😀' })).ok).toBe(false);
    // And why @ArrayUnique over numbers is not: class-validator says 0 and -0 are one item.
    expect((await compileSchema(UniqueNumbers).validate(JSON.parse('{"ids":[0,-0]}'))).ok).toBe(false);
  });
});

describe('which strategy a compiled schema uses', () => {
  class Mappable {
    @IsInt() n!: number;
  }

  test('a TypeBox schema: its compiled check; the first call may wait for the compiler, later calls answer synchronously', async () => {
    const compiled = compileSchema(T.Object({ n: T.Integer() }));
    expect(compiled.strategy).toBe('typebox');
    // Compiled on first use (schema/typebox/typebox-compiler.ts): this call may load TypeBox's compiler.
    expect(await compiled.validate({ n: 1 })).toEqual({ ok: true, value: { n: 1 } });
    expect(compiled.validate({ n: 2 })).toEqual({ ok: true, value: { n: 2 } });
    expect(compiled.validate({ n: 'x' })).toEqual({ ok: false, issues: [{ pointer: '/n', keyword: 'type', message: 'must be an integer' }] });
  });

  test('a DTO whose constraints all map: valid values synchronously, the rest through class-validator', async () => {
    const compiled = compileSchema(Mappable);
    expect(compiled.strategy).toBe('json-schema');
    expect(((await compiled.validate({ n: 2 })) as { value: unknown }).value).toBeInstanceOf(Mappable); // compiles on first use
    const valid = compiled.validate({ n: 1 });
    expect(valid).not.toBeInstanceOf(Promise);
    expect((valid as { value: unknown }).value).toBeInstanceOf(Mappable);
    const invalid = compiled.validate({ n: 1.5 });
    expect(invalid).toBeInstanceOf(Promise);
    expect(await invalid).toEqual({ ok: false, issues: [{ pointer: '/n', keyword: 'type', message: 'must be an integer' }] });
  });
});

/**
 * The type link between `@Tool({ input, output })` and the handler, checked by `tsc` (`npm run
 * typecheck` covers this folder): every `@ts-expect-error` below is a handler tsc must refuse, so
 * loosening `@Tool`'s typing leaves an unused directive and fails the type-check. Nothing runs.
 */
import 'reflect-metadata';
import { IsInt, IsString } from 'class-validator';
import { Type, type Static } from 'typebox';
import { z } from 'zod';
import * as v from 'valibot';
import { toStandardJsonSchema } from '@valibot/to-json-schema';
import { type } from 'arktype';
import { text, Tool, type CallToolResult, type ToolContext } from '@decorum/core';

class Order {
  @IsString() item!: string;
  @IsInt() qty!: number;
}

class Receipt {
  @IsString() item!: string;
  @IsInt() total!: number;
}

const ZodIn = z.object({ n: z.number().int().min(0), tag: z.string().transform((s) => s.length) });
const ZodOut = z.object({ doubled: z.number() });
const ValibotIn = toStandardJsonSchema(v.object({ n: v.number() }));
const ArkIn = type({ n: 'number.integer >= 0' });
const BoxIn = Type.Object({ a: Type.Integer(), b: Type.Integer() });
const BoxOut = Type.Object({ sum: Type.Integer() });

export class Accepted {
  // Standard Schema: the handler gets the output type (after transforms: `tag` is a number).
  @Tool({ input: ZodIn, output: ZodOut }) zod(args: { n: number; tag: number }, _ctx: ToolContext) {
    return { doubled: args.n * 2 + args.tag };
  }
  @Tool({ input: ZodIn }) zod_inferred(args: z.output<typeof ZodIn>) {
    return args.tag.toFixed();
  }
  @Tool({ input: ValibotIn }) valibot(args: { n: number }) {
    return String(args.n);
  }
  @Tool({ input: ArkIn }) arktype(args: typeof ArkIn.infer) {
    return String(args.n);
  }
  // TypeBox: Static<T>; a wider parameter type is fine (it accepts what validation produces).
  @Tool({ input: BoxIn, output: BoxOut }) async sum(args: Static<typeof BoxIn>) {
    return { sum: args.a + args.b };
  }
  @Tool({ input: BoxIn }) wide(args: { a: number }) {
    return args.a;
  }
  // DTO classes: the instance type, in and out.
  @Tool({ input: Order, output: Receipt }) order(args: Order): Receipt {
    return { item: args.item, total: args.qty };
  }
  // With output:, a full CallToolResult is still allowed (an isError result).
  @Tool({ input: null, output: BoxOut }) refuse(): CallToolResult | { sum: number } {
    return { content: [text('no')], isError: true };
  }
  // No input: (the parameter's design type decides) and no output: anything goes.
  @Tool() free(args: Order) {
    return [text(args.item)];
  }
  @Tool({ input: null }) nothing(_args: Record<string, unknown>, ctx: ToolContext) {
    return ctx.client.protocolVersion;
  }
}

export class Refused {
  // @ts-expect-error -- the parameter cannot take the zod schema's output
  @Tool({ input: ZodIn }) zod(args: { wrong: string }) {
    return args.wrong;
  }
  // @ts-expect-error -- `tag` is a number after the transform, not the string the caller sends
  @Tool({ input: ZodIn }) zod_before_transform(args: { n: number; tag: string }) {
    return args.tag;
  }
  // @ts-expect-error -- the result does not fit output:
  @Tool({ input: ZodIn, output: ZodOut }) zod_output(args: { n: number }) {
    return { nope: args.n };
  }
  // @ts-expect-error -- valibot (through toStandardJsonSchema) keeps its types
  @Tool({ input: ValibotIn }) valibot(args: { n: string }) {
    return args.n;
  }
  // @ts-expect-error -- ArkType too
  @Tool({ input: ArkIn }) arktype(args: { n: string }) {
    return args.n;
  }
  // @ts-expect-error -- TypeBox: Static<T> is { a: number; b: number }
  @Tool({ input: BoxIn }) box(args: { a: string }) {
    return args.a;
  }
  // @ts-expect-error -- a promise of the wrong shape is still the wrong shape
  @Tool({ input: BoxIn, output: BoxOut }) async box_output(args: Static<typeof BoxIn>) {
    return { sum: String(args.a) };
  }
  // @ts-expect-error -- DTO: the parameter must take an Order
  @Tool({ input: Order }) dto(args: { sku: string }) {
    return args.sku;
  }
  // @ts-expect-error -- DTO output: a Receipt has item and total
  @Tool({ input: Order, output: Receipt }) dto_output(args: Order) {
    return { item: args.item };
  }
  // @ts-expect-error -- input: null hands the handler {}; it cannot require arguments
  @Tool({ input: null }) none(args: { q: string }) {
    return args.q;
  }
}

// The TC39 standard form (no experimentalDecorators) is held to the same types.
const standardContext = {} as ClassMethodDecoratorContext<object, (args: { n: number; tag: number }) => string>;
Tool({ input: ZodIn })((args: { n: number; tag: number }) => String(args.n + args.tag), standardContext);
const wrongContext = {} as ClassMethodDecoratorContext<object, (args: { wrong: string }) => string>;
// @ts-expect-error -- standard form: the parameter cannot take the schema's output
Tool({ input: ZodIn })((args: { wrong: string }) => args.wrong, wrongContext);
const boxContext = {} as ClassMethodDecoratorContext<object, (args: Static<typeof BoxIn>) => { nope: number }>;
// @ts-expect-error -- standard form: the result does not fit output:
Tool({ input: BoxIn, output: BoxOut })((args: Static<typeof BoxIn>) => ({ nope: args.a }), boxContext);

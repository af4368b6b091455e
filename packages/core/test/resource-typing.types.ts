/**
 * The type link between `@Resource({ uriTemplate })` and the handler, checked by `tsc` (`npm run
 * typecheck` covers this folder): every `@ts-expect-error` below is a handler tsc must refuse, so
 * loosening the typing leaves an unused directive and fails the type-check. Nothing runs.
 */
import 'reflect-metadata';
import { IsString } from 'class-validator';
import { Type } from 'typebox';
import { Resource, type ResourceContext, type TemplateVariables } from '@decorum/core';

/** `true` only when `A` and `B` are the same type. */
type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
const same = <A, B>(check: Equal<A, B>) => check;

same<TemplateVariables<'orders://{orderId}{?page}'>, { orderId: string; page?: string }>(true);
same<TemplateVariables<'config://app'>, Record<string, never>>(true);
same<
  TemplateVariables<'f://{+base}{/path*}{.ext}{;v}{id:3}{?q,sort}{&tags*}{#frag}'>,
  { base: string; path: string[]; ext: string; v: string; id: string; q?: string; sort?: string; tags?: string[] | Record<string, string>; frag?: string }
>(true);
same<TemplateVariables<string>, Record<string, string | string[] | Record<string, string>>>(true);
// @ts-expect-error -- `page` is optional: a query variable may be absent from the URI
same<TemplateVariables<'orders://{orderId}{?page}'>, { orderId: string; page: string }>(true);

class OrderVars {
  @IsString() orderId!: string;
}

const template = 'orders://{orderId}' as string;

export class Accepted {
  @Resource({ uriTemplate: 'orders://{orderId}{?page}' }) byName({ orderId, page }: TemplateVariables<'orders://{orderId}{?page}'>, _ctx: ResourceContext) {
    return `${orderId} ${page ?? ''}`;
  }
  @Resource({ uriTemplate: 'orders://{orderId}' }) literal({ orderId }: { orderId: string }) {
    return orderId;
  }
  // Reading fewer variables, or none, is fine; so is a wider type.
  @Resource({ uriTemplate: 'orders://{orderId}/{line}' }) fewer(vars: Record<string, string>) {
    return vars.line;
  }
  @Resource({ uriTemplate: 'orders://{orderId}' }) none() {
    return 'x';
  }
  // With input:, the handler gets what validation produces.
  @Resource({ uriTemplate: 'orders://{orderId}', input: OrderVars }) dto(vars: OrderVars) {
    return vars.orderId;
  }
  @Resource({ uriTemplate: 'items://{sku}', input: Type.Object({ sku: Type.String() }) }) box({ sku }: { sku: string }) {
    return sku;
  }
  // A template only known as a string names no variables to hold the handler to.
  @Resource({ uriTemplate: template }) loose({ anything }: { anything: string }) {
    return anything;
  }
  @Resource({ uri: 'config://app' }) fixed(_vars: object, _ctx: ResourceContext) {
    return '{}';
  }
}

export class Refused {
  // @ts-expect-error -- orders://{orderId} has no `id` (the issue's example)
  @Resource({ uriTemplate: 'orders://{orderId}' }) wrongName({ id }: { id: string }) {
    return id;
  }
  // @ts-expect-error -- `page` may be absent from the URI, so the handler cannot require it
  @Resource({ uriTemplate: 'orders://{orderId}{?page}' }) requiresQuery({ page }: { orderId: string; page: string }) {
    return page;
  }
  // @ts-expect-error -- an exploded path variable is a list, not a string
  @Resource({ uriTemplate: 'files://{/path*}' }) explodedAsString({ path }: { path: string }) {
    return path;
  }
  // @ts-expect-error -- with input:, the parameter must take the DTO instance (no `id` there)
  @Resource({ uriTemplate: 'orders://{orderId}', input: OrderVars }) wrongDto({ id }: { id: string }) {
    return id;
  }
}

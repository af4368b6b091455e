import 'reflect-metadata';
import { IsOptional, IsString, Matches } from 'class-validator';
import { Type } from 'typebox';
import { McpServer, Resource, StartupErrorCode, type ResourceContext } from '@decorum/core';
import { request } from '@decorum-internal/test-support';
import { harness } from './support/engine-harness.js';
import { startupError } from './support/startup-error.js';

class ById {
  @IsString() id!: string;
}

class OrderVars {
  @Matches(/^\d+$/) orderId!: string;
  @IsOptional() @Matches(/^\d+$/) page?: string;
}

describe('template variables are checked against the handler at start-up', () => {
  test('a DTO parameter that reads { id } from orders://{orderId} names the resource, the template and both names', () => {
    class Orders {
      // @ts-expect-error -- the template has no `id`: tsc refuses the handler too (see resource-typing.types.ts)
      @Resource({ uriTemplate: 'orders://{orderId}' })
      order({ id }: ById) {
        return `order ${id}`;
      }
    }
    const error = startupError(Orders);
    expect(error?.code).toBe(StartupErrorCode.TEMPLATE_VARIABLES);
    expect(error?.message).toBe(
      'DECORUM_ERR_TEMPLATE_VARIABLES: @Resource on Orders.order (orders://{orderId}): the template\'s variable "orderId" is not in its input; ' +
        'the input\'s required property "id" is not in the template (input properties: "id"). ' +
        'Name the template variables as the input does, or change the input: the handler gets exactly the variables of the template',
    );
  });

  test('an input: schema (TypeBox) is held to the template the same way', () => {
    class Files {
      @Resource({ uriTemplate: 'files://{dir}/{name}', input: Type.Object({ dir: Type.String(), file: Type.String() }) })
      file({ dir, file }: { dir: string; file: string }) {
        return `${dir}/${file}`;
      }
    }
    const error = startupError(Files);
    expect(error?.code).toBe(StartupErrorCode.TEMPLATE_VARIABLES);
    expect(error?.message).toContain('@Resource on Files.file (files://{dir}/{name}): the template\'s variable "name" is not in its input');
    expect(error?.message).toContain('the input\'s required property "file" is not in the template');
  });

  test('an optional property may be missing from the template; a handler typed without a schema is not checked', () => {
    class Fine {
      @Resource({ uriTemplate: 'orders://{orderId}', input: OrderVars }) order(vars: OrderVars) {
        return vars.orderId;
      }
      @Resource({ uriTemplate: 'users://{id}' }) user({ id }: { id: string }) {
        return id;
      }
    }
    expect(startupError(Fine)).toBeUndefined();
  });

  test('uri: with {…} is refused, pointing to uriTemplate:', () => {
    class Mistaken {
      @Resource({ uri: 'orders://{orderId}' }) order() {
        return 'x';
      }
    }
    const error = startupError(Mistaken);
    expect(error?.code).toBe(StartupErrorCode.INVALID_DECLARATION);
    expect(error?.message).toContain(
      '@Resource on Mistaken.order: "orders://{orderId}" holds {…}, which no URI may: for an RFC 6570 template write uriTemplate: instead of uri:',
    );
  });
});

@McpServer({ name: 'orders', version: '1.0.0' })
class Orders {
  @Resource({ uriTemplate: 'orders://{orderId}{?page}' })
  order(vars: OrderVars, ctx: ResourceContext) {
    return JSON.stringify({ dto: vars instanceof OrderVars, orderId: vars.orderId, page: vars.page ?? null, uri: ctx.uri });
  }
  @Resource({ uriTemplate: 'items://{sku}', input: Type.Object({ sku: Type.String({ minLength: 3 }) }) })
  item({ sku }: { sku: string }) {
    return sku;
  }
}

describe('template variables are validated on every read', () => {
  const { call } = harness([Orders]);

  test('valid variables reach the handler as the DTO instance', async () => {
    const { result, error } = (await call(request(1, 'resources/read', { uri: 'orders://42?page=2' })))!;
    expect(error).toBeUndefined();
    expect(JSON.parse(result.contents[0].text)).toEqual({ dto: true, orderId: '42', page: '2', uri: 'orders://42?page=2' });
  });

  test('invalid ones are -32602 with the issues', async () => {
    const { error } = (await call(request(2, 'resources/read', { uri: 'orders://abc?page=x' })))!;
    expect(error.code).toBe(-32602);
    expect(error.message).toMatch(/^Invalid variables for resource template "order" \(orders:\/\/abc\?page=x\):\n- \/orderId: /);
    expect(error.data.uri).toBe('orders://abc?page=x');
    expect(error.data.issues.map((issue: { pointer: string; keyword: string }) => [issue.pointer, issue.keyword])).toEqual([
      ['/orderId', 'pattern'],
      ['/page', 'pattern'],
    ]);
  });

  test('the same with an input: schema', async () => {
    expect((await call(request(3, 'resources/read', { uri: 'items://abcd' })))!.result.contents[0].text).toBe('abcd');
    const { error } = (await call(request(4, 'resources/read', { uri: 'items://ab' })))!;
    expect(error).toMatchObject({ code: -32602, data: { uri: 'items://ab', issues: [{ pointer: '/sku', keyword: 'minLength' }] } });
  });
});

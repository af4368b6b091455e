import 'reflect-metadata';
import { Exclude, Expose, Type } from 'class-transformer';
import { Allow, IsInt, IsString, ValidateNested } from 'class-validator';
import { StartupErrorCode, Tool, type ToolContext } from '@decorum/core';
import { request } from '@decorum-internal/test-support';
import { harness } from './support/engine-harness.js';
import { startupError } from './support/startup-error.js';

/** The start-up error of a server whose tool takes `dto`, or undefined when it starts. */
function startupErrorOf(dto: Function) {
  class Server {
    @Tool({ input: dto }) run(args: unknown) {
      return JSON.stringify(args);
    }
  }
  return startupError(Server);
}

describe('a DTO property that nothing validates is a start-up error', () => {
  test('a declared field without a decorator, named with its class and tool, and the fixes', () => {
    class Order {
      @IsString() id!: string;
      note!: string;
    }
    const error = startupErrorOf(Order);
    expect(error?.code).toBe(StartupErrorCode.UNVALIDATED_PROPERTY);
    expect(error?.message).toMatch(/^DECORUM_ERR_UNVALIDATED_PROPERTY: input schema of Server\.run: Order\.note has no class-validator decorator/);
    expect(error?.message).toMatch(/handler would get the value unvalidated\. Add a validation decorator .*@Allow\(\).*@Exclude\(\)/);
  });

  class Paged {
    @IsString() q!: string;
    page = 1;
  }
  class Stamped {
    @IsString() q!: string;
    declare at: number;
    constructor() {
      this.at = 0;
    }
  }
  class Converted {
    @IsString() q!: string;
    @Type(() => Number) n!: number;
  }
  class Renamed {
    @IsString() q!: string;
    @Expose({ name: 'full_name' }) name!: string;
  }

  test.each<[string, Function, string]>([
    ['an initializer', Paged, 'Paged.page'],
    ['a constructor assignment', Stamped, 'Stamped.at'],
    ['only @Type from class-transformer', Converted, 'Converted.n'],
    ['only @Expose from class-transformer', Renamed, 'Renamed.name'],
  ])('%s', (_, dto, named) => {
    const error = startupErrorOf(dto);
    expect(error?.code).toBe(StartupErrorCode.UNVALIDATED_PROPERTY);
    expect(error?.message).toContain(`${named} has no class-validator decorator`);
  });

  test('every such property is listed, inherited and nested ones too', () => {
    class Base {
      @IsString() id!: string;
      owner!: string;
    }
    class Line {
      @IsInt() qty!: number;
      sku!: string;
    }
    class Order extends Base {
      @ValidateNested() @Type(() => Line) line!: Line;
      tag!: string;
    }
    expect(startupErrorOf(Order)?.message).toContain('Order.owner, Order.tag have no class-validator decorator');
    class Wrapper {
      @ValidateNested() @Type(() => Line) line!: Line;
    }
    expect(startupErrorOf(Wrapper)?.message).toContain('Line.sku has no class-validator decorator');
  });

  test('@Allow() accepts a value as it comes; @Exclude() keeps internal state; a method-valued field takes no input', async () => {
    class Loose {
      @IsString() q!: string;
      @Allow() extra!: unknown;
      @Exclude() cache = new Map<string, string>();
      format = (value: string) => value.trim();
    }
    expect(startupErrorOf(Loose)).toBeUndefined();
    class Server {
      @Tool() run(args: Loose, _ctx: ToolContext) {
        return JSON.stringify({ q: args.format(args.q), extra: args.extra, cache: args.cache instanceof Map });
      }
    }
    const { call } = harness([Server]);
    const response = await call(request(1, 'tools/call', { name: 'run', arguments: { q: ' a ', extra: [1], cache: 'x' } }));
    expect(response?.result).toMatchObject({ content: [{ type: 'text', text: JSON.stringify({ q: 'a', extra: [1], cache: true }) }] });
  });
});

import 'reflect-metadata';
import { IsString } from 'class-validator';
import { Field, McpHeader } from '@decorum/core';
import { compileSchema } from '../src/schema/compiled-input.js';

describe('@Field and @McpHeader', () => {
  test('combine in either order', () => {
    class Args {
      @Field({ description: 'Region to run in' }) @McpHeader('Region') @IsString() region!: string;
      @McpHeader('Zone') @Field({ description: 'Zone' }) @IsString() zone!: string;
    }
    const { properties } = compileSchema(Args).jsonSchema as { properties: Record<string, unknown> };
    expect(properties.region).toEqual({ type: 'string', description: 'Region to run in', 'x-mcp-header': 'Region' });
    expect(properties.zone).toEqual({ type: 'string', description: 'Zone', 'x-mcp-header': 'Zone' });
  });
});

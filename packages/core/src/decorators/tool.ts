import { memberDecorator } from './member-decorator.js';
import type { ToolOptions } from './metadata.js';
import type { DualMethodDecorator } from './standard.js';

/** Exposes a method as an MCP tool. It is called as `(args, ctx)`. Legacy or standard decorator. */
export function Tool(options: ToolOptions = {}): DualMethodDecorator {
  return memberDecorator('@Tool', (propertyKey, paramTypes) => ({ kind: 'tool', propertyKey, options, paramTypes }));
}

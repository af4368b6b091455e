import { designParamTypes, recordMember, type ToolOptions } from './metadata.js';

/** Exposes a method as an MCP tool. It is called as `(args, ctx)`. */
export function Tool(options: ToolOptions = {}): MethodDecorator {
  return (target, propertyKey) => {
    recordMember(target, { kind: 'tool', propertyKey: String(propertyKey), options, paramTypes: designParamTypes(target, propertyKey) });
  };
}

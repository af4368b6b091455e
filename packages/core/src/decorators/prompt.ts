import { designParamTypes, recordMember, type PromptOptions } from './metadata.js';

/** Exposes a method as an MCP prompt. It is called as `(args, ctx)`. */
export function Prompt(options: PromptOptions = {}): MethodDecorator {
  return (target, propertyKey) => {
    recordMember(target, { kind: 'prompt', propertyKey: String(propertyKey), options, paramTypes: designParamTypes(target, propertyKey) });
  };
}

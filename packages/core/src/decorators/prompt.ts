import { memberDecorator } from './member-decorator.js';
import type { PromptOptions } from './metadata.js';
import type { DualMethodDecorator } from './standard.js';

/** Exposes a method as an MCP prompt. It is called as `(args, ctx)`. Legacy or standard decorator. */
export function Prompt(options: PromptOptions = {}): DualMethodDecorator {
  return memberDecorator('@Prompt', (propertyKey, paramTypes) => ({ kind: 'prompt', propertyKey, options, paramTypes }));
}

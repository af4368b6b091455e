import { memberDecorator } from './member-decorator.js';
import type { ResourceOptions } from './metadata.js';
import type { DualMethodDecorator } from './standard.js';

/**
 * Exposes a method as an MCP resource (`uri`) or resource template (`uriTemplate`).
 * It is called as `(variables, ctx)`; `variables` is `{}` for a fixed URI. Legacy or standard decorator.
 */
export function Resource(options: ResourceOptions): DualMethodDecorator {
  return memberDecorator('@Resource', (propertyKey, paramTypes) => ({ kind: 'resource', propertyKey, options, paramTypes }));
}

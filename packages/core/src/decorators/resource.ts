import { designParamTypes, recordMember, type ResourceOptions } from './metadata.js';

/**
 * Exposes a method as an MCP resource (`uri`) or resource template (`uriTemplate`).
 * It is called as `(variables, ctx)`; `variables` is `{}` for a fixed URI.
 */
export function Resource(options: ResourceOptions): MethodDecorator {
  return (target, propertyKey) => {
    recordMember(target, { kind: 'resource', propertyKey: String(propertyKey), options, paramTypes: designParamTypes(target, propertyKey) });
  };
}

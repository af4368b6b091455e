import { DecorumStartupError, StartupErrorCode } from '../errors/startup-error.js';
import type { JsonSchema } from '../schema/json-schema.js';
import type { UriTemplate } from './uri-template.js';

/**
 * Holds a resource template to the input its handler declares: every variable must be a property
 * of the input, and every required property a variable — else a read would hand the handler a name
 * it does not read, or never the one it needs (`orders://{orderId}` read as `({ id })`).
 *
 * @param schema - the input's JSON Schema (an object schema: `properties`, `required`).
 * @throws DecorumStartupError (`DECORUM_ERR_TEMPLATE_VARIABLES`) naming the resource, the template and the names.
 */
export function checkTemplateVariables(template: UriTemplate, schema: JsonSchema, source: string): void {
  const properties = Object.keys((schema.properties ?? {}) as Record<string, unknown>);
  const required = Array.isArray(schema.required) ? (schema.required as string[]) : [];
  const unknown = template.variableNames.filter((name) => !properties.includes(name));
  const missing = required.filter((name) => !template.variableNames.includes(name));
  if (unknown.length === 0 && missing.length === 0) return;
  const list = (names: string[]) => names.map((name) => JSON.stringify(name)).join(', ');
  const problems = [
    unknown.length ? `the template's variable${unknown.length > 1 ? 's' : ''} ${list(unknown)} ${unknown.length > 1 ? 'are' : 'is'} not in its input` : '',
    missing.length
      ? `the input's required propert${missing.length > 1 ? 'ies' : 'y'} ${list(missing)} ${missing.length > 1 ? 'are' : 'is'} not in the template`
      : '',
  ].filter(Boolean);
  throw new DecorumStartupError(
    StartupErrorCode.TEMPLATE_VARIABLES,
    `@Resource on ${source} (${template.template}): ${problems.join('; ')} (input properties: ${list(properties) || 'none'}). ` +
      'Name the template variables as the input does, or change the input: the handler gets exactly the variables of the template',
  );
}

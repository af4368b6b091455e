import { DecorumStartupError, StartupErrorCode } from '../errors/startup-error.js';
import { checkExtensionId } from './extension-id.js';
import type { Extension } from './extension.js';

/** The extensions Decorum itself defines: only they may use a reserved id. */
const builtIns = new WeakSet<Extension>();

function objectOf(value: unknown, what: string, id: string): void {
  if (value !== undefined && (typeof value !== 'object' || value === null || Array.isArray(value)))
    throw new DecorumStartupError(StartupErrorCode.INVALID_EXTENSION, `extension "${id}": ${what} must be an object`);
}

function functionsOf(record: object | undefined, what: string, id: string, member?: string): void {
  for (const [name, value] of Object.entries(record ?? {})) {
    const fn = member ? (value as Record<string, unknown> | undefined)?.[member] : value;
    if (typeof fn !== 'function')
      throw new DecorumStartupError(
        StartupErrorCode.INVALID_EXTENSION,
        `extension "${id}": ${what} "${name}" needs ${member ? `a ${member} function` : 'to be a function'}`,
      );
  }
}

/** Checks everything of `ext` but the id's prefix rule, and freezes it. */
function checked(ext: Extension, builtIn: boolean): Extension {
  if (typeof ext !== 'object' || ext === null) throw new DecorumStartupError(StartupErrorCode.INVALID_EXTENSION, 'an extension must be an object with an id');
  const id = checkExtensionId(ext.id, builtIn);
  objectOf(ext.settings, 'settings', id);
  if (ext.eras !== undefined && ext.eras !== 'both' && ext.eras !== 'modern' && ext.eras !== 'legacy')
    throw new DecorumStartupError(StartupErrorCode.INVALID_EXTENSION, `extension "${id}": eras must be 'both', 'modern' or 'legacy'`);
  for (const [what, value] of [
    ['methods', ext.methods],
    ['notifications', ext.notifications],
    ['around', ext.around],
    ['toolOptions', ext.toolOptions],
  ] as const)
    objectOf(value, what, id);
  functionsOf(ext.methods, 'method', id, 'run');
  functionsOf(ext.notifications, 'notification', id, 'run');
  functionsOf(ext.around, 'around step', id, 'run');
  functionsOf(ext.toolOptions, 'tool option', id);
  if (ext.middleware !== undefined && (!Array.isArray(ext.middleware) || ext.middleware.some((m) => typeof m !== 'function')))
    throw new DecorumStartupError(StartupErrorCode.INVALID_EXTENSION, `extension "${id}": middleware must be an array of functions`);
  for (const key of ['legacyCapabilities', 'outbound', 'legacyToolFields', 'install'] as const)
    if (ext[key] !== undefined && typeof ext[key] !== 'function')
      throw new DecorumStartupError(StartupErrorCode.INVALID_EXTENSION, `extension "${id}": ${key} must be a function`);
  if (ext.listen !== undefined && (typeof ext.listen.field !== 'string' || typeof ext.listen.method !== 'string' || typeof ext.listen.grant !== 'function'))
    throw new DecorumStartupError(StartupErrorCode.INVALID_EXTENSION, `extension "${id}": listen needs a field, a method and a grant function`);
  return Object.freeze({ ...ext, middleware: ext.middleware && Object.freeze([...ext.middleware]) });
}

/**
 * Declares an extension: checks its id (`com.example/echo`: a reverse-DNS prefix, a slash, a
 * name; MCP's reserved prefixes are refused) and its shape, and freezes it. Give the value to
 * `createServer(classes, { extensions: [...] })`.
 *
 * @throws DecorumStartupError `DECORUM_ERR_INVALID_EXTENSION` naming what is wrong.
 */
export function defineExtension<E extends Extension>(ext: E): E {
  return checked(ext, false) as E;
}

/** {@link defineExtension} for the extensions Decorum ships (Tasks): a reserved id is allowed. */
export function defineBuiltInExtension<E extends Extension>(ext: E): E {
  const frozen = checked(ext, true) as E;
  builtIns.add(frozen);
  return frozen;
}

/** Whether `ext` came from {@link defineBuiltInExtension}. */
export function isBuiltIn(ext: Extension): boolean {
  return builtIns.has(ext);
}

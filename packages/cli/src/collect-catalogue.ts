import { isDecorumServer, type LiveClass } from '@decorum/core';
import { CliError } from './load-module.js';

/** The export a module names its run-time classes by (`export const catalogue = [Reports]`). */
export const CATALOGUE_EXPORT = 'catalogue';

/**
 * The classes a module offers to `live.add` at run time (its `catalogue` export), not served at
 * start-up. Every instance loads the same module, so an `add` of one replicates by class name.
 */
export function collectCatalogue(moduleExports: Record<string, unknown>, path: string): LiveClass[] {
  const catalogue = moduleExports[CATALOGUE_EXPORT];
  if (catalogue === undefined) return [];
  if (!Array.isArray(catalogue) || catalogue.some((c) => typeof c !== 'function' || !isDecorumServer(c))) {
    throw new CliError(`${path}: export "${CATALOGUE_EXPORT}" must be an array of decorated classes (the ones live.add may bring in at run time)`);
  }
  return catalogue as LiveClass[];
}

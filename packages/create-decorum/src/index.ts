/**
 * create-decorum — the project scaffolder behind `npm create decorum@latest`, also usable from code.
 *
 * @module create-decorum
 */
export { scaffold, ScaffoldError, type ScaffoldOptions } from './scaffold.js';
export { DECORUM_PACKAGES, THIRD_PARTY } from './versions.js';

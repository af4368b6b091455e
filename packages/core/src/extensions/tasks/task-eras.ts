/** The protocol revisions with tasks, each with its era's rules (`task-era.ts`); others run task tools inline. */
import { LATEST_PROTOCOL_VERSION } from '../../protocol/version.js';
import { modernTaskEra } from './modern-task-era.js';
import type { TaskEra } from './task-era.js';

/** The eras with tasks, by protocol revision (2025-11-25's goes here from `legacy/`). */
export const TASK_ERAS: ReadonlyMap<string, TaskEra> = new Map([[LATEST_PROTOCOL_VERSION, modernTaskEra]]);

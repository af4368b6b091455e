import { InvalidParamsError } from './protocol-errors.js';

/**
 * -32602: no task with this id — unknown, expired, or another principal's (which answers exactly
 * like an unknown one, so ids cannot be probed).
 */
export class TaskNotFoundError extends InvalidParamsError {
  constructor() {
    super('Invalid params: task not found or expired (taskId)');
  }
}

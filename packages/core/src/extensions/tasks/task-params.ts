/** The params of the `tasks/*` methods (checked by the extension API: a bad one is -32602 naming it). */
import { Type } from 'typebox';

export const TaskIdParams = Type.Object({ taskId: Type.String({ minLength: 1 }) });

export const TaskUpdateParams = Type.Object({
  taskId: Type.String({ minLength: 1 }),
  inputResponses: Type.Record(Type.String(), Type.Object({})),
});

export interface TaskIdInput {
  readonly taskId: string;
}

export interface TaskUpdateInput extends TaskIdInput {
  readonly inputResponses: Readonly<Record<string, Record<string, unknown>>>;
}

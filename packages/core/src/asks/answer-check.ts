/**
 * Whether a client's answer fits the ask it answers, and the value the handler gets from it. An
 * MRTR round (`inputResponses` of a retry) and a task (`tasks/update`) check answers the same way.
 */
import { InvalidParamsError } from '../errors/protocol-errors.js';
import { isElicitAnswer, isRootsAnswer, isSampleAnswer } from './ask-requests.js';
import { checkContent, type RequestedSchema } from './elicitation-schema.js';
import type { InputRequest } from './ask-types.js';
import type { ValidationIssue } from '../schema/issues.js';

/** What an answer gives: the handler's value, or the issues of accepted form content that does not fit its form. */
export type CheckedAnswer = { ok: true; value: unknown } | { ok: false; issues: ValidationIssue[] };

/**
 * Checks `answer` (to the ask `request`, sent as `key`): an answer of the wrong shape is -32602;
 * accepted content is checked against the form's schema (`schema`, else the one in the request).
 */
export function checkAnswer(key: string, request: InputRequest, answer: unknown, schema?: RequestedSchema): CheckedAnswer {
  switch (request.method) {
    case 'elicitation/create': {
      if (!isElicitAnswer(answer))
        throw new InvalidParamsError(
          `Invalid params: inputResponses["${key}"] must be an ElicitResult ({ action: "accept" | "decline" | "cancel", content? })`,
        );
      const { action } = answer;
      const form = schema ?? (request.params.mode === 'url' ? undefined : request.params.requestedSchema);
      if (action !== 'accept' || !form) return { ok: true, value: { action } };
      const checked = checkContent(form, answer.content ?? {});
      return checked.ok ? { ok: true, value: { action, content: checked.value } } : checked;
    }
    case 'sampling/createMessage':
      if (!isSampleAnswer(answer))
        throw new InvalidParamsError(`Invalid params: inputResponses["${key}"] must be a CreateMessageResult ({ role, content, model })`);
      return { ok: true, value: answer };
    case 'roots/list':
      if (!isRootsAnswer(answer))
        throw new InvalidParamsError(`Invalid params: inputResponses["${key}"] must be a ListRootsResult ({ roots: [{ uri, name? }] })`);
      return { ok: true, value: answer };
  }
}

/**
 * The bench tools as every target serves them (bench/servers/tools-schemas.ts): the request
 * metadata they are sent with, and the check that an answer is the right one.
 */
import { PROTOCOL } from '../config.mjs';

export const META = { 'io.modelcontextprotocol/protocolVersion': PROTOCOL, 'io.modelcontextprotocol/clientCapabilities': {} };
export const ECHO_TEXT = 'x'.repeat(64 * 1024);

/** The JSON-RPC message of an HTTP answer, whether sent as JSON or as an SSE stream. */
export function readAnswer(contentType, text) {
  if ((contentType ?? '').includes('text/event-stream')) {
    const messages = text
      .split(/\r?\n\r?\n/)
      .map((event) =>
        event
          .split(/\r?\n/)
          .filter((l) => l.startsWith('data:'))
          .map((l) => l.slice(5).trim())
          .join('\n'),
      )
      .filter(Boolean)
      .map((d) => JSON.parse(d));
    return messages.find((m) => m.id !== undefined) ?? messages.at(-1);
  }
  return JSON.parse(text);
}

/** Checks that a result is the right one for the workload; returns an error string or undefined. */
export function checkResult(workload, message) {
  if (!message || typeof message !== 'object') return 'no JSON-RPC message';
  if (message.error) return `JSON-RPC error ${message.error.code}: ${message.error.message}`;
  const result = message.result;
  if (!result) return 'no result';
  if (workload.body.method === 'tools/list') {
    const n = result.tools?.length;
    if (n !== workload.tools) return `tools/list returned ${n} tools, expected ${workload.tools}${result.nextCursor ? ' (paginated)' : ''}`;
    return undefined;
  }
  if (result.isError) return `tool error: ${JSON.stringify(result.content).slice(0, 200)}`;
  const text = result.content?.[0]?.text;
  const expected = workload.tool === 'echo' ? ECHO_TEXT : '42';
  if (text !== expected) return `unexpected tool answer ${JSON.stringify(String(text).slice(0, 80))}`;
  return undefined;
}

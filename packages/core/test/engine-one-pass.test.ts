import 'reflect-metadata';
import { InvalidRequestError, McpServer, Tool, type JsonRpcRequest, type PipelineCall } from '@decorum/core';
import type { RequestChannel, RequestMeta } from '@decorum/core/transport';
import { request } from '@decorum-internal/test-support';
import { harness } from './support/engine-harness.js';

// The engine takes a request once and calls the transport's checks where the spec puts them:
// the meta's after `_meta` is read and before the version, the target's once the call has its
// target and before anything runs.

@McpServer({ name: 'one-pass', version: '1.0.0' })
class OnePass {
  ran = 0;

  @Tool({ description: 'Counts its runs', input: null })
  count(): string {
    this.ran++;
    return String(this.ran);
  }
}

/** A channel that records what the engine asked it, in order, and may refuse at either check. */
function recordingChannel(refuse?: 'meta' | 'target') {
  const seen: string[] = [];
  const channel: RequestChannel = {
    notify: () => {},
    checkMeta(rpc: JsonRpcRequest, meta: RequestMeta) {
      seen.push(`meta ${rpc.method} ${meta.protocolVersion}`);
      if (refuse === 'meta') throw new InvalidRequestError('refused at the meta check');
    },
    checkTarget(call: PipelineCall) {
      seen.push(`target ${call.target?.kind ?? 'none'} ${call.target?.name ?? ''}`.trim());
      if (refuse === 'target') throw new InvalidRequestError('refused at the target check');
    },
  };
  return { channel, seen };
}

describe('the engine: one pass per request', () => {
  const { server } = harness([OnePass]);

  test('the checks run in order, each once, with the meta and then the resolved target', async () => {
    const { channel, seen } = recordingChannel();
    const answer = await server.engine.answerRequest(request(1, 'tools/call', { name: 'count', arguments: {} }) as JsonRpcRequest, channel);
    expect(answer).toMatchObject({ id: 1, result: { content: [{ type: 'text', text: '1' }] } });
    expect(seen).toEqual(['meta tools/call 2026-07-28', 'target tool count']);
  });

  test('a refusal at the meta check answers with its error, before the version or the method is looked at', async () => {
    const { channel, seen } = recordingChannel('meta');
    const unsupported = request(2, 'tools/call', { name: 'count', arguments: {} }) as JsonRpcRequest;
    (unsupported.params!._meta as Record<string, unknown>)['io.modelcontextprotocol/protocolVersion'] = '2099-01-01';
    const answer = await server.engine.answerRequest(unsupported, channel);
    expect(answer).toMatchObject({ id: 2, error: { code: -32600, message: 'refused at the meta check' } });
    expect(seen).toEqual(['meta tools/call 2099-01-01']);
  });

  test('a refusal at the target check answers with its error and the tool never runs', async () => {
    const { channel, seen } = recordingChannel('target');
    const answer = await server.engine.answerRequest(request(3, 'tools/call', { name: 'count', arguments: {} }) as JsonRpcRequest, channel);
    expect(answer).toMatchObject({ id: 3, error: { code: -32600, message: 'refused at the target check' } });
    expect(seen).toEqual(['meta tools/call 2026-07-28', 'target tool count']);
    const after = await server.engine.answerRequest(request(4, 'tools/call', { name: 'count', arguments: {} }) as JsonRpcRequest, { notify: () => {} });
    // The refused call did not run: this is the tool's second run, not its third.
    expect(after).toMatchObject({ result: { content: [{ type: 'text', text: '2' }] } });
  });

  test('an unknown tool is refused while the call is made: the target check is never asked', async () => {
    const { channel, seen } = recordingChannel();
    const answer = await server.engine.answerRequest(request(5, 'tools/call', { name: 'nope', arguments: {} }) as JsonRpcRequest, channel);
    expect(answer).toMatchObject({ id: 5, error: { code: -32602 } });
    expect(seen).toEqual(['meta tools/call 2026-07-28']);
  });

  test('a list has no target: the target check is still asked (HTTP chooses JSON or SSE there)', async () => {
    const { channel, seen } = recordingChannel();
    await server.engine.answerRequest(request(6, 'tools/list', {}) as JsonRpcRequest, channel);
    expect(seen).toEqual(['meta tools/list 2026-07-28', 'target none']);
  });
});

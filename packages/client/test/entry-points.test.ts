import * as client from '@decorum/client';
import * as host from '@decorum/client/host';

/** The host is its own entry point; of its names the client's index holds only the class (the documented `import { McpClient, McpHost } from '@decorum/client'`). */
describe('the entry points of @decorum/client', () => {
  test('McpHost is in both entry points, the same class', () => {
    expect(client.McpHost).toBe(host.McpHost);
  });

  test("the host's helpers are in @decorum/client/host only", () => {
    const hostNames = ['toAnthropicTools', 'runAnthropicToolUse', 'toOpenAiTools', 'runOpenAiToolCall'];
    expect(hostNames.filter((name) => !(name in host))).toEqual([]);
    expect(hostNames.filter((name) => name in client)).toEqual([]);
  });

  test("the client's own names are in @decorum/client", () => {
    for (const name of ['McpClient', 'connect', 'createTestClient', 'StdioTransport', 'HttpTransport', 'InProcessTransport', 'McpClientError', 'OAuthClient'])
      expect(client).toHaveProperty(name);
    expect(Object.keys(host).filter((name) => name in client)).toEqual(['McpHost']);
  });

  test('what only the client itself or its tests call is in neither entry point', () => {
    const internal = [
      'needsApproval',
      'namespaced',
      'splitNamespaced',
      'checkServerName',
      'SERVER_NAME',
      'encodeHeaderValue',
      'transportFor',
      'DEFAULT_ASK_LIMITS',
      'discoverProtectedResource',
      'MODERN_VERSION',
    ];
    expect(internal.filter((name) => name in client || name in host)).toEqual([]);
  });
});

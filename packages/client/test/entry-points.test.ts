import * as client from '@decorum/client';
import * as host from '@decorum/client/host';

/** The host is its own entry point: the client's index holds no host names, and the reverse. */
describe('the entry points of @decorum/client', () => {
  test('McpHost and its helpers are in @decorum/client/host only', () => {
    const hostNames = [
      'McpHost',
      'needsApproval',
      'namespaced',
      'splitNamespaced',
      'checkServerName',
      'SERVER_NAME',
      'toAnthropicTools',
      'runAnthropicToolUse',
      'toOpenAiTools',
      'runOpenAiToolCall',
    ];
    expect(hostNames.filter((name) => !(name in host))).toEqual([]);
    expect(hostNames.filter((name) => name in client)).toEqual([]);
  });

  test("the client's own names are in @decorum/client", () => {
    for (const name of ['McpClient', 'connect', 'createTestClient', 'StdioTransport', 'HttpTransport', 'InProcessTransport', 'McpClientError', 'OAuthClient'])
      expect(client).toHaveProperty(name);
    expect(Object.keys(host).filter((name) => name in client)).toEqual([]);
  });
});

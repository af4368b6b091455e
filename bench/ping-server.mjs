/**
 * The idle server the memory and fan-out benchmarks serve: one tool, `ping`, with no arguments.
 * These scripts are plain JavaScript, so the decorators are applied by hand; Decorum is imported
 * here, on demand, so that a bench's parent process (the load side) never loads it.
 *
 * @param {string} name - the server's name (serverInfo.name).
 * @returns {Promise<Function>} the decorated class, ready for `mcpPlugin({ servers: [it] })`.
 */
export async function pingServerClass(name) {
  const { Tool, McpServer } = await import('@decorum/core');
  class Ping {
    ping() {
      return 'pong';
    }
  }
  McpServer({ name, version: '1.0.0' })(Ping);
  Tool({ input: null })(Ping.prototype, 'ping', Object.getOwnPropertyDescriptor(Ping.prototype, 'ping'));
  return Ping;
}

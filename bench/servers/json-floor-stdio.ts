/**
 * The least any JSON-RPC server over stdio must do, as a second stdio reference beside the bare
 * line loop: parse each request line, compute the add_typebox answer, serialize a response of the
 * same shape as Decorum's, and write a chunk's answers with one write. No validation, no routing,
 * no checks: not a server anyone should run, only the floor the JSON work alone sets.
 */
let partial = '';
process.stdin.on('data', (chunk: Buffer) => {
  const text = partial + chunk.toString('utf8');
  const end = text.lastIndexOf('\n');
  partial = text.slice(end + 1);
  let out = '';
  let start = 0;
  while (start <= end) {
    const newline = text.indexOf('\n', start);
    const request = JSON.parse(text.slice(start, newline)) as { id: number; params: { arguments: { a: number; b: number } } };
    start = newline + 1;
    const { a, b } = request.params.arguments;
    const result = {
      content: [{ type: 'text', text: String(a + b) }],
      isError: false,
      resultType: 'complete',
      _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'bench', version: '1.0.0' } },
    };
    out += `${JSON.stringify({ jsonrpc: '2.0', id: request.id, result })}\n`;
  }
  if (out !== '') process.stdout.write(out);
});
process.stdin.on('end', () => process.exit(0));

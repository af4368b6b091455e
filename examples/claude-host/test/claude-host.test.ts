import { spawn } from 'node:child_process';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { serveHttp, type HttpServer } from '@decorum/fastify';
import { FilesWizard } from '../../files-wizard/src/wizard.js';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));

/**
 * A local stand-in of the Anthropic Messages API on 127.0.0.1: it replays scripted assistant
 * turns (tool_use, then text) and records every request the real SDK sent.
 */
async function standIn(script: Array<(body: any) => { content: unknown[]; stop_reason: string }>): Promise<{ url: string; requests: any[]; headers: any[]; server: Server }> {
  const requests: any[] = [];
  const headers: any[] = [];
  const server = createServer((req, res) => {
    let text = '';
    req.on('data', (c) => (text += c));
    req.on('end', () => {
      const body = JSON.parse(text);
      requests.push(body);
      headers.push(req.headers);
      const turn = script[requests.length - 1];
      if (req.url !== '/v1/messages' || !turn) {
        res.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ type: 'error', error: { type: 'invalid_request_error', message: `unexpected request ${requests.length}` } }));
        return;
      }
      const { content, stop_reason } = turn(body);
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({
        id: `msg_${requests.length}`, type: 'message', role: 'assistant', model: body.model, content, stop_reason, stop_sequence: null,
        usage: { input_tokens: 10, output_tokens: 10 },
      }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as { port: number }).port}`, requests, headers, server };
}

function chat(baseUrl: string, config: string, input: string): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [`${ROOT}examples/claude-host/dist/main.js`], {
      env: { ...process.env, ANTHROPIC_API_KEY: 'test-key', ANTHROPIC_BASE_URL: baseUrl, CLAUDE_HOST_CONFIG: config, DECORUM_LOG_LEVEL: 'silent' },
    });
    let out = '';
    let err = '';
    child.stdout.setEncoding('utf8').on('data', (c: string) => (out += c));
    child.stderr.setEncoding('utf8').on('data', (c: string) => (err += c));
    child.stdin.end(input);
    child.on('exit', (code) => resolve({ code, out, err }));
  });
}

const lastToolResult = (body: any) => body.messages.at(-1).content[0];

describe('examples/claude-host against a stand-in Messages API', () => {
  let files: HttpServer;
  let config: string;
  /** The tools/call requests that reached the files server, by tool name (from their Mcp-Method and Mcp-Name headers). */
  const reachedFiles: string[] = [];
  beforeAll(async () => {
    files = await serveHttp([FilesWizard], { host: '127.0.0.1', port: 0, logLevel: 'silent' });
    files.app.server.on('request', (req: IncomingMessage) => {
      if (req.headers['mcp-method'] === 'tools/call') reachedFiles.push(String(req.headers['mcp-name']));
    });
    config = join(mkdtempSync(join(tmpdir(), 'claude-host-')), 'claude-host.json');
    writeFileSync(config, JSON.stringify({
      model: 'claude-test',
      servers: {
        weather: { command: process.execPath, args: [`${ROOT}packages/cli/dist/bin.js`, `${ROOT}examples/weather/dist/weather.js`], stderr: 'ignore', trustAnnotations: true },
        files: { url: files.url },
        broken: { command: process.execPath, args: ['-e', 'process.exit(1)'], stderr: 'ignore' },
      },
    }));
  });
  afterAll(() => files.close());

  test('tool_use blocks are routed through the host, tool_results go back, the user is asked before a destructive call', async () => {
    const api = await standIn([
      () => ({ content: [{ type: 'text', text: 'Checking.' }, { type: 'tool_use', id: 'tu_1', name: 'weather_weather_current', input: { location: 'Tokyo' } }], stop_reason: 'tool_use' }),
      () => ({ content: [{ type: 'tool_use', id: 'tu_2', name: 'files_delete_file', input: { path: '/notes/ideas.md' } }], stop_reason: 'tool_use' }),
      (body) => ({ content: [{ type: 'text', text: lastToolResult(body).is_error ? 'You declined, so I kept the file.' : 'Deleted.' }], stop_reason: 'end_turn' }),
    ]);
    try {
      const { code, out, err } = await chat(api.url, config, 'Weather in Tokyo? Then delete /notes/ideas.md\nn\n/quit\n');
      expect(code).toBe(0);
      expect(err).toContain('could not connect broken');
      expect(out).toContain('connected weather');
      expect(out).toContain('connected files');
      expect(`${api.headers[0]['x-api-key'] ?? ''} ${api.headers[0].authorization ?? ''}`).toContain('test-key');
      // One merged, namespaced tool list for the model.
      const names = api.requests[0].tools.map((t: { name: string }) => t.name);
      expect(names).toEqual(expect.arrayContaining(['weather_weather_current', 'files_list_files', 'files_delete_file']));
      expect(api.requests[0].tools.find((t: { name: string }) => t.name === 'weather_weather_current').input_schema).toMatchObject({ type: 'object', required: ['location'] });
      // The read-only call of a trusted server ran without asking, its result went back as a tool_result.
      expect(lastToolResult(api.requests[1])).toMatchObject({ type: 'tool_result', tool_use_id: 'tu_1', content: [{ type: 'text', text: expect.stringContaining('26°C') }] });
      expect(lastToolResult(api.requests[1]).is_error).toBeUndefined();
      // The destructive call was put to the user, who said no: an error result, never sent to the server.
      expect(out).toContain('[files] delete_file {"path":"/notes/ideas.md"} needs your approval. Run it? [y/N]');
      expect(lastToolResult(api.requests[2])).toMatchObject({ tool_use_id: 'tu_2', is_error: true, content: [{ text: expect.stringContaining('not approved') }] });
      expect(reachedFiles).not.toContain('delete_file');
      expect(out).toContain('claude> You declined, so I kept the file.');
    } finally {
      api.server.close();
    }
  });

  test('a yes (and the server\'s own confirmation) lets the call through', async () => {
    const api = await standIn([
      () => ({ content: [{ type: 'tool_use', id: 'tu_1', name: 'files_delete_file', input: { path: '/notes/todo.txt' } }], stop_reason: 'tool_use' }),
      (body) => ({ content: [{ type: 'text', text: `Result: ${lastToolResult(body).content[0].text}` }], stop_reason: 'end_turn' }),
    ]);
    try {
      const { code, out } = await chat(api.url, config, 'Delete /notes/todo.txt\ny\ny\n/quit\n');
      expect(code).toBe(0);
      expect(out).toContain('claude> Result: Deleted /notes/todo.txt.');
      // The same record sees an approved call arrive (each MRTR round is a request).
      expect(reachedFiles).toContain('delete_file');
    } finally {
      api.server.close();
    }
  });
});

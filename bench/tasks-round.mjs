/**
 * A task's round against a plain call (bench/tasks.mjs): a Decorum HTTP server (mcpPlugin, its
 * own process) serves `quick`, a tool with `task: 'optional'` that answers at once. A round is a
 * tools/call from a client that declared the Tasks extension (the answer is the CreateTaskResult),
 * then tasks/get, again at once, until the task is `completed`; the plain call is a tools/call
 * of the same tool from a client that did not declare it. One at a time, alternating, over one
 * keep-alive connection.
 */
import { fork } from 'node:child_process';
import { Agent, request } from 'node:http';
import { fileURLToPath } from 'node:url';

const ROUNDS = Number(process.env.TASKS_ROUNDS ?? 2000);
const WARM_ROUNDS = 300;
const TASKS = 'io.modelcontextprotocol/tasks';
const PROTOCOL = '2026-07-28';
const SELF = fileURLToPath(import.meta.url);

async function serve() {
  const { default: Fastify } = await import('fastify');
  const { mcpPlugin } = await import('@decorum/fastify');
  const { Tool, McpServer } = await import('@decorum/core');
  class Quick {
    quick() {
      return 'done';
    }
  }
  McpServer({ name: 'tasks-round-bench', version: '1.0.0' })(Quick);
  Tool({ input: null, task: 'optional' })(Quick.prototype, 'quick', Object.getOwnPropertyDescriptor(Quick.prototype, 'quick'));
  const app = Fastify({ logger: false });
  await app.register(mcpPlugin, { servers: [Quick], requestLogLevel: false });
  await app.listen({ host: '127.0.0.1', port: 0 });
  process.once('disconnect', () => process.exit(0));
  process.send({ port: app.server.address().port });
}

const agent = new Agent({ keepAlive: true, maxSockets: 1 });

function post(port, method, name, params, extensions) {
  const body = JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method,
    params: {
      ...params,
      _meta: {
        'io.modelcontextprotocol/protocolVersion': PROTOCOL,
        'io.modelcontextprotocol/clientCapabilities': extensions ? { extensions } : {},
        'io.modelcontextprotocol/clientInfo': { name: 'bench', version: '1' },
      },
    },
  });
  const headers = {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': PROTOCOL,
    'mcp-method': method,
    'mcp-name': name,
  };
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path: '/mcp', method: 'POST', headers, agent }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c) => (text += c));
      res.on('end', () => {
        const answer = JSON.parse(text);
        if (answer.error) reject(new Error(`${method}: ${answer.error.code} ${answer.error.message}`));
        else resolve(answer.result);
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** One task round: how many tasks/get it took. */
async function taskRound(port) {
  const created = await post(port, 'tools/call', 'quick', { name: 'quick', arguments: {} }, { [TASKS]: {} });
  if (created.resultType !== 'task') throw new Error(`the server answered no task (resultType ${JSON.stringify(created.resultType)})`);
  for (let gets = 1; ; gets++) {
    const task = await post(port, 'tasks/get', created.taskId, { taskId: created.taskId }, { [TASKS]: {} });
    if (task.status === 'completed') return gets;
    if (task.status !== 'working') throw new Error(`the task ended ${task.status}`);
  }
}

const plainCall = (port) => post(port, 'tools/call', 'quick', { name: 'quick', arguments: {} });

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
const spread = (samples) => {
  const sorted = [...samples].sort((a, b) => a - b);
  return { p50: percentile(sorted, 50), p99: percentile(sorted, 99) };
};

/** The round's and the plain call's latencies (ms), or `{ error }` when the server runs no tasks. */
export async function measureRound() {
  const child = fork(SELF, ['--serve'], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'], env: { ...process.env, DECORUM_LOG_LEVEL: 'warn' } });
  try {
    const { port } = await new Promise((resolve, reject) => {
      child.once('message', resolve);
      child.once('exit', (code) => reject(new Error(`the server exited with ${code}`)));
    });
    for (let i = 0; i < WARM_ROUNDS; i++) {
      await taskRound(port);
      await plainCall(port);
    }
    const task = [];
    const plain = [];
    let gets = 0;
    for (let i = 0; i < ROUNDS; i++) {
      let started = performance.now();
      gets += await taskRound(port);
      task.push(performance.now() - started);
      started = performance.now();
      await plainCall(port);
      plain.push(performance.now() - started);
    }
    return { tool: 'quick', rounds: ROUNDS, task: spread(task), plain: spread(plain), getsPerRound: gets / ROUNDS };
  } catch (error) {
    return { error: error.message };
  } finally {
    agent.destroy();
    child.kill();
  }
}

if (process.argv.includes('--serve')) await serve();

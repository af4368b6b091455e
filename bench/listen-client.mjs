// The client side of the listen benchmarks (listen-memory.mjs, fanout.mjs): plain node:http
// requests, one connection per subscriptions/listen stream, and the open-files limit they need.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { request } from 'node:http';

const PROTOCOL = '2026-07-28';

export function get(port, path, method = 'GET') {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, method, agent: false }, (res) => {
      let text = '';
      res.on('data', (c) => (text += c));
      res.on('end', () => resolve(JSON.parse(text)));
    });
    req.on('error', reject);
    req.end();
  });
}

/**
 * Opens one listen for tools/list changes; resolves once it is acknowledged, with `changed`
 * resolving when its first list_changed notification arrives. SSE comments (keep-alives) are not
 * messages.
 */
export function listen(port, id, onChange) {
  const body = JSON.stringify({
    jsonrpc: '2.0',
    id,
    method: 'subscriptions/listen',
    params: {
      notifications: { toolsListChanged: true },
      _meta: { 'io.modelcontextprotocol/protocolVersion': PROTOCOL, 'io.modelcontextprotocol/clientCapabilities': {} },
    },
  });
  const headers = {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': PROTOCOL,
    'mcp-method': 'subscriptions/listen',
  };
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path: '/mcp', method: 'POST', headers, agent: false }, (res) => {
      let buffer = '';
      let acknowledged = false;
      let changed;
      const stream = { close: () => req.destroy(), changed: new Promise((r) => (changed = r)) };
      const onMessage = (message) => {
        if (!acknowledged) {
          if (message.method !== 'notifications/subscriptions/acknowledged')
            return reject(new Error(`stream ${id} was not acknowledged (HTTP ${res.statusCode}): ${JSON.stringify(message).slice(0, 300)}`));
          acknowledged = true;
          resolve(stream);
        } else if (message.method === 'notifications/tools/list_changed') {
          changed();
          onChange?.();
        }
      };
      res.setEncoding('utf8');
      res.on('data', (chunk) => {
        buffer += chunk;
        for (let end = buffer.indexOf('\n\n'); end !== -1; end = buffer.indexOf('\n\n')) {
          const data = buffer
            .slice(0, end)
            .split('\n')
            .filter((l) => l.startsWith('data:'))
            .map((l) => l.slice(5).trim())
            .join('\n');
          buffer = buffer.slice(end + 2);
          if (data) onMessage(JSON.parse(data));
        }
      });
      res.on('end', () => {
        if (!acknowledged) reject(new Error(`stream ${id} ended before its acknowledgement (HTTP ${res.statusCode}): ${buffer.slice(0, 300)}`));
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** Soft and hard limits on open files of this process (Linux), or undefined when unknown. */
export function openFileLimits() {
  try {
    const m = /^Max open files\s+(\S+)\s+(\S+)/m.exec(readFileSync('/proc/self/limits', 'utf8'));
    const n = (s) => (s === 'unlimited' ? Infinity : Number(s));
    return m ? { soft: n(m[1]), hard: n(m[2]) } : undefined;
  } catch {
    return undefined;
  }
}

/**
 * When the soft open-files limit is below `needed` and the hard limit allows it, runs `script`
 * again (with this process's arguments) under `ulimit -n` and returns true: the caller stops there.
 */
export function rerunWithOpenFiles(needed, script) {
  const limits = openFileLimits();
  if (!limits || limits.soft >= needed) return false;
  if (limits.hard < needed || process.env.LISTEN_LIMIT_RAISED)
    throw new Error(`about ${needed} open files are needed per process; the limit is ${limits.soft} (hard ${limits.hard}): raise it with ulimit -n`);
  // Node cannot raise its own limit: run again under a shell that does (the server inherits it).
  const child = spawn('/bin/sh', ['-c', `ulimit -n ${needed} && exec "$@"`, 'sh', process.execPath, script, ...process.argv.slice(2)], {
    stdio: 'inherit',
    env: { ...process.env, LISTEN_LIMIT_RAISED: '1' },
  });
  process.once('SIGTERM', () => child.kill('SIGTERM'));
  child.once('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
  return true;
}

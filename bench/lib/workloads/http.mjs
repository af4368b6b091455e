/**
 * The HTTP workloads: one request each (path, body, headers), sent alike to every target, and the
 * check that a target answers it right before it is measured.
 */
import { PROTOCOL } from '../config.mjs';
import { LEGACY_HEADERS, openLegacySession } from '../../legacy-session.mjs';
import { ECHO_TEXT, META, checkResult, readAnswer } from './answers.mjs';

function callRequest(id, name, args) {
  return { jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args, _meta: META } };
}
function listRequest(id) {
  return { jsonrpc: '2.0', id, method: 'tools/list', params: { _meta: META } };
}
function legacyCallRequest(id, name, args) {
  return { jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } };
}
function httpHeaders(method, name) {
  const headers = {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': PROTOCOL,
    'mcp-method': method,
  };
  if (name !== undefined) headers['mcp-name'] = name;
  return headers;
}

/** The HTTP workloads: path (the same on every target), request body, headers. */
export const HTTP_WORKLOADS = [
  { id: 'call-dto', title: 'tools/call, DTO-validated tool (add_dto)', path: '/mcp', tool: 'add_dto', body: callRequest(1, 'add_dto', { a: 20, b: 22 }) },
  {
    id: 'call-typebox',
    title: 'tools/call, TypeBox-validated tool (add_typebox)',
    path: '/mcp',
    tool: 'add_typebox',
    body: callRequest(1, 'add_typebox', { a: 20, b: 22 }),
  },
  { id: 'list-1', title: 'tools/list, 1 tool', path: '/list-1', tools: 1, body: listRequest(1) },
  { id: 'list-50', title: 'tools/list, 50 tools', path: '/list-50', tools: 50, body: listRequest(1) },
  { id: 'list-500', title: 'tools/list, 500 tools', path: '/list-500', tools: 500, body: listRequest(1) },
  { id: 'echo-64k', title: 'tools/call echoing a 64 KiB argument', path: '/mcp', tool: 'echo', body: callRequest(1, 'echo', { text: ECHO_TEXT }) },
  // A legacy (2025-11-25) client's call inside its session: no _meta, Mcp-Session-Id instead (minted per target).
  {
    id: 'call-legacy',
    title: 'tools/call in a legacy 2025-11-25 session (add_typebox)',
    path: '/legacy',
    tool: 'add_typebox',
    legacy: true,
    body: legacyCallRequest(1, 'add_typebox', { a: 20, b: 22 }),
  },
].map((w) => ({ ...w, payload: JSON.stringify(w.body), headers: w.legacy ? LEGACY_HEADERS : httpHeaders(w.body.method, w.tool), headersByPort: {} }));

/** The headers a workload sends to one target (a legacy workload's carry that target's session id). */
export function headersOf(workload, port) {
  return workload.headersByPort[port] ?? workload.headers;
}

/**
 * Opens a legacy session on a target for a legacy workload (legacy-session.mjs). A target that
 * mints no session (the stateless SDK server, L0) keeps the plain headers; its check then decides
 * whether it is measured.
 */
async function openWorkloadSession(port, workload) {
  if (!workload.legacy) return;
  try {
    const headers = await openLegacySession(`http://127.0.0.1:${port}${workload.path}`);
    if (headers) workload.headersByPort[port] = headers;
  } catch {
    // Unreachable target: its check reports it.
  }
}

export async function verifyHttp(port, workload) {
  try {
    await openWorkloadSession(port, workload);
    const response = await fetch(`http://127.0.0.1:${port}${workload.path}`, { method: 'POST', headers: headersOf(workload, port), body: workload.payload });
    const text = await response.text();
    if (response.status !== 200) return { error: `HTTP ${response.status}: ${text.slice(0, 300)}` };
    const message = readAnswer(response.headers.get('content-type'), text);
    const error = checkResult(workload, message);
    return error ? { error } : { text, contentType: response.headers.get('content-type') };
  } catch (error) {
    return { error: String(error?.message ?? error) };
  }
}

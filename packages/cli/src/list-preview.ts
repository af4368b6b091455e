import { createServer, LATEST_PROTOCOL_VERSION, META, type JsonObject, type ServerTarget } from '@decorum/core';
import { encodeMessage, isErrorResponse } from '@decorum/core/transport';
import { pino } from 'pino';

/** The list methods a preview asks, in the order it prints them, with the key of their items. */
const LISTS = [
  { method: 'tools/list', key: 'tools' },
  { method: 'resources/list', key: 'resources' },
  { method: 'resources/templates/list', key: 'resourceTemplates' },
  { method: 'prompts/list', key: 'prompts' },
] as const;

/** What `--list --json` prints: every page of every list the server serves, keyed by method. */
export type ListPreview = Partial<Record<(typeof LISTS)[number]['method'], JsonObject[]>>;

/**
 * Asks a server built from `targets` for every page of every list it serves, through its engine
 * (the same request path `tools/list` takes over stdio or HTTP), so the preview cannot drift from
 * what a client receives. A list the server does not serve (no tools, say) is left out.
 */
export async function previewLists(targets: readonly ServerTarget[]): Promise<ListPreview> {
  const server = createServer(targets, { logger: pino({ level: 'silent' }) });
  const preview: ListPreview = {};
  const _meta = {
    [META.protocolVersion]: LATEST_PROTOCOL_VERSION,
    [META.clientCapabilities]: {},
    [META.clientInfo]: { name: 'mcp-serve --list', version: '0.0.0' },
  };
  let id = 0;
  for (const { method } of LISTS) {
    const pages: JsonObject[] = [];
    let cursor: string | undefined;
    do {
      const params = cursor === undefined ? { _meta } : { cursor, _meta };
      const response = await server.engine.handle({ jsonrpc: '2.0', id: ++id, method, params }, { notify: () => {} });
      if (response === undefined || isErrorResponse(response)) break;
      const page = (JSON.parse(encodeMessage(response)) as { result: JsonObject }).result;
      pages.push(page);
      cursor = typeof page.nextCursor === 'string' ? page.nextCursor : undefined;
    } while (cursor !== undefined);
    if (pages.length > 0) preview[method] = pages;
  }
  return preview;
}

function indent(text: string, by: string): string {
  return text.replace(/^/gm, by);
}

function schemaLines(label: string, schema: unknown): string {
  return `    ${label}:\n${indent(JSON.stringify(schema, null, 2), '      ')}`;
}

/** The preview as text for a person: one block per item, its schemas as indented JSON. */
export function formatPreview(preview: ListPreview): string {
  const sections: string[] = [];
  for (const { method, key } of LISTS) {
    const items = (preview[method] ?? []).flatMap((page) => (page[key] ?? []) as Array<Record<string, unknown>>);
    if (preview[method] === undefined) continue;
    const blocks = items.map((item) => {
      const heading = `  ${String(item.name)}${typeof item.title === 'string' ? ` (${item.title})` : ''}`;
      const lines = [heading];
      if (typeof item.uri === 'string') lines.push(`    uri: ${item.uri}`);
      if (typeof item.uriTemplate === 'string') lines.push(`    uriTemplate: ${item.uriTemplate}`);
      if (typeof item.mimeType === 'string') lines.push(`    mimeType: ${item.mimeType}`);
      if (typeof item.description === 'string') lines.push(indent(item.description, '    '));
      if (item.inputSchema !== undefined) lines.push(schemaLines('inputSchema', item.inputSchema));
      if (item.outputSchema !== undefined) lines.push(schemaLines('outputSchema', item.outputSchema));
      if (item.annotations !== undefined) lines.push(`    annotations: ${JSON.stringify(item.annotations)}`);
      if (Array.isArray(item.arguments)) {
        lines.push('    arguments:');
        for (const arg of item.arguments as Array<{ name: string; required?: boolean; description?: string }>) {
          lines.push(`      ${arg.name}${arg.required ? ' (required)' : ''}${arg.description ? ` — ${arg.description}` : ''}`);
        }
      }
      return lines.join('\n');
    });
    sections.push(`${key} (${items.length}, from ${method}):\n${blocks.join('\n\n') || '  (none)'}`);
  }
  return `${sections.join('\n\n')}\n`;
}

/** `mcp-serve MODULE --list [--json]`: prints the preview on stdout. */
export async function printList(targets: readonly ServerTarget[], json: boolean): Promise<void> {
  const preview = await previewLists(targets);
  process.stdout.write(json ? `${JSON.stringify(preview, null, 2)}\n` : formatPreview(preview));
}

import { isServerTarget, mcpServerOptionsOf, type ServerTarget } from '@decorum/core';
import { CliError } from './load-module.js';

/** Where a warning goes: one line on stderr, as the runner's other messages. */
const toStderr = (line: string): void => void process.stderr.write(`${line}\n`);

/**
 * Every exported class of the module that carries `@McpServer` or decorated members, but those in
 * `exclude` (its catalogue). Several classes with different `@McpServer` names are served as one
 * server under the first name: that is `warn`ed about, naming the classes and their names.
 */
export function collectServers(
  moduleExports: Record<string, unknown>,
  path: string,
  exclude: ReadonlySet<unknown> = new Set(),
  warn: (line: string) => void = toStderr,
): ServerTarget[] {
  const seen = new Set<unknown>(exclude);
  const servers: ServerTarget[] = [];
  for (const value of Object.values(moduleExports)) {
    if (typeof value === 'function' && !seen.has(value) && isServerTarget(value)) {
      seen.add(value);
      servers.push(value as ServerTarget);
    }
  }
  if (servers.length === 0) {
    throw new CliError(`${path} exports no Decorum server: export a class decorated with @McpServer (or with @Tool, @Resource or @Prompt methods)`);
  }
  const named = servers.flatMap((server) => {
    const name = mcpServerOptionsOf(server)?.name;
    return name === undefined ? [] : [{ className: (server as { name: string }).name, name }];
  });
  if (new Set(named.map(({ name }) => name)).size > 1) {
    const list = named.map(({ className, name }) => `${className} (${JSON.stringify(name)})`).join(', ');
    warn(
      `mcp-serve: warning: ${path} exports classes with different @McpServer names: ${list}. ` +
        `They are served merged, as one server named ${JSON.stringify(named[0]!.name)}; export only the server's own classes, ` +
        `and list the classes added at run time (live.add) in the exported serverOptions.catalogue.`,
    );
  }
  return servers;
}

import { homedir } from 'node:os';
import { join } from 'node:path';

/** How one MCP host keeps its stdio servers: where its config file lives and what an entry looks like. */
export interface HostConfig {
  /** The name `mcp-serve install <host>` takes. */
  readonly id: string;
  /** The host's name for people. */
  readonly label: string;
  /** The top-level key of the config file whose object maps server names to entries. */
  readonly key: 'mcpServers' | 'servers';
  /** Whether an entry names its transport (`"type": "stdio"`). */
  readonly typed: boolean;
  /** The config file this host reads, from the current directory for a project-scoped one. */
  configFile(cwd: string): string;
  /** What to do once the entry is written. */
  readonly nextStep: string;
}

/** Claude Desktop's file is per user, in each OS's application-data folder (Linux builds follow XDG). */
function claudeDesktopFile(): string {
  const file = join('Claude', 'claude_desktop_config.json');
  if (process.platform === 'darwin') return join(homedir(), 'Library', 'Application Support', file);
  if (process.platform === 'win32') return join(process.env.APPDATA ?? join(homedir(), 'AppData', 'Roaming'), file);
  return join(process.env.XDG_CONFIG_HOME || join(homedir(), '.config'), file);
}

/** The hosts `mcp-serve install` knows, by id (see docs/hosts.md for the documented formats). */
export const HOSTS: ReadonlyMap<string, HostConfig> = new Map(
  (
    [
      {
        id: 'claude-desktop',
        label: 'Claude Desktop',
        key: 'mcpServers',
        typed: false,
        configFile: claudeDesktopFile,
        nextStep: 'quit and reopen Claude Desktop to start it',
      },
      {
        id: 'claude-code',
        label: 'Claude Code',
        key: 'mcpServers',
        typed: true,
        configFile: (cwd: string) => join(cwd, '.mcp.json'),
        nextStep: 'start claude in this folder and approve the project server',
      },
      {
        id: 'cursor',
        label: 'Cursor',
        key: 'mcpServers',
        typed: false,
        configFile: () => join(homedir(), '.cursor', 'mcp.json'),
        nextStep: 'restart Cursor; its MCP settings list the server',
      },
      {
        id: 'vscode',
        label: 'VS Code',
        key: 'servers',
        typed: true,
        configFile: (cwd: string) => join(cwd, '.vscode', 'mcp.json'),
        nextStep: 'open this folder in VS Code and start the server from mcp.json',
      },
    ] satisfies HostConfig[]
  ).map((host) => [host.id, host] as const),
);

import { Command } from 'commander';
import { HOSTS } from './hosts.js';
import type { InstallOptions } from './install.js';

/** `mcp-serve install <host> <module> [--name N] [--print] [--config FILE] [-- …mcp-serve args]`. */
export function installCommand(onInstall: (options: InstallOptions) => Promise<void>): Command {
  return new Command('install')
    .description(
      'Register MODULE with an MCP host. The entry runs this Node and this mcp-serve by absolute path, so the host can start it from any directory (never a bare npx mcp-serve, which outside the project asks the npm registry)',
    )
    .argument('<host>', `the host: ${[...HOSTS.keys()].join(', ')}`)
    .argument('<module>', 'path of the module mcp-serve will serve')
    .argument('[args...]', 'after --: more mcp-serve arguments for the host to pass, e.g. -- --eras modern')
    .option('--name <name>', "the server's name in the host's config (default: the name the module's server announces)")
    .option('--print', "print the host's config snippet (JSON) instead of writing it", false)
    .option('--config <file>', "merge into this file instead of the host's own config file")
    .action(async (host: string, module: string, extra: string[], opts: Pick<InstallOptions, 'name' | 'print' | 'config'>) =>
      onInstall({ host, module, extra, ...opts }),
    );
}

/** The official SDK v2's stdio server (`serveStdio` from `@modelcontextprotocol/server/stdio`). */
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { benchServer } from './sdk-tools.js';

serveStdio(() => benchServer(), { onerror: (error) => process.stderr.write(`sdk: ${error.message}\n`) });

/**
 * The stdio limit: a bare line loop. Reads newline-delimited input and, for each complete line,
 * writes the fixed response line given in argv[2] (a file holding Decorum's answer).
 */
import { readFileSync } from 'node:fs';

const response = Buffer.from(readFileSync(process.argv[2]!, 'utf8').trimEnd() + '\n');
process.stdin.on('data', (chunk: Buffer) => {
  // One write per complete line, as a server answering each message on its own would; a partial
  // last line is answered when its newline arrives with the next chunk.
  for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) process.stdout.write(response);
});
process.stdin.on('end', () => process.exit(0));

/**
 * The stdio workload: tools/call of add_typebox as one line, and the probe that checks a stdio
 * target answers it right before it is measured.
 */
import { META, checkResult } from './answers.mjs';

/** A tools/call of add_typebox as one stdio line, with its id spliced in (built once: the client must not be the bottleneck). */
export const stdioCallLine = (() => {
  const prefix = '{"jsonrpc":"2.0","id":';
  const suffix = `,"method":"tools/call","params":${JSON.stringify({ name: 'add_typebox', arguments: { a: 20, b: 22 }, _meta: META })}}\n`;
  return (id) => prefix + id + suffix;
})();

/** One stdio request, one well-formed answer line with the right result; resolves with the line. */
export async function probe(p) {
  const line = await new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`no answer within 15 s\n${p.stderr.slice(-2000)}`)), 15_000);
    const onData = (d) => {
      out += d;
      const nl = out.indexOf('\n');
      if (nl !== -1) {
        clearTimeout(timer);
        p.child.stdout.off('data', onData);
        resolve(out.slice(0, nl));
      }
    };
    p.child.stdout.on('data', onData);
    p.exited.then(({ code, signal }) => reject(new Error(`exited (${code ?? signal})\n${p.stderr.slice(-2000)}`)));
    p.child.stdin.write(stdioCallLine(1));
  });
  const error = checkResult({ body: { method: 'tools/call' }, tool: 'add_typebox' }, JSON.parse(line));
  if (error) throw new Error(`${error}: ${line.slice(0, 300)}`);
  return line;
}

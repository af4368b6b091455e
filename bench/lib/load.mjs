/**
 * The load generators: autocannon for HTTP, and a stdio client that keeps N requests in flight on
 * a server's stdin. Each resolves with the answers per second, latencies and counts of one run.
 */
import { require } from './config.mjs';
import { headersOf } from './workloads/http.mjs';

const autocannon = require('autocannon');

/** One autocannon run; latencies are collected at full (sub-millisecond) resolution, unsorted (mergeRuns takes the percentiles). */
export function runAutocannon(port, workload, connections, seconds) {
  return new Promise((resolve, reject) => {
    const latencies = [];
    const instance = autocannon(
      {
        url: `http://127.0.0.1:${port}${workload.path}`,
        method: 'POST',
        headers: headersOf(workload, port),
        body: workload.payload,
        connections,
        pipelining: 1,
        duration: seconds,
      },
      (error, result) => {
        if (error) return reject(error);
        const secs = (result.finish - result.start) / 1000;
        resolve({
          rps: result['2xx'] / secs,
          bytesPerSec: result.throughput.total / secs,
          latencies,
          errors: result.errors + result.timeouts + result.non2xx,
          total: result.requests.total,
          answered: result['2xx'],
          seconds: secs,
        });
      },
    );
    instance.on('response', (_client, status, _bytes, responseTime) => {
      if (status >= 200 && status < 300) latencies.push(responseTime);
    });
  });
}

/** Round-trips over a child's stdin/stdout with `inFlight` requests outstanding. */
export function runStdio(proc, makeLine, inFlight, seconds) {
  return new Promise((resolve, reject) => {
    const { stdin, stdout } = proc.child;
    let id = 1_000_000 * Math.floor(1 + Math.random() * 1000);
    let sent = 0;
    let received = 0;
    let stopped = false;
    let rate = NaN;
    let drainTimer;
    const latencies = [];
    const sentAt = inFlight === 1 ? [] : undefined;
    const start = performance.now();
    const send = (n) => {
      let chunk = '';
      for (let i = 0; i < n; i++) chunk += makeLine(++id);
      sent += n;
      if (sentAt) sentAt.push(performance.now());
      stdin.write(chunk);
    };
    const finish = () => {
      stdout.off('data', onData);
      proc.child.off('exit', onExit);
      clearTimeout(drainTimer);
      // `answered` and `seconds` include the drain, as the server's CPU time measured around the run does.
      resolve({
        rps: rate,
        latencies,
        errors: 0,
        answered: received,
        seconds: (performance.now() - start) / 1000,
      });
    };
    const onData = (data) => {
      let n = 0;
      for (let i = data.indexOf(10); i !== -1; i = data.indexOf(10, i + 1)) n++;
      if (n === 0) return;
      received += n;
      if (sentAt) for (let i = 0; i < n; i++) latencies.push(performance.now() - sentAt.shift());
      if (!stopped) send(n);
      else if (received >= sent) finish();
    };
    const onExit = () => reject(new Error(`${proc.name} exited during the run\n${proc.stderr.slice(-2000)}`));
    stdout.on('data', onData);
    proc.child.once('exit', onExit);
    send(inFlight);
    setTimeout(() => {
      stopped = true;
      rate = received / ((performance.now() - start) / 1000);
      if (received >= sent) return finish();
      // Let the outstanding requests drain so the next measurement starts clean.
      drainTimer = setTimeout(() => reject(new Error(`${proc.name}: ${sent - received} responses missing after the run`)), 10_000);
    }, seconds * 1000);
  });
}

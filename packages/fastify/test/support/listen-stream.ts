import { request as httpRequest, type ClientRequest, type IncomingMessage } from 'node:http';
import type { MetaOverrides } from '@decorum-internal/test-support';
import { body, standardHeaders } from './http.js';

/** One open listen stream, read incrementally. */
export class ListenStream {
  text = '';
  events: any[] = [];
  response!: IncomingMessage;
  readonly opened: Promise<void>;
  readonly ended: Promise<void>;
  private waiters: Array<() => void> = [];
  private req!: ClientRequest;

  constructor(url: string, id: string | number, notifications: Record<string, unknown>, overrides: MetaOverrides = {}) {
    const message = body(id, 'subscriptions/listen', { notifications }, overrides);
    let endedResolve!: () => void;
    this.ended = new Promise((r) => (endedResolve = r));
    this.opened = new Promise((resolve, reject) => {
      this.req = httpRequest(url, { method: 'POST', headers: standardHeaders(message), agent: false }, (res) => {
        this.response = res;
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          this.text += chunk;
          let boundary: number;
          while ((boundary = this.pending.indexOf('\n\n')) !== -1) {
            const block = this.pending.slice(0, boundary);
            this.consumed += boundary + 2;
            const data = block
              .split('\n')
              .filter((l) => l.startsWith('data: '))
              .map((l) => l.slice(6));
            if (data.length) this.events.push(JSON.parse(data.join('\n')));
          }
          for (const wake of this.waiters.splice(0)) wake();
        });
        res.on('end', () => {
          endedResolve();
          for (const wake of this.waiters.splice(0)) wake();
        });
        res.on('error', () => endedResolve());
        resolve();
      });
      this.req.on('error', (error: Error) => {
        endedResolve();
        reject(error);
      });
      this.req.end(JSON.stringify(message));
    });
  }

  private consumed = 0;
  private get pending(): string {
    return this.text.slice(this.consumed);
  }

  async waitFor(predicate: () => boolean, timeoutMs = 5000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!predicate()) {
      if (Date.now() > deadline) throw new Error(`timed out; text so far: ${this.text}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, 50);
        this.waiters.push(() => (clearTimeout(timer), resolve()));
      });
    }
  }

  waitForEvent(predicate: (e: any) => boolean) {
    return this.waitFor(() => this.events.some(predicate)).then(() => this.events.find(predicate));
  }

  close(): void {
    this.req.destroy();
  }
}

/**
 * The open MCP sessions of the HTTP server, bounded in number and in idle
 * time, so clients that go away without ending their session (or one that
 * opens sessions in a loop) cannot make the server grow without limit.
 *
 * A session is in use while any of its requests is open (a client's event
 * stream counts); it becomes idle when the last one ends.
 */
import type * as http from 'node:http';
import type { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';

export interface SessionEntry {
  transport: StreamableHTTPServerTransport;
  close(): Promise<void>;
}

interface Tracked extends SessionEntry {
  open: number;
  lastUsed: number;
}

export class SessionTable {
  private readonly sessions = new Map<string, Tracked>();
  private sweeper: NodeJS.Timeout | undefined;

  constructor(
    readonly idleMs: number,
    readonly max: number,
    private readonly log: (line: string) => void,
  ) {}

  get size(): number {
    return this.sessions.size;
  }

  add(id: string, entry: SessionEntry): void {
    this.sessions.set(id, { ...entry, open: 0, lastUsed: Date.now() });
    this.log(`MCP session ${id} opened`);
    this.armSweeper();
  }

  /** The session for a request, counted as in use until `res` closes. */
  use(id: string, res: http.ServerResponse): SessionEntry | undefined {
    const s = this.sessions.get(id);
    if (!s) return undefined;
    s.open++;
    s.lastUsed = Date.now();
    res.once('close', () => {
      s.open--;
      s.lastUsed = Date.now();
    });
    return s;
  }

  remove(id: string): void {
    if (this.sessions.delete(id)) this.log(`MCP session ${id} closed`);
    if (this.sessions.size === 0 && this.sweeper) {
      clearInterval(this.sweeper);
      this.sweeper = undefined;
    }
  }

  /**
   * Makes room for one more session: at the cap, the least recently used
   * idle session is closed. False when every session is in use.
   */
  makeRoom(): boolean {
    if (this.sessions.size < this.max) return true;
    let oldest: [string, Tracked] | undefined;
    for (const entry of this.sessions) {
      if (entry[1].open === 0 && (!oldest || entry[1].lastUsed < oldest[1].lastUsed)) oldest = entry;
    }
    if (!oldest) return false;
    this.end(oldest[0], oldest[1], `closed to make room: ${this.max} sessions are open`);
    return true;
  }

  async closeAll(): Promise<void> {
    const all = [...this.sessions.values()];
    this.sessions.clear();
    if (this.sweeper) clearInterval(this.sweeper);
    this.sweeper = undefined;
    await Promise.all(all.map((s) => s.close().catch(() => undefined)));
  }

  private end(id: string, s: Tracked, why: string): void {
    this.sessions.delete(id);
    this.log(`MCP session ${id} ${why}`);
    void s.close().catch(() => undefined);
  }

  private armSweeper(): void {
    if (this.sweeper) return;
    // A few sweeps per idle period: a session lives at most about 1.25 times idleMs unused.
    this.sweeper = setInterval(() => {
      const now = Date.now();
      for (const [id, s] of this.sessions) {
        if (s.open === 0 && now - s.lastUsed >= this.idleMs) this.end(id, s, `closed after ${Math.round(this.idleMs / 1000)} s without a request`);
      }
    }, Math.max(50, Math.min(60_000, Math.floor(this.idleMs / 4))));
    this.sweeper.unref();
  }
}

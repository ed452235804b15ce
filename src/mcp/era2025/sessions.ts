/**
 * The open MCP sessions of the HTTP server, bounded in number and in idle
 * time, so clients that go away without ending their session (or one that
 * opens sessions in a loop) cannot make the server grow without limit.
 *
 * Idle time: a session is kept while any of its requests is open (a
 * client's event stream counts); it is closed after `idleMs` with none.
 *
 * At the cap, a new session replaces the one that has gone longest without
 * a message from its client (POST); an open event stream (GET) is not
 * activity there, so a client holding a stream on every session cannot lock
 * others out, and a flood of new sessions replaces its own oldest first.
 * Only a session with a call in flight is never replaced. A replaced
 * client's next request gets 404, and MCP clients then start a new session.
 */
import type * as http from 'node:http';
import type { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';

export interface SessionEntry {
  transport: StreamableHTTPServerTransport;
  close(): Promise<void>;
}

interface Tracked extends SessionEntry {
  /** Requests open, event streams included (for the idle time). */
  open: number;
  /** POSTs open: calls in flight. */
  calls: number;
  /** Last time a request of it ended or began (for the idle time). */
  lastUsed: number;
  /** Last time its client sent a message (for replacing at the cap). */
  lastMessage: number;
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
    const now = Date.now();
    this.sessions.set(id, { ...entry, open: 0, calls: 0, lastUsed: now, lastMessage: now });
    this.log(`MCP session ${id} opened`);
    this.armSweeper();
  }

  /** The session for a request, counted as in use until `res` closes; a POST also as a call in flight and a message. */
  use(id: string, method: string | undefined, res: http.ServerResponse): SessionEntry | undefined {
    const s = this.sessions.get(id);
    if (!s) return undefined;
    const call = method === 'POST';
    s.open++;
    if (call) s.calls++;
    s.lastUsed = Date.now();
    if (call) s.lastMessage = s.lastUsed;
    res.once('close', () => {
      s.open--;
      if (call) s.calls--;
      s.lastUsed = Date.now();
    });
    return s;
  }

  has(id: string): boolean {
    return this.sessions.has(id);
  }

  remove(id: string): void {
    if (this.sessions.delete(id)) this.log(`MCP session ${id} closed`);
    if (this.sessions.size === 0 && this.sweeper) {
      clearInterval(this.sweeper);
      this.sweeper = undefined;
    }
  }

  /**
   * Makes room for one more session: at the cap, the session longest without
   * a message from its client is closed, unless it has a call in flight.
   * False when every session has one.
   */
  makeRoom(): boolean {
    if (this.sessions.size < this.max) return true;
    let oldest: [string, Tracked] | undefined;
    for (const entry of this.sessions) {
      if (entry[1].calls === 0 && (!oldest || entry[1].lastMessage < oldest[1].lastMessage)) oldest = entry;
    }
    if (!oldest) return false;
    this.end(oldest[0], oldest[1], `closed to make room: ${this.max} sessions are open and it had gone longest without a message`);
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

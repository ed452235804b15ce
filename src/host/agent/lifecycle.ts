/**
 * zot's lifecycle events as they leave the host (docs/ZOT.md 3): each event
 * name with its own payload (protocol/events.ts), the fields every event
 * carries (`session_id`, `cwd`, `sequence`) added here, once, and the
 * session those fields name. One sequence counter per host, raised for
 * every event emitted whether or not anyone listens, as zot counts.
 */
import type { EventCommon, EventFrame, EventMap, EventName, SessionEndReason, SessionIdentity } from '../../protocol/index.js';

/** Who receives events: the connected extensions, each with its subscriptions. */
export interface Subscribers {
  readonly all: readonly { readonly events: ReadonlySet<string>; send(frame: EventFrame): void }[];
}

/** A session as a front end names it: zot's id and folder, terva's identity beside them. */
export interface SessionStart extends SessionIdentity { session_id?: string; cwd?: string }

interface Session { id: string; cwd: string; identity: SessionIdentity }

let made = 0;
/** An id for a session its front end did not name (a CLI run, an MCP server's life). */
function madeUpId(): string {
  return `run-${process.pid.toString(36)}-${Date.now().toString(36)}-${(++made).toString(36)}`;
}

export class Lifecycle {
  private sequence = 0;
  private session: Session | undefined;

  constructor(private readonly subscribers: Subscribers, private readonly hostCwd: () => string) {}

  /** The active session's id, or undefined before any started. */
  get sessionId(): string | undefined { return this.session?.id; }
  /** The active session's folder, else the host's. */
  get cwd(): string { return this.session?.cwd ?? this.hostCwd(); }

  /** Whether any extension subscribes to `event`: a payload costly to build is built only then. */
  heard(event: EventName): boolean {
    for (const rt of this.subscribers.all) if (rt.events.has(event)) return true;
    return false;
  }

  /** An event no one hears and that is not built: it still takes its number, as zot counts every event. */
  skip(): void {
    this.sequence++;
  }

  /** Queued to every subscriber, never awaited; `origin`: the extension whose `call_tool` caused it. */
  emit<K extends EventName>(event: K, payload: EventMap[K], origin?: string): void {
    const sequence = ++this.sequence;
    let frame: EventFrame | undefined;
    for (const rt of this.subscribers.all) {
      if (!rt.events.has(event)) continue;
      frame ??= this.frame(event, payload, sequence, origin);
      rt.send(frame);
    }
  }

  /** An event for one extension alone (its settings changed), numbered like every other. */
  emitTo<K extends EventName>(rt: Subscribers['all'][number], event: K, payload: EventMap[K]): void {
    rt.send(this.frame(event, payload, ++this.sequence));
  }

  private frame<K extends EventName>(event: K, payload: EventMap[K], sequence: number, origin?: string): EventFrame {
    const common: EventCommon = { ...(this.session && { session_id: this.session.id }), cwd: this.cwd, sequence, ...(origin !== undefined && { origin_extension: origin }) };
    return { type: 'event', event, ...common, ...payload } as EventFrame;
  }

  /**
   * A session becomes the active one: the one before it ends first
   * (`session_switch`), then `session_start` with terva's identity. The same
   * session again announces nothing.
   */
  begin(start: SessionStart = {}): void {
    const { session_id, cwd, ...identity } = start;
    if (session_id !== undefined && this.session?.id === session_id) return;
    if (this.session) this.end('session_switch');
    this.session = { id: session_id ?? madeUpId(), cwd: cwd ?? this.hostCwd(), identity };
    this.emit('session_start', identity);
  }

  /**
   * The session another agent runs (a hook's input names it): every event
   * names it from now on, and it is announced only when it is new and
   * `announce` (the agent's SessionStart).
   */
  adopt(start: SessionStart, announce: boolean): void {
    if (announce) return this.begin(start);
    const { session_id, cwd, ...identity } = start;
    if (this.session && (session_id === undefined || this.session.id === session_id)) return;
    this.session = { id: session_id ?? madeUpId(), cwd: cwd ?? this.hostCwd(), identity };
  }

  /** The active session stops being active, with zot's reason; nothing when none is. */
  end(reason: SessionEndReason): void {
    const ending = this.session;
    if (!ending) return;
    // Sent while it is still the active one, so the event names it.
    this.emit('session_end', { ...ending.identity, reason });
    this.session = undefined;
  }

  /**
   * A reload: zot ends no session for it. The extensions about to stop are
   * told `session_end` (`shutdown`) ahead of their `shutdown`, as at any stop
   * (terva asks it); the session stays the active one.
   */
  endForStopping(): void {
    if (this.session) this.emit('session_end', { ...this.session.identity, reason: 'shutdown' });
  }

  /** After a reload: the extensions loaded since hear the session under way, before its next tool call (terva's guarantee). */
  announceAgain(): void {
    if (this.session) this.emit('session_start', this.session.identity);
  }
}

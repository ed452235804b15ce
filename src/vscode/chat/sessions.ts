/**
 * `@zot` conversations as terva's sessions (docs/TERVA.md 18, 22): one
 * conversation is one session, its id minted at its first request and carried
 * in each reply's metadata, so a later request of the same conversation (or
 * one resumed after a reload) names it again. Each session keeps its
 * messages reduced to roles and text, bounded, in the workspace's storage:
 * what `list_sessions` and `read_session` answer, for this workspace only.
 * VS Code gives extensions no other chat sessions.
 */
import { createHash, randomBytes } from 'node:crypto';
import type * as vscode from 'vscode';
import type { SessionEntry, SessionMessage, SessionStart, SessionStore } from '../../host/index.js';

/** Sessions kept per workspace, the newest; older ones are forgotten. */
export const MAX_SESSIONS = 50;
/** Messages kept per session, the newest. */
export const MAX_SESSION_MESSAGES = 200;
/** A message's text is kept cut to this many characters. */
export const MAX_MESSAGE_CHARS = 8000;
const MAX_TITLE_CHARS = 80;
const MAX_PREVIEW_CHARS = 120;
const STATE_KEY = 'zot.chatSessions';

interface Stored { id: string; title: string; mtime: number; messages: SessionMessage[] }

/** A session's id, as metadata carries it: 16 hex digits. */
const SESSION_ID = /^[0-9a-f]{16}$/;

export class ChatSessions implements SessionStore {
  /** Sessions begun whose first prompt has not been recorded (blocked, or not answered yet): known, kept nowhere. */
  private readonly begun = new Set<string>();

  constructor(private readonly state: vscode.Memento, private readonly folder: () => string | undefined) {}

  /** The workspace folder's path flattened, with a short hash: readable and stable (terva's project_id). */
  projectId(): string | undefined {
    const dir = this.folder();
    if (!dir) return undefined;
    const flat = dir.replace(/[^A-Za-z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(-60) || 'root';
    return `${flat}-${createHash('sha256').update(dir).digest('hex').slice(0, 4)}`;
  }

  /**
   * A new session for a conversation: its id and the identity session_start
   * carries. Begun before its first prompt has passed the guards, it has no
   * title and is kept nowhere yet: a prompt a guard refuses is neither sent
   * in session_start nor stored; the session is stored, titled by its first
   * prompt, with its first exchange (`record`).
   */
  begin(): { id: string; identity: SessionStart } {
    const id = randomBytes(8).toString('hex');
    this.begun.add(id);
    if (this.begun.size > MAX_SESSIONS) this.begun.delete(this.begun.values().next().value!);
    return { id, identity: this.identity(id, '') };
  }

  /** The identity of a session this workspace knows (a conversation resumed), or undefined. */
  resume(id: unknown): { id: string; identity: SessionStart } | undefined {
    if (typeof id !== 'string' || !SESSION_ID.test(id)) return undefined;
    const s = this.stored().find((x) => x.id === id);
    if (!s) return this.begun.has(id) ? { id, identity: this.identity(id, '') } : undefined;
    return { id, identity: this.identity(id, s.title) };
  }

  /** One exchange of the session: the prompt the model saw (past the guards) and what it answered. */
  record(id: string, messages: SessionMessage[]): void {
    const all = this.stored();
    let s = all.find((x) => x.id === id);
    if (!s && this.begun.delete(id)) all.unshift(s = { id, title: firstLine(messages.find((m) => m.role === 'user')?.text ?? '', MAX_TITLE_CHARS), mtime: now(), messages: [] });
    if (!s) return;
    s.messages.push(...messages.filter((m) => m.text).map((m) => ({ role: m.role, text: m.text.slice(0, MAX_MESSAGE_CHARS) })));
    s.messages = s.messages.slice(-MAX_SESSION_MESSAGES);
    s.mtime = now();
    this.write([s, ...all.filter((x) => x !== s)]);
  }

  async list(): Promise<SessionEntry[]> {
    return this.stored().map((s) => ({
      session_id: s.id,
      ...(s.title && { title: s.title }),
      ...(s.messages[0] && { preview: firstLine(s.messages[0].text, MAX_PREVIEW_CHARS) }),
      ...(s.messages.length && { messages: s.messages.length }),
      mtime: s.mtime,
    }));
  }

  /** A session of this workspace, reduced to roles and text; undefined for any other id. */
  async read(id: string): Promise<SessionMessage[] | undefined> {
    return this.stored().find((s) => s.id === id)?.messages;
  }

  private identity(id: string, title: string): SessionStart {
    const cwd = this.folder();
    const project = this.projectId();
    return { session_id: id, ...(title && { session_title: title }), ...(cwd && { cwd }), ...(project && { project_id: project }) };
  }

  /** The stored sessions, newest first; anything not shaped as written is dropped. */
  private stored(): Stored[] {
    const raw = this.state.get<unknown>(STATE_KEY);
    if (!Array.isArray(raw)) return [];
    return raw.filter((s): s is Stored => typeof s === 'object' && s !== null && typeof s.id === 'string' && SESSION_ID.test(s.id) && typeof s.title === 'string'
      && typeof s.mtime === 'number' && Array.isArray(s.messages) && s.messages.every((m: unknown) => typeof m === 'object' && m !== null && typeof (m as SessionMessage).role === 'string' && typeof (m as SessionMessage).text === 'string'));
  }

  private write(sessions: Stored[]): void {
    sessions.sort((a, b) => b.mtime - a.mtime);
    void this.state.update(STATE_KEY, sessions.slice(0, MAX_SESSIONS));
  }
}

function firstLine(text: string, max: number): string {
  const line = (text.split(/\r?\n/).find((l) => l.trim()) ?? '').trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

/** Unix seconds, as terva's `mtime`. */
function now(): number {
  return Math.floor(Date.now() / 1000);
}

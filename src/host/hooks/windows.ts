/**
 * The contract between an editor window that answers agent hooks and
 * `zot-host hook`, which asks it: one module, read by both sides.
 *
 * - The windows folder (ZOT_HOOK_WINDOWS in the hook file): private to the
 *   user (0700), one `<pid>.json` entry a window (its loopback origin, its
 *   workspace folders, its process and when that process started) and the
 *   `token` file every window of this editor shares (0600). The hook file
 *   itself holds no secret, so a copy of it in a repository gives nothing away.
 * - Both directions are authenticated with the token, which never crosses
 *   the wire: a request carries an HMAC of its event, time, nonce and body;
 *   the answer an HMAC of the nonce, status and body. A process that took
 *   the port of a window that died learns nothing it can use and cannot
 *   answer in the window's name: its answer is not the window's, and the hook
 *   runs without it.
 * - A hook answers within HOOK_BUDGET_MS in every path, well inside the
 *   HOOK_TIMEOUT_S the hook file gives the agent.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';

export const WINDOWS_VAR = 'ZOT_HOOK_WINDOWS';
/** A hook file written before the token moved to the windows folder carries it here. */
export const TOKEN_VAR = 'ZOT_HOOK_TOKEN';
/** The token's file in the windows folder (not an entry: entries end in .json). */
export const TOKEN_FILE = 'token';

/** The agent runs a hook for at most this long (seconds), as the hook file says. */
export const HOOK_TIMEOUT_S = 15;
/** Every path of a hook answers within this long of its start: what is left of the agent's timeout is margin. */
export const HOOK_BUDGET_MS = 12_000;
/** How long a window may take to answer before the hook runs its own guards with what is left of the budget. */
export const WINDOW_TIMEOUT_MS = 6_000;

/** The request's proof of the token: `<time ms>.<nonce>.<hmac>`. */
export const AUTH_HEADER = 'x-zot-hook-auth';
/** The answer's proof of the token: the HMAC of the request's nonce, the status and the body. */
export const PROOF_HEADER = 'x-zot-hook-proof';
/** A hook request's query when the window is to refuse what its guards could not all decide (the proof covers it). */
export const FAIL_CLOSED_QUERY = '?fail-closed';
/** A request this far from the window's clock, either way, is refused (its nonce is remembered this long). */
export const MAX_CLOCK_SKEW_MS = 60_000;

/**
 * One window's entry: the file `<pid>.json` in the windows folder, written
 * by the window (ownEntry, entryText) and read by `zot-host hook`
 * (isEntryFileName, parseEntry). Its text is the JSON of these fields in
 * this order and nothing else. There is no version field: a reader keeps
 * the fields it knows and ignores any other, so a field may be added; a
 * change an older reader would misread takes another file name instead.
 */
export interface WindowEntry {
  pid: number;
  /** `http://127.0.0.1:<port>` */
  url: string;
  folders: string[];
  /** When the process started, where the platform says (Linux): an entry of a pid used again is not that window's. */
  started?: string;
}

/** The windows folder's name, in the editor's global storage (or in FALLBACK_HOME_FOLDER where that is not on disk). */
export const WINDOWS_FOLDER = 'hook-windows';
/** Where the windows folder goes, in the user's home folder, when the editor's global storage is not on disk. */
export const FALLBACK_HOME_FOLDER = '.zot-extensions';
/** What every entry's file name ends in (the token's file does not). */
const ENTRY_SUFFIX = '.json';

/** The windows folder: in the editor's global storage when that is a folder on disk, else in the user's home folder. */
export function windowsFolder(globalStorage: string | undefined, home: string): string {
  return globalStorage !== undefined ? path.join(globalStorage, WINDOWS_FOLDER) : path.join(home, FALLBACK_HOME_FOLDER, WINDOWS_FOLDER);
}

/** The file name of the entry of the window whose process is `pid`. */
export const entryFileName = (pid: number): string => `${pid}${ENTRY_SUFFIX}`;

/** Whether a file of the windows folder is an entry (and not the token). */
export const isEntryFileName = (name: string): boolean => name.endsWith(ENTRY_SUFFIX);

/** The entry of this process's window, answering at `url` for `folders`. */
export function ownEntry(url: string, folders: string[], pid = process.pid): WindowEntry {
  const started = processStart(pid);
  return { pid, url, folders, ...(started !== undefined && { started }) };
}

/** The text of an entry's file (as parseEntry reads it). */
export function entryText(entry: WindowEntry): string {
  return JSON.stringify({ pid: entry.pid, url: entry.url, folders: entry.folders, ...(entry.started !== undefined && { started: entry.started }) });
}

const mac = (token: string, parts: readonly string[], body: string | Buffer): string =>
  createHmac('sha256', token).update(`${parts.join('\n')}\n`).update(body).digest('base64url');

function same(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** The request's AUTH_HEADER value, and the nonce its answer must prove. */
export function signRequest(token: string, event: string, body: string, now = Date.now()): { header: string; nonce: string } {
  const nonce = randomBytes(18).toString('base64url');
  return { header: `${now}.${nonce}.${mac(token, ['zot-hook-request', event, String(now), nonce], body)}`, nonce };
}

/** AUTH_HEADER read, before the body is: its time checked against the clock. */
export type RequestAuth = { ok: true; time: number; nonce: string; mac: string } | { ok: false; error: string };

export function readRequestAuth(header: unknown, now = Date.now()): RequestAuth {
  if (typeof header !== 'string') return { ok: false, error: 'a hook request proves the hook token (no proof given)' };
  const m = /^(\d{1,16})\.([A-Za-z0-9_-]{16,64})\.([A-Za-z0-9_-]{43})$/.exec(header);
  if (!m) return { ok: false, error: 'the hook request\'s proof is not well formed' };
  const time = Number(m[1]);
  if (Math.abs(now - time) > MAX_CLOCK_SKEW_MS) return { ok: false, error: 'the hook request\'s proof is too old or from the future' };
  return { ok: true, time, nonce: m[2]!, mac: m[3]! };
}

/** Whether the request's proof is of `token` over this event and body. */
export function checkRequest(token: string, event: string, auth: { time: number; nonce: string; mac: string }, body: string | Buffer): boolean {
  return same(auth.mac, mac(token, ['zot-hook-request', event, String(auth.time), auth.nonce], body));
}

export function signAnswer(token: string, nonce: string, status: number, body: string): string {
  return mac(token, ['zot-hook-answer', nonce, String(status)], body);
}

export function checkAnswer(token: string, nonce: string, status: number, body: string, proof: unknown): boolean {
  return typeof proof === 'string' && same(proof, signAnswer(token, nonce, status, body));
}

/** Nonces seen within the clock window: a request is answered once. Bounded: past `max`, the oldest go. */
export class NonceLog {
  private readonly seen = new Map<string, number>();
  constructor(private readonly max = 10_000) {}

  /** False when `nonce` was seen already (a replay). */
  fresh(nonce: string, now = Date.now()): boolean {
    for (const [n, at] of this.seen) {
      if (now - at <= 2 * MAX_CLOCK_SKEW_MS && this.seen.size < this.max) break;
      this.seen.delete(n);
    }
    if (this.seen.has(nonce)) return false;
    this.seen.set(nonce, now);
    return true;
  }
}

/**
 * When a process started, as the platform counts it (Linux: clock ticks
 * since boot, field 22 of /proc/<pid>/stat); undefined where it cannot say.
 */
export function processStart(pid: number): string | undefined {
  if (process.platform !== 'linux') return undefined;
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'latin1');
    // The command name (field 2) may hold spaces and parentheses: count from the last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return fields[19];
  } catch {
    return undefined;
  }
}

/**
 * Whether the window of `entry` is still the process that wrote it: alive,
 * the user's own (a process of another user answers EPERM, and is not), and,
 * where the platform says when it started, started when the entry says.
 */
export function entryAlive(entry: WindowEntry): 'alive' | 'dead' {
  try {
    process.kill(entry.pid, 0);
  } catch {
    return 'dead';
  }
  if (entry.started !== undefined) {
    const now = processStart(entry.pid);
    if (now !== undefined && now !== entry.started) return 'dead';
  }
  return 'alive';
}

/** Why the windows folder cannot be trusted with entries and the token, or undefined when it can (POSIX: the user's own, 0700). */
export function folderProblem(dir: string): string | undefined {
  let st: fs.Stats;
  try {
    st = fs.lstatSync(dir);
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'ENOENT' ? 'missing' : `cannot be read (${(e as Error).message})`;
  }
  if (!st.isDirectory()) return 'is not a folder';
  if (process.platform === 'win32') return undefined;
  if (typeof process.getuid === 'function' && st.uid !== process.getuid()) return 'belongs to another user';
  if (st.mode & 0o022) return 'may be written by other users';
  return undefined;
}

/** The token every window of the windows folder `dir` shares; undefined when there is none, or the file is not private. */
export function readToken(dir: string): string | undefined {
  const file = path.join(dir, TOKEN_FILE);
  try {
    const st = fs.lstatSync(file);
    if (!st.isFile() || (process.platform !== 'win32' && ((st.mode & 0o077) !== 0 || (typeof process.getuid === 'function' && st.uid !== process.getuid())))) return undefined;
    const token = fs.readFileSync(file, 'utf8').trim();
    return token.length >= 32 ? token : undefined;
  } catch {
    return undefined;
  }
}

export const newToken = (): string => randomBytes(32).toString('base64url');

/** An entry as its file holds it (fields it does not know are left out), or undefined when the file is not one. */
export function parseEntry(text: string): WindowEntry | undefined {
  let w: Partial<WindowEntry>;
  try {
    w = JSON.parse(text) as Partial<WindowEntry>;
  } catch {
    return undefined;
  }
  if (typeof w !== 'object' || w === null) return undefined;
  if (typeof w.url !== 'string' || !/^http:\/\/127\.0\.0\.1:\d{1,5}$/.test(w.url)) return undefined;
  if (!Array.isArray(w.folders) || !Number.isInteger(w.pid) || (w.pid as number) <= 0) return undefined;
  if (w.started !== undefined && typeof w.started !== 'string') return undefined;
  return { pid: w.pid!, url: w.url, folders: w.folders.filter((f): f is string => typeof f === 'string'), ...(w.started !== undefined && { started: w.started }) };
}

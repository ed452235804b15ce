/**
 * The editor's side of a hook, seen from `zot-host hook`: VS Code windows
 * that answer agent hooks list themselves in a folder (ZOT_HOOK_WINDOWS, one
 * `<pid>.json` each: the window's hook endpoint and its workspace folders),
 * and the hook file gives the token they accept (ZOT_HOOK_TOKEN). A hook for
 * a project one of them has open goes to that window, whose running
 * extensions (allowed by the user) answer it in milliseconds.
 */
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as path from 'node:path';

export const WINDOWS_VAR = 'ZOT_HOOK_WINDOWS';
export const TOKEN_VAR = 'ZOT_HOOK_TOKEN';
/** How long a window may take to answer before the hook runs without it. */
export const WINDOW_TIMEOUT_MS = 10_000;

interface WindowEntry { pid: number; url: string; folders: string[] }

export type EditorAnswer =
  | { kind: 'answered'; body: string }
  | { kind: 'refused'; error: string }
  /** No window has the project open (or none is set up): the hook runs on its own. */
  | { kind: 'none' }
  | { kind: 'unreachable'; note: string };

/** The live window with the deepest workspace folder that holds `cwd`. */
export function windowFor(dir: string, cwd: string, alive: (pid: number) => boolean = isAlive): WindowEntry | undefined {
  let best: { w: WindowEntry; depth: number } | undefined;
  let names: string[];
  try {
    names = fs.readdirSync(dir).filter((n) => n.endsWith('.json'));
  } catch {
    return undefined;
  }
  const target = path.resolve(cwd);
  for (const n of names) {
    let w: WindowEntry;
    try {
      w = JSON.parse(fs.readFileSync(path.join(dir, n), 'utf8')) as WindowEntry;
    } catch {
      continue;
    }
    if (typeof w?.url !== 'string' || !/^http:\/\/127\.0\.0\.1:\d+$/.test(w.url) || !Array.isArray(w.folders) || !Number.isInteger(w.pid) || !alive(w.pid)) continue;
    for (const f of w.folders) {
      if (typeof f !== 'string') continue;
      const rel = path.relative(path.resolve(f), target);
      if (rel.startsWith('..') || path.isAbsolute(rel)) continue;
      const depth = path.resolve(f).split(path.sep).length;
      if (!best || depth > best.depth) best = { w, depth };
    }
  }
  return best?.w;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Sends the hook's input to the editor window that has `cwd` open, if one does. */
export async function askEditor(event: string, input: string, cwd: string | undefined, env: NodeJS.ProcessEnv = process.env): Promise<EditorAnswer> {
  const dir = env[WINDOWS_VAR];
  const token = env[TOKEN_VAR];
  if (!dir || !token || !cwd) return { kind: 'none' };
  const w = windowFor(dir, cwd);
  if (!w) return { kind: 'none' };
  const unreachable = (what: string): EditorAnswer => ({ kind: 'unreachable', note: `zot: the VS Code window for ${cwd} ${what}; the guards ran without it, and its project's guards did not run` });
  const r = await post(`${w.url}/hooks/${event}`, token, input);
  if ('error' in r) return unreachable(`could not be reached (${r.error})`);
  if (r.status === 200) return { kind: 'answered', body: r.body.trim() };
  let message = r.body;
  try {
    message = String((JSON.parse(r.body) as { error?: { message?: unknown } }).error?.message ?? r.body);
  } catch {
    // not JSON: the body as it is
  }
  if (r.status === 400) return { kind: 'refused', error: message };
  return unreachable(`did not answer (HTTP ${r.status}: ${message.slice(0, 200)})`);
}

/** One POST over node:http (quicker to load than fetch, which a hook started per tool call pays for each time). */
function post(url: string, token: string, body: string): Promise<{ status: number; body: string } | { error: string }> {
  return new Promise((resolve) => {
    const req = http.request(url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body), Authorization: `Bearer ${token}` },
      timeout: WINDOW_TIMEOUT_MS,
    }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', (e) => resolve({ error: e.message }));
    });
    req.on('timeout', () => req.destroy(new Error(`no answer within ${WINDOW_TIMEOUT_MS / 1000} s`)));
    req.on('error', (e) => resolve({ error: e.message }));
    req.end(body);
  });
}

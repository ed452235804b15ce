/**
 * The editor's side of a hook, seen from `zot-host hook`: VS Code windows
 * that answer agent hooks list themselves in a folder (WINDOWS_VAR),
 * with the token they share (src/host/hooks/windows.ts holds the contract).
 * A hook for a project one of them has open goes to that window, whose
 * running extensions (allowed by the user) answer it in milliseconds.
 *
 * Only an answer that proves the token counts: an entry that outlived its
 * window names a port any local process may have taken since.
 */
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as path from 'node:path';
import {
  AUTH_HEADER, checkAnswer, entryAlive, FAIL_CLOSED_QUERY, folderProblem, isEntryFileName, parseEntry,
  PROOF_HEADER, readToken, signRequest, TOKEN_VAR, WINDOW_TIMEOUT_MS, type WindowEntry, WINDOWS_VAR
} from '../host/hooks/index.js';

export type EditorAnswer =
  | { kind: 'answered'; body: string }
  | { kind: 'refused'; error: string }
  /** No window has the project open (or none is set up): the hook runs on its own. */
  | { kind: 'none' }
  | { kind: 'unreachable'; note: string };

/** The live window with the deepest workspace folder that holds `cwd`; entries of windows that are gone are removed. */
function windowFor(dir: string, cwd: string, alive: (w: WindowEntry) => 'alive' | 'dead' = entryAlive): WindowEntry | undefined {
  let best: { w: WindowEntry; depth: number } | undefined;
  let names: string[];
  try {
    names = fs.readdirSync(dir).filter(isEntryFileName);
  } catch {
    return undefined;
  }
  const target = path.resolve(cwd);
  for (const n of names) {
    const file = path.join(dir, n);
    let w: WindowEntry | undefined;
    try {
      w = parseEntry(fs.readFileSync(file, 'utf8'));
    } catch {
      continue;
    }
    if (!w) continue;
    if (alive(w) === 'dead') {
      // Its window is gone: nobody is to be asked at its port again.
      fs.rmSync(file, { force: true });
      continue;
    }
    for (const f of w.folders) {
      const rel = path.relative(path.resolve(f), target);
      if (rel.startsWith('..') || path.isAbsolute(rel)) continue;
      const depth = path.resolve(f).split(path.sep).length;
      if (!best || depth > best.depth) best = { w, depth };
    }
  }
  return best?.w;
}

export interface AskOptions {
  /** The window refuses a guarded call or prompt whose guards could not all run (zot-host hook --fail-closed). */
  failClosed?: boolean;
  /** How long the window may take. Default WINDOW_TIMEOUT_MS. */
  timeoutMs?: number;
  env?: NodeJS.ProcessEnv;
}

/** Sends the hook's input to the editor window that has `cwd` open, if one does. */
export async function askEditor(event: string, input: string, cwd: string | undefined, { failClosed = false, timeoutMs = WINDOW_TIMEOUT_MS, env = process.env }: AskOptions = {}): Promise<EditorAnswer> {
  const dir = env[WINDOWS_VAR];
  if (!dir || !cwd) return { kind: 'none' };
  const problem = folderProblem(dir);
  if (problem === 'missing') return { kind: 'none' };
  const unreachable = (what: string): EditorAnswer => ({ kind: 'unreachable', note: `zot: the VS Code window for ${cwd} ${what}; the guards ran without it, and its project's guards did not run` });
  if (problem) return { kind: 'unreachable', note: `zot: the folder where VS Code windows list themselves (${dir}) ${problem}; no window was asked, and the guards ran without one` };
  const w = windowFor(dir, cwd);
  if (!w) return { kind: 'none' };
  const token = readToken(dir) ?? (env[TOKEN_VAR] && env[TOKEN_VAR].length >= 32 ? env[TOKEN_VAR] : undefined);
  if (!token) return unreachable('could not be asked (no hook token: run Zot: Install Agent Hooks again)');
  // The options ride in the query, which the proof covers with the name.
  const target = `${event}${failClosed ? FAIL_CLOSED_QUERY : ''}`;
  const signed = signRequest(token, target, input);
  const r = await post(`${w.url}/hooks/${target}`, signed.header, input, timeoutMs);
  if ('error' in r) return unreachable(`could not be reached (${r.error})`);
  if (!checkAnswer(token, signed.nonce, r.status, r.body, r.proof)) {
    // Not the window's answer, whatever it says: a refusal of ours (401) carries no proof either.
    const said = r.status === 200 ? '' : `: HTTP ${r.status} ${errorMessage(r.body).slice(0, 200)}`;
    return unreachable(`did not answer as that window (no proof of the hook token${said})`);
  }
  if (r.status === 200) return { kind: 'answered', body: r.body.trim() };
  if (r.status === 400) return { kind: 'refused', error: errorMessage(r.body) };
  return unreachable(`did not answer (HTTP ${r.status}: ${errorMessage(r.body).slice(0, 200)})`);
}

function errorMessage(body: string): string {
  try {
    return String((JSON.parse(body) as { error?: { message?: unknown } }).error?.message ?? body);
  } catch {
    return body;
  }
}

/** Most of an answer read: a hook's answer is one line of JSON. */
const MAX_ANSWER_BYTES = 4 * 1024 * 1024;

/** One POST over node:http (quicker to load than fetch, which a hook started per tool call pays for each time). */
function post(url: string, auth: string, body: string, timeoutMs: number): Promise<{ status: number; body: string; proof: unknown } | { error: string }> {
  return new Promise((resolve) => {
    const req = http.request(url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body), [AUTH_HEADER]: auth },
    }, (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (c: Buffer) => {
        size += c.length;
        if (size > MAX_ANSWER_BYTES) req.destroy(new Error(`an answer larger than ${MAX_ANSWER_BYTES} bytes`));
        else chunks.push(c);
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8'), proof: res.headers[PROOF_HEADER] }));
      res.on('error', (e) => resolve({ error: e.message }));
    });
    // The whole exchange, not only a quiet socket: a window that trickles its answer is as late as a silent one.
    const timer = setTimeout(() => req.destroy(new Error(`no answer within ${Math.round(timeoutMs / 100) / 10} s`)), timeoutMs);
    req.on('close', () => clearTimeout(timer));
    req.on('error', (e) => resolve({ error: e.message }));
    req.end(body);
  });
}

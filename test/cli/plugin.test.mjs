// zot-host plugin <dir>: zot as an agent plugin in the Claude plugin format
// (src/host/hooks/plugin.ts). Its files are read as a harness reads them, and
// what they say to run is run as written: the MCP server command through the
// MCP SDK's own client, listing a global extension's tool, and the
// PreToolUse and UserPromptSubmit hook commands through a shell, answered by
// a real guard extension (Python). The plugin runs from its own copy of
// zot-host: the installation it was written from is removed first.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { createRequire } from 'node:module';
import { CLI, COMPAT, lib, ROOT, runCli, tmpdir } from '../helpers.mjs';

const require = createRequire(import.meta.url);
const { Client } = require('@modelcontextprotocol/sdk/client/index.js');
const { StdioClientTransport } = require('@modelcontextprotocol/sdk/client/stdio.js');

/**
 * The plugin's files as these tests read them.
 * @typedef {{ name: string, version: string, description: string }} Manifest
 * @typedef {{ mcpServers: Record<string, { command: string, args: string[], env: Record<string, string> }> }} McpFile
 * @typedef {{ type: string, command: string, env: Record<string, string>, timeout: number }} HookCommand
 * @typedef {{ hooks: Record<string, { matcher?: string, hooks: HookCommand[] }[]> }} HooksFile
 */

/** @type {string} */
const VERSION = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')).version;

/**
 * The plugin at `dir`, parsed.
 * @param {string} dir
 */
function readPlugin(dir) {
  /** @type {(...p: string[]) => unknown} */
  const json = (...p) => JSON.parse(fs.readFileSync(path.join(dir, ...p), 'utf8'));
  return {
    manifest: /** @type {Manifest} */ (json('.claude-plugin', 'plugin.json')),
    mcp: /** @type {McpFile} */ (json('.mcp.json')),
    hooks: /** @type {HooksFile} */ (json('hooks', 'hooks.json')),
  };
}

/**
 * A zot home whose global extensions are copies of these compat fixtures.
 * @param {...string} names
 */
function homeWith(...names) {
  const home = tmpdir('zot-home-');
  for (const n of names) fs.cpSync(path.join(COMPAT, n), path.join(home, 'extensions', n), { recursive: true });
  return home;
}

/**
 * A copy of this build's installation (what the VSIX ships of it: dist/cli.js, dist/hook.js, dist/mcp.js, media/panel/),
 * to write a plugin from and remove afterwards.
 */
function installation() {
  const dir = path.join(tmpdir('zot-install-'), 'zot-extensions');
  for (const f of ['cli.js', 'hook.js', 'mcp.js']) {
    fs.mkdirSync(path.join(dir, 'dist'), { recursive: true });
    fs.copyFileSync(path.join(ROOT, 'dist', f), path.join(dir, 'dist', f));
  }
  fs.cpSync(path.join(ROOT, 'media', 'panel'), path.join(dir, 'media', 'panel'), { recursive: true });
  return dir;
}

/**
 * Runs a hook command as an agent does (a shell; the `env` of the entry over this environment unless `withEnv` is false, as in
 * Claude Code, whose hooks take none), with `input` as JSON on stdin.
 * @param {HookCommand} hook
 * @param {unknown} input
 * @param {{ withEnv?: boolean, cwd?: string }} [options]
 * @returns {Promise<{ code: number | null, stdout: string, stderr: string }>}
 */
function runHook(hook, input, { withEnv = true, cwd = tmpdir('zot-project-') } = {}) {
  return new Promise((resolve) => {
    const child = spawn(hook.command, { shell: true, cwd, env: { ...process.env, ZOT_HOOK_WINDOWS: '', ZOT_HOOK_TOKEN: '', ZOT_HOME: '', ...(withEnv ? hook.env : {}) }, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(JSON.stringify(input));
  });
}

/**
 * The one JSON line a hook answered.
 * @param {{ code: number | null, stdout: string, stderr: string }} r
 */
function answer(r) {
  assert.equal(r.code, 0, `exit ${r.code}: ${r.stderr}`);
  const lines = r.stdout.split('\n').filter(Boolean);
  assert.equal(lines.length, 1, `one JSON line on stdout, got:\n${r.stdout}`);
  return JSON.parse(lines[0]);
}

test('zot-host plugin writes a self-contained plugin: manifest, MCP server and hooks with absolute paths, its own zot-host, the panel page, a README; and says how to enable it', async () => {
  const home = tmpdir('zot-home-');
  const parent = tmpdir('zot-plugin-');
  const dir = path.join(parent, 'zot plugin');
  const r = await runCli(['plugin', dir, '--home', home]);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stderr, '');
  const { manifest, mcp, hooks } = readPlugin(dir);
  assert.deepEqual(Object.keys(manifest), ['name', 'version', 'description']);
  assert.equal(manifest.name, 'zot-extensions');
  assert.equal(manifest.version, VERSION);
  const cli = path.join(dir, 'dist', 'cli.js');
  assert.deepEqual(mcp, { mcpServers: { zot: { command: process.execPath, args: [cli, 'mcp', '--no-project', '--home', home], env: {} } } });
  // Claude's shape: PreToolUse in a group matching every tool; the same zot-host hook command the hook file has, the plugin's copy of the hook verb alone.
  const hookJs = path.join(dir, 'dist', 'hook.js');
  const q = (/** @type {string} */ s) => `'${s.replace(/'/g, `'\\''`)}'`;
  const entry = (/** @type {string} */ event) => ({ type: 'command', command: `${q(process.execPath)} ${q(hookJs)} hook ${event} --no-project --home ${q(home)}`, env: {}, timeout: 15 });
  assert.deepEqual(hooks, { hooks: { PreToolUse: [{ matcher: '*', hooks: [entry('PreToolUse')] }], UserPromptSubmit: [{ hooks: [entry('UserPromptSubmit')] }] } });
  for (const p of [process.execPath, ...mcp.mcpServers.zot.args.filter((a) => a.startsWith(path.sep))]) assert.ok(path.isAbsolute(p) && fs.existsSync(p), `${p} exists`);
  assert.equal(fs.readFileSync(cli, 'utf8'), fs.readFileSync(CLI, 'utf8'), 'its zot-host is a copy of this one');
  for (const f of ['hook.js', 'mcp.js']) assert.equal(fs.readFileSync(path.join(dir, 'dist', f), 'utf8'), fs.readFileSync(path.join(ROOT, 'dist', f), 'utf8'), f);
  // The panel page the MCP bundle serves, as the VSIX ships it (no TypeScript declarations).
  const shipped = fs.readdirSync(path.join(ROOT, 'media', 'panel')).filter((f) => !f.endsWith('.ts')).sort();
  assert.ok(shipped.includes('panel.js'));
  assert.deepEqual(fs.readdirSync(path.join(dir, 'media', 'panel')).sort(), shipped);
  const readme = fs.readFileSync(path.join(dir, 'README.md'), 'utf8');
  assert.match(readme, /zot-host plugin .*zot plugin/);
  assert.match(readme, /Zot: Create Agent Plugin/);
  assert.deepEqual(fs.readdirSync(parent), ['zot plugin'], 'nothing else is left beside it');
  assert.match(r.stdout, new RegExp(`^wrote the agent plugin zot-extensions in ${dir.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:`));
  assert.ok(r.stdout.includes(`"chat.pluginLocations": { ${JSON.stringify(dir)}: true }`), r.stdout);
  assert.ok(r.stdout.includes(`claude --plugin-dir ${q(dir)}`), r.stdout);
  assert.ok(r.stdout.includes(`copilot plugin install ${q(dir)}`), r.stdout);
});

test('zot-host plugin: a usage error exits 2; a folder that is not ours, a file and a symbolic link are refused with exit 1 and left as they were', async () => {
  /** @type {[string[], string][]} */
  const usage = [
    [['plugin'], 'plugin needs the folder to write the plugin into'],
    [['plugin', 'a', 'b'], 'plugin takes one folder (got "b" too)'],
    [['plugin', 'a', '--ext', 'x'], 'plugin takes only --format, --home, --fail-closed, --mcp-config and --guard-hook (got --ext)'],
    [['plugin', 'a', '--name', 'x'], 'plugin takes only --format, --home, --fail-closed, --mcp-config and --guard-hook (got --name)'],
    [['plugin', 'a', '--format', 'cursor'], '--format takes claude, copilot, codex, agent-plugins, got "cursor"'],
    [['plugin', 'a', '--format'], '--format needs a value'],
    [['plugin', 'a', '--guard-hook', 'http'], '--guard-hook takes command or mcp, got "http"'],
    [['hook', 'PreToolUse', '--guard-hook', 'mcp'], '--guard-hook is an option of plugin'],
    [['mcp', '--format', 'claude'], '--format is an option of plugin'],
  ];
  for (const [args, message] of usage) {
    const r = await runCli(args);
    assert.equal(r.code, 2, `${args.join(' ')}: ${r.stderr}`);
    assert.ok(r.stderr.startsWith(`zot-host: ${message}\n`), r.stderr);
  }
  const parent = tmpdir('zot-plugin-');
  const theirs = path.join(parent, 'theirs');
  fs.mkdirSync(path.join(theirs, '.claude-plugin'), { recursive: true });
  fs.writeFileSync(path.join(theirs, '.claude-plugin', 'plugin.json'), '{"name":"someone-else"}');
  const refused = await runCli(['plugin', theirs]);
  assert.equal(refused.code, 1);
  assert.equal(refused.stderr, `zot-host plugin: ${theirs} is not a plugin that zot-host wrote as it is now (no .zot-plugin.json of zot-host's in it); it is left as it is (name a new or empty folder, or remove it yourself)\n`);
  assert.deepEqual(fs.readdirSync(theirs), ['.claude-plugin']);
  const file = path.join(parent, 'file');
  fs.writeFileSync(file, 'x');
  const notFolder = await runCli(['plugin', file]);
  assert.equal(notFolder.code, 1);
  assert.match(notFolder.stderr, /exists and is not a folder; it is left as it is/);
  // A link to a folder of ours, or to any folder: never written through.
  const ours = path.join(parent, 'ours');
  assert.equal((await runCli(['plugin', ours])).code, 0);
  const before = fs.readFileSync(path.join(ours, '.mcp.json'), 'utf8');
  for (const target of [ours, theirs]) {
    const link = path.join(parent, `link-${path.basename(target)}`);
    fs.symlinkSync(target, link);
    const r = await runCli(['plugin', link, '--home', tmpdir('zot-home-')]);
    assert.equal(r.code, 1);
    assert.equal(r.stderr, `zot-host plugin: ${link} is a symbolic link; the plugin is not written through it (remove the link, or name another folder)\n`);
    assert.ok(fs.lstatSync(link).isSymbolicLink());
  }
  assert.equal(fs.readFileSync(path.join(ours, '.mcp.json'), 'utf8'), before, 'the folder behind the link is untouched');
  assert.deepEqual(fs.readdirSync(theirs), ['.claude-plugin']);
  assert.deepEqual(fs.readdirSync(parent).sort(), ['file', 'link-ours', 'link-theirs', 'ours', 'theirs'], 'no temporary folder left');
});

test('zot-host plugin writes again over its own plugin, whole, and into an empty folder; the zot home keeps a record of the one plugin there', async () => {
  const parent = tmpdir('zot-plugin-');
  const dir = path.join(parent, 'p');
  fs.mkdirSync(dir);
  const home = tmpdir('zot-home-');
  assert.equal((await runCli(['plugin', dir, '--home', home])).code, 0, 'an empty folder is taken');
  const first = fs.readdirSync(path.join(home, 'agent-plugins'));
  assert.equal(first.length, 1);
  // Written again for another zot home: the plugin's marker names the home that recorded it.
  const other = tmpdir('zot-home-');
  assert.equal((await runCli(['plugin', dir, '--home', other])).code, 0);
  assert.deepEqual(fs.readdirSync(path.join(home, 'agent-plugins')), [], 'the replaced plugin\'s record is gone');
  const again = await runCli(['plugin', dir, '--home', home, '--fail-closed']);
  assert.equal(again.code, 0, again.stderr);
  assert.match(again.stdout, /the hooks fail closed/);
  const { hooks } = readPlugin(dir);
  for (const event of ['PreToolUse', 'UserPromptSubmit']) assert.match(hooks.hooks[event][0].hooks[0].command, new RegExp(` hook ${event} --no-project --fail-closed --home `));
  assert.match(fs.readFileSync(path.join(dir, 'README.md'), 'utf8'), /a call or prompt whose guards could not all run is refused/);
  assert.deepEqual(fs.readdirSync(parent), ['p'], 'neither the old folder nor a temporary one is left');
  const marker = JSON.parse(fs.readFileSync(path.join(dir, '.zot-plugin.json'), 'utf8'));
  assert.deepEqual(Object.keys(marker), ['id', 'home']);
  assert.equal(marker.home, home);
  assert.deepEqual(fs.readdirSync(path.join(home, 'agent-plugins')), [`${marker.id}.json`]);
  assert.deepEqual(fs.readdirSync(path.join(other, 'agent-plugins')), []);
});

test('zot-host plugin never replaces a folder holding what it did not write: a git work tree whose manifest says zot-extensions, its own plugin with a file added or changed, a forged marker', async () => {
  const parent = tmpdir('zot-plugin-');
  const home = tmpdir('zot-home-');
  /** Every path under a folder, with its content (files) or '/' (folders). @param {string} dir */
  const snapshot = (dir) => fs.readdirSync(dir, { recursive: true, withFileTypes: true })
    .map((e) => [path.relative(dir, path.join(e.parentPath, e.name)), e.isDirectory() ? '/' : fs.readFileSync(path.join(e.parentPath, e.name), 'latin1')].join('\0')).sort();
  /** @param {string} dir @param {RegExp} why */
  const refusedLeft = async (dir, why) => {
    const before = snapshot(dir);
    const r = await runCli(['plugin', dir, '--home', home]);
    assert.equal(r.code, 1, r.stdout);
    assert.match(r.stderr, new RegExp(`^zot-host plugin: ${dir.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} is not a plugin that zot-host wrote as it is now \\(`));
    assert.match(r.stderr, why);
    assert.deepEqual(snapshot(dir), before, `${dir} is left as it was`);
  };
  // Someone's clone of a plugin that names itself zot-extensions: notes, code and .git.
  const tree = path.join(parent, 'clone');
  fs.mkdirSync(path.join(tree, '.claude-plugin'), { recursive: true });
  fs.writeFileSync(path.join(tree, '.claude-plugin', 'plugin.json'), '{"name":"zot-extensions","version":"0.1.0"}');
  fs.writeFileSync(path.join(tree, 'NOTES.md'), 'my notes\n');
  const git = (/** @type {string[]} */ ...a) => execFileSync('git', ['-C', tree, '-c', 'user.name=t', '-c', 'user.email=t@t', ...a], { stdio: 'pipe' });
  git('init', '-q');
  git('add', '.');
  git('commit', '-qm', 'mine');
  await refusedLeft(tree, /no \.zot-plugin\.json of zot-host's in it/);
  assert.equal(git('status', '--porcelain').toString(), '', 'the work tree is as it was');

  // Its own plugin, with a file of the user's added, or one of its files changed.
  const dir = path.join(parent, 'p');
  assert.equal((await runCli(['plugin', dir, '--home', home])).code, 0);
  fs.writeFileSync(path.join(dir, 'stray.txt'), 'mine');
  await refusedLeft(dir, /\(it holds stray\.txt, which zot-host did not write\)/);
  fs.rmSync(path.join(dir, 'stray.txt'));
  fs.mkdirSync(path.join(dir, 'hooks', 'mine'));
  await refusedLeft(dir, /\(it holds hooks\/mine, which zot-host did not write\)/);
  fs.rmdirSync(path.join(dir, 'hooks', 'mine'));
  fs.appendFileSync(path.join(dir, 'README.md'), 'my edit\n');
  await refusedLeft(dir, /\(README\.md was changed after zot-host wrote it\)/);

  // The marker copied into the clone: the id is recorded, but the clone holds files zot-host did not write.
  fs.copyFileSync(path.join(dir, '.zot-plugin.json'), path.join(tree, '.zot-plugin.json'));
  await refusedLeft(tree, /\(\.claude-plugin\/plugin\.json was changed after zot-host wrote it\)/);
  // A made-up id, and a marker whose record is inside the folder itself (the folder vouching for itself).
  fs.writeFileSync(path.join(tree, '.zot-plugin.json'), JSON.stringify({ id: 'ab'.repeat(16), home }));
  await refusedLeft(tree, /its \.zot-plugin\.json names a plugin that zot home .* has no record of/);
  const self = path.join(parent, 'self');
  fs.mkdirSync(path.join(self, 'h', 'agent-plugins'), { recursive: true });
  fs.writeFileSync(path.join(self, '.zot-plugin.json'), JSON.stringify({ id: 'cd'.repeat(16), home: path.join(self, 'h') }));
  fs.writeFileSync(path.join(self, 'h', 'agent-plugins', `${'cd'.repeat(16)}.json`), JSON.stringify({ dir: self, files: {} }));
  await refusedLeft(self, /no \.zot-plugin\.json of zot-host's in it/);
  assert.equal(await lib.isOurPlugin(tree), false);
  assert.equal(await lib.isOurPlugin(dir), false, 'changed since it was written');
});

test('under umask 000 the folders zot-host plugin creates, above the plugin and in it, and its record in the zot home are private; its files are not writable by others', async () => {
  const root = tmpdir('zot-plugin-');
  const dir = path.join(root, 'a', 'b', 'installed-plugins', 'p');
  const home = path.join(tmpdir('zot-home-'), 'new-home');
  const r = await new Promise((resolve) => {
    const child = spawn('/bin/sh', ['-c', 'umask 000 && exec "$0" "$@"', process.execPath, CLI, 'plugin', dir, '--home', home], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (code) => resolve({ code, stderr }));
  });
  assert.deepEqual(r, { code: 0, stderr: '' });
  /** @param {string[]} paths @param {boolean} created */
  const check = (paths, created) => {
    for (const p of paths) {
      const mode = fs.statSync(p).mode & 0o777;
      assert.equal(mode & 0o022, 0, `${p} is ${mode.toString(8)}: writable by group or others`);
      if (created && fs.statSync(p).isDirectory()) assert.equal(mode, 0o700, `${p} is ${mode.toString(8)}`);
    }
  };
  check([path.join(root, 'a'), path.join(root, 'a', 'b'), path.dirname(dir), dir], true);
  check(fs.readdirSync(dir, { recursive: true }).map((f) => path.join(dir, String(f))), false);
  const records = path.join(home, 'agent-plugins');
  check([home, records, ...fs.readdirSync(records).map((f) => path.join(records, f))], true);
});

test('the plugin runs on its own: its MCP server, started as .mcp.json says with the MCP SDK\'s client, lists a global extension\'s tool and calls it; its hooks, run as hooks.json says, are answered by a global guard', async (t) => {
  const source = installation();
  const dir = path.join(tmpdir('zot-plugin-'), 'zot-extensions');
  const home = homeWith('node-nosdk', 'guard');
  const written = await new Promise((resolve) => {
    const child = spawn(process.execPath, [path.join(source, 'dist', 'cli.js'), 'plugin', dir, '--home', home], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (code) => resolve({ code, stderr }));
  });
  assert.deepEqual(written, { code: 0, stderr: '' });
  // The installation it came from is gone (an extension updated or removed): the plugin runs its own copy.
  fs.rmSync(path.dirname(source), { recursive: true });
  const { mcp, hooks } = readPlugin(dir);

  const server = mcp.mcpServers.zot;
  // As VS Code starts a plugin's server: in the plugin's folder, the server's env over the inherited one.
  const transport = new StdioClientTransport({ command: server.command, args: server.args, env: server.env, cwd: dir, stderr: 'pipe' });
  const client = new Client({ name: 'plugin-test', version: '1.0.0' });
  await client.connect(transport);
  t.after(() => client.close());
  /** @type {{ tools: { name: string }[] }} */
  const { tools } = await client.listTools();
  assert.ok(tools.some((x) => x.name === 'echo_upper'), `echo_upper listed: ${tools.map((x) => x.name)}`);
  const called = await client.callTool({ name: 'echo_upper', arguments: { text: 'from the plugin' } });
  assert.equal(called.isError, false, JSON.stringify(called));
  assert.match(JSON.stringify(called.content), /FROM THE PLUGIN/);

  const pre = hooks.hooks.PreToolUse[0].hooks[0];
  const input = { hook_event_name: 'PreToolUse', session_id: 's1', tool_name: 'run_in_terminal', tool_input: { command: 'rm -rf build' }, tool_use_id: 'call_1', cwd: process.cwd() };
  assert.deepEqual(answer(await runHook(pre, input)), { hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'refusing to run rm -rf (rm -rf build)' } });
  assert.deepEqual(answer(await runHook(pre, { ...input, tool_input: { command: 'ls' } })), {});
  const prompt = hooks.hooks.UserPromptSubmit[0].hooks[0];
  assert.deepEqual(answer(await runHook(prompt, { hook_event_name: 'UserPromptSubmit', prompt: 'do the forbidden thing' })), { decision: 'block', reason: 'this prompt asks for something forbidden' });
});

test('a plugin for VS Code\'s runtime: ELECTRON_RUN_AS_NODE reaches its server and hooks, and the windows folder its hooks; a harness that takes no env for hooks (Claude Code) still gives them both', async () => {
  const home = homeWith('guard');
  const dir = path.join(tmpdir('zot-plugin-'), 'p');
  const windows = path.join(tmpdir('zot-gs-'), 'hook-windows');
  // A runtime that records what it was given, then runs zot-host with Node.
  const seen = path.join(tmpdir('zot-runtime-'), 'seen.txt');
  const runtime = path.join(path.dirname(seen), 'node runtime.sh');
  fs.writeFileSync(runtime, `#!/bin/sh\nprintf '%s|%s\\n' "$ELECTRON_RUN_AS_NODE" "$ZOT_HOOK_WINDOWS" >> '${seen}'\nexec '${process.execPath}' "$@"\n`, { mode: 0o755 });
  const written = await lib.writePlugin(dir, { runtime, env: { ELECTRON_RUN_AS_NODE: '1' }, source: ROOT, zotHome: home, windows, failClosed: true });
  assert.deepEqual(written, { dir, format: 'claude', manifest: path.join(dir, '.claude-plugin', 'plugin.json'), mcp: path.join(dir, '.mcp.json'), hooks: path.join(dir, 'hooks', 'hooks.json'), readme: path.join(dir, 'README.md'), cli: path.join(dir, 'dist', 'cli.js'), hook: path.join(dir, 'dist', 'hook.js') });
  const { mcp, hooks } = readPlugin(dir);
  assert.deepEqual(mcp.mcpServers.zot.env, { ELECTRON_RUN_AS_NODE: '1' });
  const pre = hooks.hooks.PreToolUse[0].hooks[0];
  assert.deepEqual(pre.env, { ELECTRON_RUN_AS_NODE: '1', ZOT_HOOK_WINDOWS: windows });
  assert.match(pre.command, / hook PreToolUse --no-project --fail-closed --home /);
  const input = { hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'rm -rf /tmp/x' }, cwd: process.cwd() };
  for (const withEnv of [true, false]) {
    fs.rmSync(seen, { force: true });
    assert.equal(answer(await runHook(pre, input, { withEnv })).hookSpecificOutput.permissionDecision, 'deny');
    assert.equal(fs.readFileSync(seen, 'utf8'), `1|${windows}\n`, withEnv ? 'from the entry\'s env' : 'from the command line alone');
  }
  await assert.rejects(lib.writePlugin(path.join(tmpdir('zot-plugin-'), 'p'), { runtime, source: tmpdir('zot-empty-'), zotHome: home }), /dist\/cli\.js is missing: .* is not an installation of zot-host/);
  await assert.rejects(lib.writePlugin(path.join(ROOT, 'media', 'panel', 'p'), { runtime, source: ROOT, zotHome: home }), /media\/panel\/p is inside .*media\/panel, which the plugin copies/);
  assert.equal(await lib.isOurPlugin(dir), true);
  assert.equal(await lib.isOurPlugin(path.dirname(dir)), false);
});

test('--format copilot writes Copilot CLI\'s own plugin: a root plugin.json naming hooks.json (Copilot\'s shape and event names) and .mcp.json; its hooks run as written, in Copilot\'s input and answer; it replaces a Claude-format plugin of ours, and is replaced by one', async () => {
  const home = homeWith('guard');
  const dir = path.join(tmpdir('zot-plugin-'), 'p');
  const claude = await runCli(['plugin', dir, '--home', home]);
  assert.equal(claude.code, 0, claude.stderr);
  const r = await runCli(['plugin', dir, '--home', home, '--format', 'copilot', '--fail-closed']);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /^wrote the agent plugin zot-extensions \(Copilot CLI's format\) in /);
  assert.ok(r.stdout.includes(`copilot plugin install ${dir}\n`), r.stdout);
  assert.ok(!r.stdout.includes('claude --plugin-dir'), 'only Copilot CLI is named');
  assert.ok(!fs.existsSync(path.join(dir, '.claude-plugin')), 'the Claude-format plugin was replaced whole');
  assert.deepEqual(fs.readdirSync(dir).sort(), ['.mcp.json', '.zot-plugin.json', 'README.md', 'dist', 'hooks.json', 'media', 'plugin.json']);
  /** @type {(f: string) => any} */
  const read = (f) => JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8'));
  const manifest = read('plugin.json');
  assert.deepEqual(manifest, { name: 'zot-extensions', version: VERSION, description: manifest.description, hooks: 'hooks.json', mcpServers: '.mcp.json' });
  const cli = path.join(dir, 'dist', 'cli.js');
  assert.deepEqual(read('.mcp.json'), { mcpServers: { zot: { command: process.execPath, args: [cli, 'mcp', '--no-project', '--home', home], env: {} } } });
  const hooks = read('hooks.json');
  assert.equal(hooks.version, 1);
  assert.deepEqual(Object.keys(hooks.hooks), ['preToolUse', 'userPromptSubmitted']);
  const q = (/** @type {string} */ s) => `'${s.replace(/'/g, `'\\''`)}'`;
  for (const [event, verb] of [['preToolUse', 'PreToolUse'], ['userPromptSubmitted', 'UserPromptSubmit']]) {
    assert.deepEqual(hooks.hooks[event], [{ type: 'command', bash: `${q(process.execPath)} ${q(path.join(dir, 'dist', 'hook.js'))} hook ${verb} --no-project --fail-closed --home ${q(home)}`, env: {}, timeoutSec: 15 }]);
  }
  assert.match(fs.readFileSync(path.join(dir, 'README.md'), 'utf8'), /Copilot CLI's own plugin format[\s\S]*zot-host plugin .* --format copilot/);
  // Run as Copilot CLI runs them (bash, its camelCase input): the guard answers in Copilot's shape.
  /** @param {string} event @param {unknown} input */
  const run = (event, input) => runHook({ type: 'command', command: hooks.hooks[event][0].bash, env: {}, timeout: 15 }, input);
  assert.deepEqual(answer(await run('preToolUse', { timestamp: 1, cwd: process.cwd(), toolName: 'bash', toolArgs: { command: 'rm -rf build' } })), { permissionDecision: 'deny', permissionDecisionReason: 'refusing to run rm -rf (rm -rf build)' });
  assert.deepEqual(answer(await run('userPromptSubmitted', { timestamp: 1, cwd: process.cwd(), prompt: 'do the forbidden thing' })), { decision: 'block', reason: 'this prompt asks for something forbidden' });
  // And back: a Claude-format plugin replaces it whole.
  assert.equal((await runCli(['plugin', dir, '--home', home])).code, 0);
  assert.ok(fs.existsSync(path.join(dir, '.claude-plugin', 'plugin.json')) && !fs.existsSync(path.join(dir, 'plugin.json')) && !fs.existsSync(path.join(dir, 'hooks.json')));
});

test('a file added to its own plugin while it is being written again is not deleted: the old folder is checked again once moved aside', async () => {
  const home = tmpdir('zot-home-');
  const parent = tmpdir('zot-plugin-');
  const dir = path.join(parent, 'p');
  const source = installation();
  // A large file to copy keeps the new plugin in the making for a while.
  fs.writeFileSync(path.join(source, 'media', 'panel', 'large.bin'), Buffer.alloc(64 * 1024 * 1024));
  await lib.writePlugin(dir, { runtime: process.execPath, source, zotHome: home });
  const writing = lib.writePlugin(dir, { runtime: process.execPath, source, zotHome: home });
  // As soon as the new plugin is being made beside it, a file of the user's lands in the old one.
  while (!fs.readdirSync(parent).some((f) => f.endsWith('.tmp'))) await new Promise((resolve) => setImmediate(resolve));
  fs.writeFileSync(path.join(dir, 'mine.txt'), 'mine');
  await assert.rejects(writing, new RegExp(`^Error: ${dir.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} changed while the plugin was being written; it is left as it is$`));
  assert.equal(fs.readFileSync(path.join(dir, 'mine.txt'), 'utf8'), 'mine');
  assert.deepEqual(fs.readdirSync(parent), ['p'], 'no temporary folder left');
  assert.equal(fs.readdirSync(path.join(home, 'agent-plugins')).length, 1, 'the new plugin\'s record is gone with it');
});

test('--format codex writes a Codex plugin marketplace: its catalog names the plugin, in Claude\'s format in zot-extensions/, with its own zot-host there; says how to add it', async () => {
  const home = homeWith('guard');
  const dir = path.join(tmpdir('zot-plugin-'), 'm');
  const r = await runCli(['plugin', dir, '--home', home, '--format', 'codex']);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /^wrote the agent plugin zot-extensions \(a Codex plugin marketplace\) in /);
  assert.ok(r.stdout.includes(`codex plugin marketplace add ${dir}\n`) && r.stdout.includes('codex plugin add zot-extensions@zot\n'), r.stdout);
  assert.match(r.stdout, /zot-extensions\/dist\/, zot-extensions\/media\/panel\//);
  assert.deepEqual(fs.readdirSync(dir).sort(), ['.claude-plugin', '.zot-plugin.json', 'README.md', 'zot-extensions']);
  assert.deepEqual(JSON.parse(fs.readFileSync(path.join(dir, '.claude-plugin', 'marketplace.json'), 'utf8')).plugins.map((/** @type {{ name: string, source: string }} */ p) => [p.name, p.source]), [['zot-extensions', './zot-extensions']]);
  const plugin = readPlugin(path.join(dir, 'zot-extensions'));
  assert.equal(plugin.manifest.name, 'zot-extensions');
  const cli = path.join(dir, 'zot-extensions', 'dist', 'cli.js');
  assert.deepEqual(plugin.mcp.mcpServers.zot.args, [cli, 'mcp', '--no-project', '--home', home]);
  assert.ok(fs.existsSync(cli) && fs.existsSync(path.join(dir, 'zot-extensions', 'media', 'panel', 'panel.js')));
  // Codex alone reads it: its guards are mcp_tool calls of its server, which serves the guard tool.
  assert.deepEqual(plugin.hooks.hooks.PreToolUse[0].hooks[0], {
    type: 'mcp_tool', server: 'zot', tool: 'zot_agent_hook', onFailure: 'continue', timeout: 15,
    input: { hook_event_name: '${hook_event_name}', tool_name: '${tool_name}', tool_input: '${tool_input}', tool_use_id: '${tool_use_id}', session_id: '${session_id}', cwd: '${cwd}', fail_closed: false },
  });
  // Every tool: Codex read a matcher of Claude Code's kind as guarding nothing.
  assert.equal(plugin.hooks.hooks.PreToolUse[0].matcher, '*');
  assert.deepEqual(plugin.mcp.mcpServers.zot.env, { ZOT_MCP_HOOK_GUARD: '1' });
  // With --guard-hook command, as zot-host hook (for a Codex before mcp_tool hooks).
  assert.equal((await runCli(['plugin', dir, '--home', home, '--format', 'codex', '--guard-hook', 'command'])).code, 0);
  const hookJs = path.join(dir, 'zot-extensions', 'dist', 'hook.js');
  assert.match(readPlugin(path.join(dir, 'zot-extensions')).hooks.hooks.PreToolUse[0].hooks[0].command, new RegExp(`'${hookJs.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}' hook PreToolUse `));
  assert.match(fs.readFileSync(path.join(dir, 'README.md'), 'utf8'), /for Codex: a plugin marketplace[\s\S]*zot-host plugin .* --format codex/);
  // Written again in another format over it: it is zot-host's, so it is replaced whole.
  assert.equal((await runCli(['plugin', dir, '--home', home])).code, 0);
  assert.ok(!fs.existsSync(path.join(dir, 'zot-extensions')) && fs.existsSync(path.join(dir, '.claude-plugin', 'plugin.json')));
});

test('--format agent-plugins writes an Agent Plugins 1.0 package: root plugin.json and typed mcp.json naming their schemas, a launcher in the plugin, Copilot CLI\'s hooks in com.github.copilot/; its server runs from a copy as a client of the standard starts it, and its hooks as written', async (t) => {
  const home = homeWith('node-nosdk', 'guard');
  const source = installation();
  const dir = path.join(tmpdir('zot-plugin-'), 'ap');
  const r = await new Promise((resolve) => {
    const child = spawn(process.execPath, [path.join(source, 'dist', 'cli.js'), 'plugin', dir, '--home', home, '--format', 'agent-plugins'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.on('close', (code) => resolve({ code, stdout }));
  });
  assert.equal(r.code, 0, r.stdout);
  assert.match(r.stdout, /^wrote the agent plugin zot-extensions \(Agent Plugins 1\.0\) in /);
  assert.ok(r.stdout.includes(`copilot plugin install ${dir}\n`), r.stdout);
  fs.rmSync(path.dirname(source), { recursive: true });
  assert.deepEqual(fs.readdirSync(dir).sort(), ['.zot-plugin.json', 'README.md', 'bin', 'com.github.copilot', 'dist', 'mcp.json', 'media', 'plugin.json']);
  /** @type {(...f: string[]) => any} */
  const read = (...f) => JSON.parse(fs.readFileSync(path.join(dir, ...f), 'utf8'));
  const manifest = read('plugin.json');
  // The standard's manifest is closed: $schema, name and the metadata fields only.
  assert.deepEqual(manifest, { $schema: 'https://agent-plugins.org/schemas/1.0.0/plugin.schema.json', name: 'zot-extensions', version: VERSION, description: manifest.description });
  const mcp = read('mcp.json');
  assert.deepEqual(mcp, {
    $schema: 'https://agent-plugins.org/schemas/1.0.0/mcp.schema.json',
    mcpServers: { zot: { type: 'stdio', command: './bin/zot-node', args: ['${PLUGIN_ROOT}/dist/cli.js', 'mcp', '--no-project', '--home', home], env: {}, cwd: '${PLUGIN_DATA}' } },
  });
  const hooks = read('com.github.copilot', 'hooks', 'hooks.json');
  assert.equal(hooks.version, 1);
  assert.deepEqual(Object.keys(hooks.hooks), ['preToolUse', 'userPromptSubmitted']);
  assert.match(fs.readFileSync(path.join(dir, 'README.md'), 'utf8'), /Agent Plugins 1\.0 format[\s\S]*zot-host plugin .* --format agent-plugins/);

  // A client copies the plugin where it keeps plugins (Copilot CLI does), and starts the server as the standard says:
  // the command resolved in the plugin, ${PLUGIN_ROOT} and ${PLUGIN_DATA} expanded in args, env and cwd, both set in the environment.
  const root = path.join(tmpdir('zot-client-'), 'installed');
  fs.cpSync(dir, root, { recursive: true });
  const data = tmpdir('zot-plugin-data-');
  /** @param {string} s */
  const expand = (s) => s.replaceAll('${PLUGIN_ROOT}', root).replaceAll('${PLUGIN_DATA}', data);
  const server = mcp.mcpServers.zot;
  const transport = new StdioClientTransport({
    command: path.join(root, server.command), args: server.args.map(expand), cwd: expand(server.cwd),
    env: { PATH: process.env.PATH ?? '', ...server.env, PLUGIN_ROOT: root, PLUGIN_DATA: data }, stderr: 'pipe',
  });
  const client = new Client({ name: 'agent-plugins-client', version: '1.0.0' });
  await client.connect(transport);
  t.after(() => client.close());
  const called = await client.callTool({ name: 'echo_upper', arguments: { text: 'from the standard' } });
  assert.match(JSON.stringify(called.content), /FROM THE STANDARD/);
  fs.rmSync(dir, { recursive: true });
  // The copy runs its own zot-host: the folder written is gone, and the server still answers.
  assert.match(JSON.stringify((await client.callTool({ name: 'echo_upper', arguments: { text: 'still' } })).content), /STILL/);

  // Its hooks, in Copilot CLI's shape, as written (they name the folder written: write it again where the copy is).
  assert.equal((await runCli(['plugin', dir, '--home', home, '--format', 'agent-plugins'])).code, 0);
  const pre = read('com.github.copilot', 'hooks', 'hooks.json').hooks.preToolUse[0];
  assert.deepEqual(answer(await runHook({ type: 'command', command: pre.bash, env: pre.env, timeout: 15 }, { timestamp: 1, cwd: process.cwd(), toolName: 'bash', toolArgs: { command: 'rm -rf build' } })), { permissionDecision: 'deny', permissionDecisionReason: 'refusing to run rm -rf (rm -rf build)' });
  // A server env the standard keeps for the client is refused, saying so; a Claude-format plugin replaces this one whole.
  await assert.rejects(lib.writePlugin(path.join(tmpdir('zot-plugin-'), 'x'), { runtime: process.execPath, env: { PLUGIN_ROOT: '/x' }, source: ROOT, zotHome: home, format: 'agent-plugins' }), /"PLUGIN_ROOT" is set by the client of an Agent Plugins package/);
  assert.equal((await runCli(['plugin', dir, '--home', home])).code, 0);
  assert.ok(fs.existsSync(path.join(dir, '.claude-plugin', 'plugin.json')) && !fs.existsSync(path.join(dir, 'mcp.json')) && !fs.existsSync(path.join(dir, 'bin')));
});

test('--mcp-config adds the server zot, run by the plugin\'s zot-host, to an MCP config file, keeping its other servers and fields; replaces only an entry zot-host wrote; a foreign zot, a file that is not a JSON object and a link are refused and left as they were', async () => {
  const home = homeWith('guard');
  const dir = path.join(tmpdir('zot-plugin-'), 'p');
  const project = tmpdir('zot-project-');
  const file = path.join(project, '.mcp.json');
  const other = { command: 'other-server', args: ['--x'] };
  fs.writeFileSync(file, JSON.stringify({ mcpServers: { other }, inputs: [1] }));
  const r = await runCli(['plugin', dir, '--home', home, '--format', 'copilot', '--mcp-config', file]);
  assert.equal(r.code, 0, r.stderr);
  assert.ok(r.stdout.includes(`added the MCP server "zot" in ${file}, run by the plugin's zot-host\n`), r.stdout);
  const entry = { type: 'stdio', command: process.execPath, args: [path.join(dir, 'dist', 'cli.js'), 'mcp', '--no-project', '--home', home], env: {}, tools: ['*'] };
  assert.deepEqual(JSON.parse(fs.readFileSync(file, 'utf8')), { mcpServers: { other, zot: entry }, inputs: [1] });
  // Again, into Copilot CLI's user file that is not there yet: made, private.
  const user = path.join(tmpdir('zot-user-'), '.copilot', 'mcp-config.json');
  const again = await runCli(['plugin', dir, '--home', home, '--mcp-config', user]);
  assert.equal(again.code, 0, again.stderr);
  assert.ok(again.stdout.includes(`added the MCP server "zot" in ${user}`), again.stdout);
  assert.deepEqual(JSON.parse(fs.readFileSync(user, 'utf8')), { mcpServers: { zot: entry } });
  assert.equal(fs.statSync(user).mode & 0o777, 0o600);
  const replaced = await runCli(['plugin', dir, '--home', home, '--mcp-config', file]);
  assert.ok(replaced.stdout.includes(`replaced the MCP server "zot" in ${file}`), replaced.stdout + replaced.stderr);
  // What it must not change: each refused with exit 1, saying what and where, the file as it was.
  const link = path.join(project, 'link.json');
  fs.symlinkSync(file, link);
  for (const [name, text, why] of [
    ['foreign.json', JSON.stringify({ mcpServers: { zot: { command: 'zot', args: ['serve'] } } }), 'already has a server "zot" that zot-host did not write'],
    ['broken.json', '{"mcpServers": {', 'is not JSON'],
    ['array.json', '[]', 'does not hold a JSON object'],
    ['servers.json', '{"mcpServers": []}', '"mcpServers" is not an object'],
    ['link.json', undefined, 'is a symbolic link'],
  ]) {
    const f = path.join(project, /** @type {string} */ (name));
    if (text !== undefined) fs.writeFileSync(f, text);
    const before = fs.readFileSync(f, 'utf8');
    const refused = await runCli(['plugin', dir, '--home', home, '--mcp-config', f]);
    assert.equal(refused.code, 1, `${name}: ${refused.stdout}`);
    assert.ok(refused.stderr.startsWith(`zot-host plugin: the plugin is written, the MCP config is not: ${f}`) && refused.stderr.includes(/** @type {string} */ (why)), refused.stderr);
    assert.equal(fs.readFileSync(f, 'utf8'), before);
    assert.ok(fs.lstatSync(link).isSymbolicLink());
  }
  assert.deepEqual(fs.readdirSync(project).filter((f) => f.endsWith('.tmp')), []);
  const usage = await runCli(['mcp', '--mcp-config', file]);
  assert.equal(usage.code, 2);
  assert.match(usage.stderr, /^zot-host: --mcp-config is an option of plugin\n/);
});

test('--guard-hook mcp: the server serves the guard tool (only then), which answers a hook\'s interpolated input in the hook\'s output shape; Claude Code names the plugin\'s server plugin:zot-extensions:zot; formats other harnesses read take only command hooks', async (t) => {
  const home = homeWith('node-nosdk', 'guard');
  const dir = path.join(tmpdir('zot-plugin-'), 'p');
  const r = await runCli(['plugin', dir, '--home', home, '--guard-hook', 'mcp', '--fail-closed']);
  assert.equal(r.code, 0, r.stderr);
  const { mcp, hooks } = readPlugin(dir);
  /** @type {any} */
  const pre = hooks.hooks.PreToolUse[0].hooks[0];
  assert.deepEqual([pre.type, pre.server, pre.tool, pre.onFailure, pre.input.fail_closed], ['mcp_tool', 'plugin:zot-extensions:zot', 'zot_agent_hook', 'block', true]);
  // Claude Code's matcher, a JavaScript regular expression there: every tool but those of the plugin's own server, which guards them itself.
  const matcher = new RegExp(hooks.hooks.PreToolUse[0].matcher ?? '', 'u');
  assert.deepEqual(['Bash', 'Write', 'mcp__github__create_issue', 'mcp__plugin_zot-extensions_zotx__echo', 'mcp__plugin_other_zot__echo', 'mcp__plugin_zot-extensions_zot__echo_upper', 'mcp__plugin_zot-extensions_zot__zot_agent_hook'].filter((n) => matcher.test(n)),
    ['Bash', 'Write', 'mcp__github__create_issue', 'mcp__plugin_zot-extensions_zotx__echo', 'mcp__plugin_other_zot__echo']);
  /** @param {Record<string, string>} env */
  const connect = async (env) => {
    const server = mcp.mcpServers.zot;
    const client = new Client({ name: 'guard-tool-test', version: '1.0.0' });
    await client.connect(new StdioClientTransport({ command: server.command, args: server.args, env, stderr: 'pipe' }));
    t.after(() => client.close());
    return client;
  };
  const client = await connect({ PATH: process.env.PATH ?? '', ...mcp.mcpServers.zot.env });
  assert.ok((await client.listTools()).tools.some((/** @type {{ name: string }} */ x) => x.name === 'zot_agent_hook'));
  // As Claude Code fills the hook's input: each field interpolated, the tool input as its JSON text.
  /** @param {Record<string, unknown>} args */
  const ask = async (args) => {
    const res = await client.callTool({ name: 'zot_agent_hook', arguments: args });
    return { isError: res.isError === true, text: /** @type {{ text: string }[]} */ (res.content)[0].text };
  };
  const denied = await ask({ ...pre.input, hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: JSON.stringify({ command: 'rm -rf build' }), tool_use_id: 'toolu_1', session_id: 's', cwd: process.cwd() });
  assert.deepEqual(JSON.parse(denied.text), { hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'refusing to run rm -rf (rm -rf build)' } });
  assert.deepEqual(JSON.parse((await ask({ hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: '{"command":"ls"}', cwd: process.cwd() })).text), {});
  assert.deepEqual(JSON.parse((await ask({ hook_event_name: 'UserPromptSubmit', prompt: 'do the forbidden thing', cwd: process.cwd() })).text), { decision: 'block', reason: 'this prompt asks for something forbidden' });
  // Input it cannot read is an error result, saying why: the harness then blocks (onFailure) or goes on.
  const unread = await ask({ hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: '{not json' });
  assert.equal(unread.isError, true);
  assert.match(unread.text, /^zot_agent_hook: tool_input is not JSON \(/);
  assert.match((await ask({ hook_event_name: 'Nope' })).text, /^zot_agent_hook: hook_event_name must name a hook event, got "Nope"$/);
  // A server not asked to serve it (an editor's, zot-host mcp by hand) lists no guard tool and answers none.
  const plain = await connect({ PATH: process.env.PATH ?? '' });
  assert.ok(!(await plain.listTools()).tools.some((/** @type {{ name: string }} */ x) => x.name === 'zot_agent_hook'));
  const refused = await runCli(['plugin', path.join(tmpdir('zot-plugin-'), 'c'), '--home', home, '--format', 'copilot', '--guard-hook', 'mcp']);
  assert.equal(refused.code, 1);
  assert.match(refused.stderr, /mcp_tool hooks are Claude Code's and Codex's: format copilot takes only command hooks/);
});

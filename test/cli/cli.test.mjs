import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { alive, CLI, COMPAT, makeExt, tmpdir, waitFor } from '../helpers.mjs';

/**
 * Runs zot-host; resolves with its exit code and output.
 * @param {string[]} args
 * @param {{ input?: string, env?: Record<string, string>, onSpawn?: (child: import('node:child_process').ChildProcessWithoutNullStreams, stderr: () => string) => void }} [options]
 * @returns {Promise<{ code: number | null, stdout: string, stderr: string }>}
 */
function run(args, { input, env, onSpawn } = {}) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, ...args], { env: { ...process.env, ZOT_HOME: env?.ZOT_HOME ?? tmpdir('zot-home-'), ...env }, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    if (input !== undefined) child.stdin.end(input);
    else child.stdin.end();
    onSpawn?.(child, () => stderr);
  });
}

/**
 * What zot-host prints with --json, as these tests read it: doctor's report, a tool's outcome, a command's response.
 * @typedef {{
 *   extensions: Omit<import('../../out/types/host/index.js').ExtensionReport, 'pid'>[],
 *   outcome: string, is_error: boolean, content: import('../../out/types/protocol/index.js').TextBlock[], message: string,
 *   action: string, open_panel: { id: string },
 * }} CliJson
 */
/** @type {(r: { stdout: string }) => CliJson} */
const json = (r) => JSON.parse(r.stdout);

test('usage errors exit 2 and say what is wrong', async () => {
  for (const [args, re] of /** @type {[string[], RegExp][]} */ ([
    [[], /no command given/],
    [['fly'], /unknown command "fly"/],
    [['tool'], /tool needs a name/],
    [['tool', 'x', '[1]'], /must be a JSON object/],
    [['tool', 'x', '{bad'], /not valid JSON/],
    [['tool', 'x', '@/no/such/file'], /cannot read tool arguments from \/no\/such\/file/],
    [['doctor', '--timeout', 'soon'], /--timeout takes a whole number/],
    [['doctor', '--bogus'], /unknown option --bogus/],
    [['doctor', '--ext'], /--ext needs a value/],
  ])) {
    const r = await run(args);
    assert.equal(r.code, 2, args.join(' '));
    assert.match(r.stderr, re, args.join(' '));
  }
  const help = await run(['--help']);
  assert.equal(help.code, 0);
  assert.match(help.stdout, /zot-host doctor/);
});

test('doctor --json lists every folder found, bad manifests as failed entries named after their folder', async () => {
  const home = tmpdir('zot-home-');
  const project = tmpdir('zot-proj-');
  const g = path.join(home, 'extensions');
  makeExt(g, 'good', { commands: [{ name: 'hi', description: 'say hi' }], tools: [{ name: 'ask', interactive: true, description: 'ask' }], subscribe: { events: ['turn_end'], intercept: ['tool_call'] }, caps: ['tools', 'tool_cancel'] });
  fs.mkdirSync(path.join(g, 'broken'));
  fs.writeFileSync(path.join(g, 'broken', 'extension.json'), '{"name": ');
  makeExt(path.join(project, '.zot', 'extensions'), 'off', {}, { enabled: false });
  const r = await run(['doctor', '--json', '--cwd', project], { env: { ZOT_HOME: home } });
  assert.equal(r.code, 1, 'a failed extension makes doctor exit 1');
  const { extensions } = json(r);
  assert.deepEqual(extensions.map((e) => [e.name, e.state]), [['off', 'disabled'], ['broken', 'failed'], ['good', 'ready']]);
  const good = extensions[2];
  for (const k of ['name', 'version', 'dir', 'log', 'state', 'capabilities', 'commands', 'tools', 'subscriptions', 'diagnostics', 'error']) assert.ok(k in good, k);
  assert.deepEqual(good.commands, [{ name: 'hi', description: 'say hi', active: true }]);
  assert.deepEqual(good.tools, [{ name: 'ask', description: 'ask', active: true, interactive: true }]);
  assert.deepEqual(good.subscriptions, { events: ['turn_end'], intercept: ['tool_call'] });
  assert.equal(good.log, path.join(home, 'logs', 'ext-good.log'));
  assert.equal(good.error, null);
  assert.ok(extensions[1].error, 'the broken one has an error');
  assert.match(extensions[1].error, /extension\.json is not valid JSON/);
  const text = await run(['doctor', '--cwd', project], { env: { ZOT_HOME: home } });
  assert.match(text.stdout, /good 1\.2\.3: ready/);
  assert.match(text.stdout, /tool ask \[interactive\] - ask/);
  assert.match(text.stdout, /broken: failed\n.*\n.*\n  error: .*not valid JSON/);
});

test('tool: args inline, from a file and from stdin; exit status by outcome', async () => {
  const ext = makeExt(tmpdir(), 'cli-tools', { tools: [{ name: 'echo' }, { name: 'fail', behaviour: 'error' }, { name: 'slow', behaviour: 'hang' }, { name: 'ask', interactive: true }] });
  const base = ['--no-discover', '--ext', ext, '--json'];
  const inline = await run(['tool', 'echo', '{"a":1}', ...base]);
  assert.equal(inline.code, 0);
  assert.deepEqual(json(inline), { outcome: 'completed', extension: 'cli-tools', is_error: false, content: [{ type: 'text', text: '{"a":1}' }], message: '' });
  const file = path.join(tmpdir(), 'args.json');
  fs.writeFileSync(file, '{"from":"file"}');
  assert.equal(json(await run(['tool', 'echo', `@${file}`, ...base])).content[0].text, '{"from":"file"}');
  assert.equal(json(await run(['tool', 'echo', '-', ...base], { input: '{"from":"stdin"}' })).content[0].text, '{"from":"stdin"}');
  assert.equal(json(await run(['tool', 'echo', ...base])).content[0].text, '{}');
  const fail = await run(['tool', 'fail', ...base]);
  assert.equal(fail.code, 1);
  assert.equal(json(fail).is_error, true);
  const slow = await run(['tool', 'slow', ...base, '--timeout', '200']);
  assert.equal(slow.code, 1);
  assert.equal(json(slow).outcome, 'timed_out');
  const ask = await run(['tool', 'ask', ...base]);
  assert.deepEqual([ask.code, json(ask).outcome, json(ask).message], [1, 'not_run', 'interactive extension tools require an interactive host']);
  const text = await run(['tool', 'echo', '{"b":2}', '--no-discover', '--ext', ext]);
  assert.equal(text.stdout, '{"b":2}\n');
  const missing = await run(['tool', 'nope', '--no-discover', '--ext', ext]);
  assert.match(missing.stderr, /nope: not run: no running extension provides the tool "nope"/);
});

test('command: the response as JSON, or the outcome when there was none', async () => {
  const ext = makeExt(tmpdir(), 'cli-cmds', { commands: [{ name: 'greet' }, { name: 'bad', reply: { action: 'noop', error: 'nope' } }, { name: 'slow', hang: true }] });
  const base = ['--no-discover', '--ext', ext];
  const r = await run(['command', 'greet', 'dear', 'world', ...base, '--json']);
  assert.equal(r.code, 0);
  assert.deepEqual(json(r), { action: 'display', display: 'ran greet with "dear world"' });
  const bad = await run(['command', 'bad', ...base, '--json']);
  assert.equal(bad.code, 1);
  assert.deepEqual(json(bad), { action: 'noop', error: 'nope' });
  const slow = await run(['command', 'slow', ...base, '--json', '--timeout', '150']);
  assert.equal(slow.code, 1);
  assert.equal(json(slow).outcome, 'timed_out');
  const text = await run(['command', '/greet', 'x', ...base]);
  assert.equal(text.stdout, 'ran greet with "x"\n');
});

test('Ctrl-C while a call is pending cancels it with tool_cancel, prints the outcome, exits 130, and leaves nothing running', async () => {
  const home = tmpdir('zot-home-');
  const ext = makeExt(tmpdir(), 'sigint', { caps: ['tools', 'tool_cancel'], tools: [{ name: 'work', behaviour: 'cancellable' }] });
  const r = await run(['tool', 'work', '--no-discover', '--ext', ext, '--json'], {
    env: { ZOT_HOME: home },
    onSpawn: async (child) => {
      const log = path.join(home, 'logs', 'ext-sigint.log');
      await waitFor('call delivered', () => fs.existsSync(log) && fs.readFileSync(log, 'utf8').includes('"type":"tool_call"'));
      child.kill('SIGINT');
    },
  });
  assert.equal(r.code, 130);
  assert.equal(json(r).outcome, 'canceled');
  const log = fs.readFileSync(path.join(home, 'logs', 'ext-sigint.log'), 'utf8');
  assert.match(log, /RECV \{"type":"tool_cancel","id":"\d+"\}/);
  assert.match(log, /CANCELLED \d+/);
  const extPid = Number(/process (\d+) exited/.exec(log)?.[1]);
  assert.ok(extPid > 0);
  assert.equal(alive(extPid), false);
});

test("zot's own example shapes work unchanged through zot-host", async () => {
  const exts = ['node-nosdk', 'python-quickstart', 'subscriber', 'panel', 'sh-minimal'].flatMap((n) => ['--ext', path.join(COMPAT, n)]);
  const base = ['--no-discover', ...exts];
  const doctor = json(await run(['doctor', '--json', ...base]));
  assert.deepEqual(doctor.extensions.map((e) => [e.name, e.state]), [
    ['node-nosdk', 'auto_ready'], ['python-quickstart', 'ready'], ['subscriber', 'ready'], ['panel', 'ready'], ['sh-minimal', 'ready'],
  ]);
  assert.equal(json(await run(['tool', 'echo_upper', '{"text":"zot"}', ...base, '--json'])).content[0].text, 'ZOT');
  assert.equal(json(await run(['tool', 'py_add', '{"a":2,"b":3.5}', ...base, '--json'])).content[0].text, '5.5');
  assert.deepEqual(json(await run(['command', 'pyhello', ...base, '--json'])), { action: 'display', display: 'Hello from Python!' });
  assert.deepEqual(json(await run(['command', 'shping', ...base, '--json'])), { action: 'display', display: 'pong' });
  assert.deepEqual(json(await run(['command', 'shout', 'hey', ...base, '--json'])), { action: 'display', display: 'HEY' });
  const panel = json(await run(['command', 'todo', ...base, '--json']));
  assert.equal(panel.action, 'open_panel');
  assert.equal(panel.open_panel.id, 'todos-main');
  const blocked = await run(['tool', 'danger', ...base, '--json']);
  assert.equal(json(blocked).message, 'blocked by extension "subscriber": danger is not allowed');
  assert.equal(json(await run(['tool', 'todo_add', '{"text":"milk"}', ...base, '--json'])).content[0].text, 'added: milk');
});

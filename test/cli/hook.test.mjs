// zot-host hook <Event>: an agent hook's input on stdin, zot's events and
// intercepts for it (run by a real guard extension in Python, written from
// zot's documentation), the hook's answer on stdout. Inputs are the exact
// shapes VS Code's agent and Claude Code send.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { createRequire } from 'node:module';
import { builtinsLoadedBy, CLI, COMPAT, HOOK_JS, lib, makeExt, ROOT, runCli, startHost, tmpdir, waitFor } from '../helpers.mjs';

const require = createRequire(import.meta.url);
/** @type {typeof import('../../out/types/mcp/transport/http.js')} */
const { startMcpHttpServer } = require(path.join(ROOT, 'dist', 'mcp.js'));
const GUARD = path.join(COMPAT, 'guard');

/**
 * The hook's answer on stdout, as these tests read it (an answer carries only some of these): VS Code's and
 * Claude Code's shape, or Copilot CLI's decision at the top level.
 * @typedef {{
 *   hookSpecificOutput: { hookEventName: string, permissionDecision: string, permissionDecisionReason: string },
 *   systemMessage: string, decision: string, reason: string, permissionDecision: string, permissionDecisionReason: string,
 * }} HookAnswer
 */
/** @typedef {{ type: string, event: string, tool_name?: string, text?: string, stop?: string, tool_args?: { command?: string } }} GuardFrame A frame the guard logged. */

/**
 * Runs `zot-host hook <event>` with `input` on stdin (a string as it is, anything else as JSON).
 * @param {string} event
 * @param {unknown} input
 * @param {{ args?: string[], home?: string, exts?: string[], env?: Record<string, string>, program?: string }} [options] program: dist/cli.js, or dist/hook.js as the hook commands zot writes run it
 * @returns {Promise<{ code: number | null, stdout: string, stderr: string, home: string, ms: number }>}
 */
function hook(event, input, { args = [], home = tmpdir('zot-home-'), exts = [GUARD], env = {}, program = CLI } = {}) {
  return new Promise((resolve) => {
    const started = Date.now();
    const child = spawn(process.execPath, [program, 'hook', event, '--no-discover', '--home', home, ...exts.flatMap((e) => ['--ext', e]), ...args], { stdio: ['pipe', 'pipe', 'pipe'], env: { ...process.env, ZOT_HOOK_TOKEN: '', ZOT_HOOK_WINDOWS: '', ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (code) => resolve({ code, stdout, stderr, home, ms: Date.now() - started }));
    child.stdin.end(typeof input === 'string' ? input : JSON.stringify(input));
  });
}

/**
 * What the guard received, in order: its log's EVENT and INTERCEPT lines.
 * @param {string} home
 */
function guardSaw(home, name = 'guard') {
  const log = fs.readFileSync(lib.extensionLogPath(home, name), 'utf8');
  return log.split('\n').filter((l) => /^(EVENT|INTERCEPT) /.test(l)).map((l) => {
    const f = /** @type {GuardFrame} */ (JSON.parse(l.slice(l.indexOf(' ') + 1)));
    return [f.type, f.event, f.tool_name ?? f.text ?? f.stop ?? ''];
  });
}

/** @type {(r: { code: number | null, stdout: string, stderr: string }) => HookAnswer} */
const json = (r) => {
  assert.equal(r.code, 0, `exit ${r.code}: ${r.stderr}`);
  const lines = r.stdout.split('\n').filter(Boolean);
  assert.equal(lines.length, 1, `one JSON line on stdout, got:\n${r.stdout}`);
  return JSON.parse(lines[0]);
};

/** VS Code's PreToolUse input for its terminal tool (snake_case, as it sends it). */
/** @type {(command: string, extra?: Record<string, unknown>) => Record<string, unknown>} */
const vscodePre = (command, extra = {}) => ({
  timestamp: '2026-12-02T08:00:00.000Z', hook_event_name: 'PreToolUse', session_id: 's1', transcript_path: '/tmp/t.json',
  tool_name: 'run_in_terminal', tool_input: { command, explanation: 'x', goal: 'y', mode: 'sync', isBackground: false },
  tool_use_id: 'call_1__vscode-7', cwd: process.cwd(), ...extra,
});

test('PreToolUse: a guard blocks rm -rf; the reason is the deny reason, after the tool_call event', async () => {
  const r = await hook('PreToolUse', vscodePre('rm -rf build'));
  assert.deepEqual(json(r), { hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'refusing to run rm -rf (rm -rf build)' } });
  // zot's order: the event with the agent's own args, then the intercept; no session_start of its own. The block ends
  // the call as zot reports a guard's block: a tool_result event that says it never ran.
  assert.deepEqual(guardSaw(r.home), [['event', 'tool_call', 'run_in_terminal'], ['event_intercept', 'tool_call', 'run_in_terminal'], ['event', 'tool_result', 'run_in_terminal']]);
  const blocked = fs.readFileSync(lib.extensionLogPath(r.home, 'guard'), 'utf8').split('\n').filter((l) => l.startsWith('EVENT ')).map((l) => JSON.parse(l.slice(6))).at(-1);
  assert.deepEqual([blocked.status, blocked.executed, blocked.is_error, blocked.result, blocked.session_id, blocked.tool_args.command], ['blocked', false, true, { content: [{ type: 'text', text: 'refusing to run rm -rf (rm -rf build)' }], is_error: true }, 's1', 'rm -rf build']);
  const log = fs.readFileSync(lib.extensionLogPath(r.home, 'guard'), 'utf8');
  assert.match(log, /"tool_id": "call_1__vscode-7"/, 'the agent\'s call id is the event\'s tool_id');
});

test('PreToolUse: an allowed call answers {} (the agent\'s own approval goes on as usual), and an unknown field changes nothing', async () => {
  const r = await hook('PreToolUse', vscodePre('ls -la', { something_new: { a: 1 } }));
  assert.deepEqual(json(r), {});
  assert.equal(r.stderr, '');
});

test('PreToolUse: modified_args become updatedInput, shown to the user (ask), never approved by the guard', async () => {
  const r = await hook('PreToolUse', { hook_event_name: 'PreToolUse', tool_name: 'rewrite', tool_input: { path: 'a' }, tool_use_id: 't2' });
  assert.deepEqual(json(r), { hookSpecificOutput: {
    hookEventName: 'PreToolUse', permissionDecision: 'ask', permissionDecisionReason: 'a zot extension changed the arguments of this call', updatedInput: { path: 'a', dry_run: true },
  } });
});

test('PreToolUse: a guard that does not answer in time allows, as zot does', async () => {
  const r = await hook('PreToolUse', vscodePre('echo slow-guard'));
  assert.deepEqual(json(r), {});
  assert.ok(r.ms >= 5000, `the host waited its intercept bound (5 s), took ${r.ms} ms`);
});

test('PreToolUse: a guard that cannot be started is said in the answer, not passed over', async () => {
  const broken = makeExt(tmpdir(), 'broken-guard', { exitBeforeHello: 3 });
  const r = await hook('PreToolUse', vscodePre('ls'), { exts: [GUARD, broken] });
  const o = json(r);
  assert.match(o.systemMessage, /^zot: extension "broken-guard" could not be started \(exited with code 3 before sending hello; see its log at .*\); if it guards tool calls, it did not run$/);
  assert.equal(o.hookSpecificOutput, undefined, 'the guard that runs allowed it');
});

test('Claude Code\'s shapes: Bash with rm -rf is denied; the same JSON round trip', async () => {
  // As Claude Code's hooks reference documents the PreToolUse input.
  const input = { session_id: 'abc', transcript_path: '/tmp/x.jsonl', cwd: process.cwd(), permission_mode: 'default', hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'rm -rf /tmp/build', description: 'clean' }, tool_use_id: 'toolu_01' };
  const o = json(await hook('PreToolUse', input));
  assert.deepEqual(o, { hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'refusing to run rm -rf (rm -rf /tmp/build)' } });
  // camelCase, as VS Code's documentation shows its examples, reads the same.
  const camel = json(await hook('PreToolUse', { hookEventName: 'PreToolUse', toolName: 'Bash', toolInput: { command: 'rm -rf x' } }));
  assert.equal(camel.hookSpecificOutput.permissionDecision, 'deny');
});

test('Copilot CLI\'s shapes: toolArgs as a JSON string, the decision at the top level, a rewrite refused with the args the guard wants', async () => {
  // As Copilot CLI's hooks reference documents preToolUse: no event name, a numeric timestamp, toolArgs a string.
  /** @type {(toolName: string, args: Record<string, unknown>) => Record<string, unknown>} */
  const pre = (toolName, args) => ({ timestamp: 1764662400000, cwd: process.cwd(), toolName, toolArgs: JSON.stringify(args) });
  const denied = await hook('preToolUse', pre('bash', { command: 'rm -rf dist', description: 'clean' }));
  assert.deepEqual(json(denied), { permissionDecision: 'deny', permissionDecisionReason: 'refusing to run rm -rf (rm -rf dist)' });
  assert.deepEqual(guardSaw(denied.home), [['event', 'tool_call', 'bash'], ['event_intercept', 'tool_call', 'bash'], ['event', 'tool_result', 'bash']]);
  assert.deepEqual(json(await hook('preToolUse', pre('bash', { command: 'ls' }))), {});
  // Copilot CLI 1.0.102 sends toolArgs as the object itself.
  const asObject = await hook('preToolUse', { timestamp: 1764662400000, cwd: process.cwd(), toolName: 'bash', toolArgs: { command: 'rm -rf dist' } });
  assert.deepEqual(json(asObject), { permissionDecision: 'deny', permissionDecisionReason: 'refusing to run rm -rf (rm -rf dist)' });
  // Copilot CLI applies no changed args: the call is refused, and the reason carries what the guard wants.
  assert.deepEqual(json(await hook('preToolUse', pre('rewrite', { path: 'a' }))), {
    permissionDecision: 'deny',
    permissionDecisionReason: 'a zot extension changed the arguments of this call to {"path":"a","dry_run":true}; this agent cannot run a changed call, so call the tool again with those arguments',
  });
  // Its input under VS Code's spelling of the event reads the same (the hook is named in the file, the shape says whose input it is).
  assert.equal(json(await hook('PreToolUse', pre('bash', { command: 'rm -rf x' }))).permissionDecision, 'deny');
  // postToolUse: toolResult's text and resultType are the tool_result event's content and is_error.
  const post = await hook('postToolUse', { ...pre('bash', { command: 'false' }), toolResult: { resultType: 'failure', textResultForLlm: 'exit 1' } });
  assert.deepEqual(json(post), {});
  const log = fs.readFileSync(lib.extensionLogPath(post.home, 'guard'), 'utf8');
  // zot's fields (status, executed, result) and terva's (text, is_error), as for every other call's ending.
  assert.match(log, /EVENT .*"executed": true, "is_error": true, "result": \{"content": \[\{"text": "exit 1", "type": "text"\}\], "is_error": true\}.*"status": "failed", "text": "exit 1", "tool_args": \{"command": "false"\}.*"tool_name": "bash"/);
  // userPromptSubmitted is UserPromptSubmit; sessionStart is SessionStart.
  assert.deepEqual(json(await hook('userPromptSubmitted', { timestamp: 1764662400000, cwd: process.cwd(), prompt: 'list files' })), {});
  const start = await hook('sessionStart', { timestamp: 1764662400000, cwd: process.cwd(), source: 'new', initialPrompt: 'hi' });
  assert.deepEqual(json(start), {});
  assert.deepEqual(guardSaw(start.home), [['event', 'session_start', '']]);
  // toolArgs that is not a JSON string fails closed, like any unreadable input.
  for (const [toolArgs, message] of /** @type {[unknown, RegExp][]} */ ([['{"command": ', /"toolArgs" is not valid JSON: /], ['[1]', /"toolArgs" must hold a JSON object in PreToolUse input, not an array/], [42, /"toolArgs" must be a JSON object, or a string of one, in PreToolUse input, not a number/], [[1], /"toolArgs" must be a JSON object, or a string of one, in PreToolUse input, not an array/]])) {
    const r = await hook('preToolUse', { timestamp: 1, toolName: 'bash', toolArgs });
    assert.equal(r.code, 2, r.stderr);
    assert.equal(r.stdout, '');
    assert.match(r.stderr, message);
  }
});

test('a zot tool the agent calls through zot\'s MCP server is not intercepted by the hook (the MCP path does it, once)', async () => {
  const tools = makeExt(tmpdir(), 'tools-ext', { tools: [{ name: 'rewrite', behaviour: 'echo' }] });
  // VS Code: the server's label "zot: tools-ext" cut to 13 characters; the single server of zot-host mcp; Claude Code and Codex
  // (a server named zot); the agent plugin's server in Claude Code and in Copilot CLI.
  for (const name of ['mcp_zot_tools-ext_rewrite', 'mcp_zot_extension_rewrite', 'mcp__zot__rewrite', 'mcp__plugin_zot-extensions_zot__rewrite', 'zot-rewrite']) {
    const r = await hook('PreToolUse', { hook_event_name: 'PreToolUse', tool_name: name, tool_input: { command: 'rm -rf /' } }, { exts: [GUARD, tools] });
    assert.deepEqual(json(r), {}, name);
    assert.deepEqual(guardSaw(r.home), [], `${name}: the guard was not asked`);
  }
  // Copilot CLI's own input (camelCase) for the plugin's server; and PostToolUse of a zot tool is not a second tool_result (the MCP path sent one).
  const copilot = await hook('preToolUse', { timestamp: 1764662400000, cwd: process.cwd(), toolName: 'zot-rewrite', toolArgs: '{"command":"rm -rf /"}' }, { exts: [GUARD, tools] });
  assert.deepEqual(json(copilot), {});
  assert.deepEqual(guardSaw(copilot.home), []);
  for (const name of ['mcp__plugin_zot-extensions_zot__rewrite', 'zot-rewrite']) {
    const post = await hook('PostToolUse', { hook_event_name: 'PostToolUse', tool_name: name, tool_input: {}, tool_response: 'done' }, { exts: [GUARD, tools] });
    assert.deepEqual(json(post), {});
    assert.deepEqual(guardSaw(post.home), [], `${name}: no tool_result from the hook`);
  }
  // Another server's tool of the same name, and a zot-named server's tool zot does not serve, are intercepted.
  for (const name of ['mcp_github_rewrite', 'mcp_zot_extensions_unknown']) {
    const r = await hook('PreToolUse', { hook_event_name: 'PreToolUse', tool_name: name, tool_input: { command: 'rm -rf /' } }, { exts: [GUARD, tools] });
    assert.equal(json(r).hookSpecificOutput?.permissionDecision, 'deny', name);
  }
});

test('PostToolUse is the tool_result event; SessionStart is session_start; Stop is turn_end "end"; each answers {}', async () => {
  const post = await hook('PostToolUse', { hook_event_name: 'PostToolUse', tool_name: 'run_in_terminal', tool_input: { command: 'ls' }, tool_use_id: 'c9', tool_response: 'a\nb' });
  assert.deepEqual(json(post), {});
  assert.deepEqual(guardSaw(post.home), [['event', 'tool_result', 'run_in_terminal']]);
  const log = fs.readFileSync(lib.extensionLogPath(post.home, 'guard'), 'utf8');
  assert.match(log, /EVENT .*"executed": true, "result": \{"content": \[\{"text": "a\\nb", "type": "text"\}\], "is_error": false\}.*"status": "completed", "text": "a\\nb".*"tool_id": "c9"/);
  const start = await hook('SessionStart', { hook_event_name: 'SessionStart', source: 'new', model: 'fake' });
  assert.deepEqual(json(start), {});
  assert.deepEqual(guardSaw(start.home), [['event', 'session_start', '']]);
  const stop = await hook('Stop', { hook_event_name: 'Stop', stop_hook_active: false });
  assert.deepEqual(json(stop), {});
  assert.deepEqual(guardSaw(stop.home), [['event', 'turn_end', 'end']]);
});

test('UserPromptSubmit is the user_message intercept (zot\'s before_agent_start cannot block): a block stops the prompt with its reason', async () => {
  const blocked = await hook('UserPromptSubmit', { hook_event_name: 'UserPromptSubmit', prompt: 'do the forbidden thing' });
  assert.deepEqual(json(blocked), { decision: 'block', reason: 'this prompt asks for something forbidden' });
  const fine = await hook('UserPromptSubmit', { hook_event_name: 'UserPromptSubmit', prompt: 'list files' });
  assert.deepEqual(json(fine), {});
});

test('malformed input: a clear error and a non-zero exit; a guarded event fails closed (2), the others report (1)', async () => {
  const cases = [
    ['PreToolUse', '{"tool_name": "Bash", ', 2, /^zot-host hook PreToolUse: the hook input is not valid JSON: /],
    ['PreToolUse', '[1]', 2, /the hook input must be a JSON object, not an array$/],
    ['PreToolUse', '', 2, /no hook input on stdin/],
    ['PreToolUse', { tool_input: { command: 'rm -rf /' } }, 2, /"tool_name" must be a non-empty string in PreToolUse input$/],
    ['PreToolUse', { tool_name: 'Bash', tool_input: 'rm -rf /' }, 2, /"tool_input" must be a JSON object in PreToolUse input, not a string$/],
    ['PreToolUse', { hook_event_name: 'PostToolUse', tool_name: 'Bash' }, 2, /the hook input is for "PostToolUse", but this hook was called for PreToolUse/],
    ['UserPromptSubmit', { prompt: 42 }, 2, /"prompt" must be a string in UserPromptSubmit input/],
    ['PostToolUse', 'nope', 1, /not valid JSON/],
    ['Stop', 'null', 1, /must be a JSON object, not null/],
  ];
  for (const [event, input, code, message] of /** @type {[string, unknown, number, RegExp][]} */ (cases)) {
    const r = await hook(event, input);
    assert.equal(r.code, code, `${event} ${JSON.stringify(input)}: ${r.stderr}`);
    assert.equal(r.stdout, '', 'nothing on stdout: no answer that could read as an allow');
    assert.match(r.stderr.trim(), message);
    assert.doesNotMatch(r.stderr, /\n\s+at /, 'no stack trace');
  }
  const deep = await hook('PreToolUse', `{"tool_name":"Bash","tool_input":${'['.repeat(100)}${']'.repeat(100)}}`);
  assert.equal(deep.code, 2);
  assert.match(deep.stderr, /nested deeper than 63 levels/);
});

test('usage: hook needs one known event and takes its input only from stdin; dist/hook.js says so as zot-host does, and runs any other verb as zot-host', async () => {
  const run = (/** @type {string} */ program, /** @type {string[]} */ argv) => runCli(argv, { program });
  for (const [argv, message] of /** @type {[string[], RegExp][]} */ ([
    [['hook'], /hook needs the event: PreToolUse, PostToolUse, SessionStart, UserPromptSubmit, Stop/],
    [['hook', 'pretooluse'], /hook takes PreToolUse, PostToolUse, SessionStart, UserPromptSubmit, Stop \(or Copilot CLI's preToolUse, postToolUse, sessionStart, userPromptSubmitted\), got "pretooluse"/],
    [['hook', 'Stop', 'extra'], /hook takes one event \(got "extra" too\)/],
    [['hook', 'Stop', '--json'], /--json is not an option of hook/],
  ])) {
    for (const program of [CLI, HOOK_JS]) {
      const r = await run(program, argv);
      assert.equal(r.code, 2, `${path.basename(program)} ${argv.join(' ')}`);
      assert.match(r.stderr, message);
    }
  }
  const help = await run(HOOK_JS, ['--help']);
  assert.equal(help.code, 0);
  assert.equal(help.stdout, (await run(CLI, ['--help'])).stdout);
  const doctor = await run(HOOK_JS, ['doctor', '--no-discover', '--home', tmpdir('zot-home-'), '--json']);
  assert.equal(doctor.code, 0, doctor.stderr);
  assert.deepEqual(JSON.parse(doctor.stdout).extensions, []);
});

/**
 * An editor's side: a host running the guard, its loopback server answering hooks, and the windows folder (with the token) listing it for `folders`.
 * @param {import('node:test').TestContext} t
 * @param {string[]} folders
 */
async function editorWindow(t, folders) {
  const host = await startHost(t, [GUARD], { timing: { helloTimeoutMs: 10_000 } });
  const server = await startMcpHttpServer(host);
  t.after(() => server.close());
  const token = 'k'.repeat(43);
  server.setHookToken(token);
  const windows = tmpdir('zot-hook-windows-');
  fs.writeFileSync(path.join(windows, 'token'), token, { mode: 0o600 });
  fs.writeFileSync(path.join(windows, `${process.pid}.json`), JSON.stringify({ pid: process.pid, url: new URL(server.url).origin, folders }));
  return { host, server, token, windows, env: { ZOT_HOOK_WINDOWS: windows } };
}

test('with an editor window that has the project open, the window\'s running guards answer (the hook starts none)', async (t) => {
  const project = tmpdir('zot-hook-project-');
  const w = await editorWindow(t, [project]);
  // No extension of its own: a deny can only come from the window.
  const r = await hook('PreToolUse', vscodePre('rm -rf build', { cwd: path.join(project, 'sub') }), { exts: [], env: w.env });
  assert.deepEqual(json(r), { hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'refusing to run rm -rf (rm -rf build)' } });
  // The block's tool_result event follows the answer: its line in the guard's log may come a moment later.
  const heard = () => w.host.stderrOf('guard').filter((l) => /^(EVENT|INTERCEPT) /.test(l)).map((l) => /** @type {GuardFrame} */ (JSON.parse(l.slice(l.indexOf(' ') + 1))));
  const seen = await waitFor('the guard\'s log of the call', () => heard().length >= 3 && heard());
  assert.deepEqual(seen.map((f) => [f.type, f.event, f.tool_args?.command]), [['event', 'tool_call', 'rm -rf build'], ['event_intercept', 'tool_call', 'rm -rf build'], ['event', 'tool_result', 'rm -rf build']], 'the window\'s guard was asked');
  // A project no window has open: the hook runs on its own (here without guards: allowed).
  const other = await hook('PreToolUse', vscodePre('rm -rf build', { cwd: tmpdir('zot-hook-elsewhere-') }), { exts: [], env: w.env });
  assert.deepEqual(json(other), {});
  // Answered by the window, the hook loads no more than it needs to ask it: no process side of the host,
  // and run as the hook commands run it (dist/hook.js), none of dist/cli.js.
  for (const program of [CLI, HOOK_JS]) {
    const watched = builtinsLoadedBy();
    const asked = await hook('PreToolUse', vscodePre('ls', { cwd: project }), { exts: [], env: { ...w.env, ...watched.env }, program });
    assert.deepEqual(json(asked), {});
    assert.ok(watched.loaded().has('http') && !watched.loaded().has('child_process'), 'asks over HTTP, starts nothing');
    assert.deepEqual(watched.bundles(), [path.basename(program)]);
    const alone = builtinsLoadedBy();
    const own = await hook('PreToolUse', vscodePre('rm -rf build', { cwd: tmpdir('zot-hook-elsewhere-') }), { env: { ...w.env, ...alone.env }, program });
    assert.equal(json(own).hookSpecificOutput.permissionDecision, 'deny', 'its own guard answered');
    assert.ok(alone.loaded().has('child_process'), 'with no window for the project, it starts its guard');
    assert.deepEqual(alone.bundles(), program === HOOK_JS ? ['cli.js', 'hook.js'] : ['cli.js'], 'dist/hook.js goes on in dist/cli.js');
  }
});

test('a window that cannot be reached, or refuses the token, is said in the answer; the hook then runs its own guards', async (t) => {
  const project = tmpdir('zot-hook-project-');
  const w = await editorWindow(t, [project]);
  // The hook proves another token than the window's: the window refuses, with no proof of its own.
  fs.writeFileSync(path.join(w.windows, 'token'), 'x'.repeat(43), { mode: 0o600 });
  const wrong = await hook('PreToolUse', vscodePre('rm -rf build', { cwd: project }), { env: w.env });
  const o = json(wrong);
  assert.equal(o.hookSpecificOutput.permissionDecision, 'deny', 'its own guard still ran');
  assert.match(o.systemMessage, new RegExp(`^zot: the VS Code window for ${project.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')} did not answer as that window \\(no proof of the hook token: HTTP 401 unauthorized: the request does not prove the hook token\\); the guards ran without it, and its project's guards did not run$`));
  await w.server.close();
  const gone = json(await hook('PreToolUse', vscodePre('ls', { cwd: project }), { env: w.env }));
  assert.match(gone.systemMessage, /^zot: the VS Code window for .* could not be reached \(.*\); the guards ran without it, and its project's guards did not run$/);
});

test('--no-project: a project\'s own guard runs for the project the input names, and never with --no-project (as the editor installs the hook)', async () => {
  const project = tmpdir('zot-hook-proj-');
  fs.cpSync(GUARD, path.join(project, '.zot', 'extensions', 'guard'), { recursive: true });
  const input = vscodePre('rm -rf build', { cwd: project });
  // Discovery on (no --no-discover): the project's .zot/extensions is found from the input's cwd.
  /** @type {(args: string[]) => Promise<{ code: number | null, stdout: string }>} */
  const run = (args) => new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, 'hook', 'PreToolUse', '--home', tmpdir('zot-home-'), ...args], { stdio: ['pipe', 'pipe', 'pipe'], env: { ...process.env, ZOT_HOOK_TOKEN: '', ZOT_HOOK_WINDOWS: '' } });
    let stdout = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.resume();
    child.on('close', (code) => resolve({ code, stdout }));
    child.stdin.end(JSON.stringify(input));
  });
  const withProject = await run([]);
  assert.equal(/** @type {HookAnswer} */ (JSON.parse(withProject.stdout)).hookSpecificOutput?.permissionDecision, 'deny', 'the project\'s guard ran');
  const without = await run(['--no-project']);
  assert.equal(without.code, 0);
  assert.deepEqual(JSON.parse(without.stdout), {}, 'with --no-project the project\'s code never runs');
});

test('only the exact names of zot\'s own MCP servers skip the hook: another server\'s tool whose name holds "zot" is guarded', async () => {
  const library = makeExt(tmpdir(), 'reference-manager', { tools: [{ name: 'delete_items', behaviour: 'echo' }] });
  /** @param {string} name */
  const input = (name) => ({ hook_event_name: 'PreToolUse', tool_name: name, tool_input: { command: 'rm -rf ~/Zotero' } });
  for (const name of [
    'mcp__zotero__delete_items', // Claude Code: a server named zotero
    'mcp_github_zot_delete_items', // VS Code: the github server's tool zot_delete_items
    'mcp__zot_extensions__delete_items', // Claude Code: a server of another name than zot
    'mcp_zot_reference-manager_delete_items', // the extension's server, but not cut as VS Code cuts its name
    'mcp_zot_guard_delete_items', // the server of an extension that does not hold the tool
    'mcp_zot_extensio2_delete_items', // a second server whose name VS Code cut the same: not known to be zot's
    'mcp__plugin_zot-extensions_zotero__delete_items', // Claude Code: another server of the plugin
    'mcp__plugin_other_zot__delete_items', // Claude Code: a server named zot of another plugin
    'zotero-delete_items', // Copilot CLI: a server named zotero
    'zot_delete_items', // no harness's name for the plugin's server
    'zot-', // Copilot CLI's prefix with no tool
  ]) {
    const r = await hook('PreToolUse', input(name), { exts: [GUARD, library] });
    assert.equal(json(r).hookSpecificOutput?.permissionDecision, 'deny', name);
    assert.deepEqual(guardSaw(r.home), [['event', 'tool_call', name], ['event_intercept', 'tool_call', name], ['event', 'tool_result', name]], `${name}: the guard was asked`);
  }
  // VS Code's names for the one server ("Zot extensions") and the extension's own ("zot: reference-manager", cut to 13 characters); Claude Code's server named zot.
  for (const name of ['mcp_zot_extension_delete_items', 'mcp_zot_reference_delete_items', 'mcp__zot__delete_items']) {
    const r = await hook('PreToolUse', input(name), { exts: [GUARD, library] });
    assert.deepEqual(json(r), {}, name);
    assert.deepEqual(guardSaw(r.home), [], `${name}: zot's own tool, guarded on the MCP path instead`);
  }
});

/**
 * A guard that says hello only after `helloDelayMs`, and then refuses every tool call.
 * @type {(name: string, helloDelayMs: number) => string}
 */
const slowStarter = (name, helloDelayMs) => makeExt(tmpdir(), name, {
  helloDelayMs, subscribe: { intercept: ['tool_call', 'user_message'] },
  interceptReplies: { tool_call: { block: true, reason: `${name} says no` }, user_message: { block: true, reason: `${name} says no` } },
});

test('a guard still starting when the hook must answer is named in the answer; with --fail-closed the call or prompt is refused', async () => {
  const slow = slowStarter('slow-start', 60_000);
  // Each waits out the hook's bound for the guard that never says hello: side by side, each its own home.
  const [open, closed, prompted, copiloted] = await Promise.all([
    hook('PreToolUse', vscodePre('ls'), { exts: [GUARD, slow] }),
    hook('PreToolUse', vscodePre('ls'), { exts: [GUARD, slow], args: ['--fail-closed'] }),
    hook('UserPromptSubmit', { hook_event_name: 'UserPromptSubmit', prompt: 'list files' }, { exts: [GUARD, slow], args: ['--fail-closed'] }),
    hook('preToolUse', { timestamp: 1764662400000, cwd: process.cwd(), toolName: 'bash', toolArgs: '{"command":"ls"}' }, { exts: [GUARD, slow], args: ['--fail-closed'] }),
  ]);
  const o = json(open);
  assert.match(o.systemMessage, /^zot: extension "slow-start" was still starting \(it had not said hello\); if it guards tool calls, it did not run$/);
  assert.equal(o.hookSpecificOutput, undefined, 'without --fail-closed the guard that runs decides');
  assert.ok(open.ms < 12_000, `inside the agent's 15 s, with margin: took ${open.ms} ms`);
  const c = json(closed);
  assert.deepEqual(c.hookSpecificOutput, { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'zot: refused, for not every guard could run (fail-closed): extension "slow-start" was still starting (it had not said hello)' });
  assert.match(c.systemMessage, /"slow-start" was still starting/);
  assert.ok(closed.ms < 12_000, `took ${closed.ms} ms`);
  const prompt = json(prompted);
  assert.equal(prompt.decision, 'block');
  assert.match(prompt.reason, /^zot: refused, for not every guard could run \(fail-closed\): extension "slow-start" was still starting/);
  const copilot = json(copiloted);
  assert.equal(copilot.permissionDecision, 'deny');
  assert.match(copilot.permissionDecisionReason, /extension "slow-start" was still starting/);
});

test('a guard that says hello after the host\'s ready grace, but soon, is waited for and decides', async () => {
  const late = slowStarter('late-start', 4_000);
  const r = await hook('PreToolUse', vscodePre('ls'), { exts: [GUARD, late] });
  assert.deepEqual(json(r), { hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'late-start says no' } });
});

test('--fail-closed: a guard that does not answer in time, or cannot be started, refuses; guards that all ran answer as without it', async () => {
  // The guard that does not answer takes the intercept's 5 s: the calls that follow go on beside it.
  const slowly = hook('PreToolUse', vscodePre('echo slow-guard'), { args: ['--fail-closed'] });
  assert.deepEqual(json(await hook('PreToolUse', vscodePre('ls'), { args: ['--fail-closed'] })), {});
  assert.equal(json(await hook('PreToolUse', vscodePre('rm -rf build'), { args: ['--fail-closed'] })).hookSpecificOutput.permissionDecisionReason, 'refusing to run rm -rf (rm -rf build)');
  assert.deepEqual(json(await hook('UserPromptSubmit', { hook_event_name: 'UserPromptSubmit', prompt: 'list files' }, { args: ['--fail-closed'] })), {});
  const slow = await slowly;
  assert.deepEqual(json(slow).hookSpecificOutput, { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'zot: refused, for not every guard could run (fail-closed): extension "guard" did not answer the tool_call intercept within 5 s' });
  assert.ok(slow.ms < 12_000, `took ${slow.ms} ms`);
  const broken = makeExt(tmpdir(), 'broken-guard', { exitBeforeHello: 3 });
  const prompt = json(await hook('UserPromptSubmit', { hook_event_name: 'UserPromptSubmit', prompt: 'list files' }, { exts: [GUARD, broken], args: ['--fail-closed'] }));
  assert.equal(prompt.decision, 'block');
  assert.match(prompt.reason, /^zot: refused, for not every guard could run \(fail-closed\): extension "broken-guard" could not be started \(exited with code 3 before sending hello/);
  // Events decide nothing: --fail-closed changes nothing there.
  assert.deepEqual(json(await hook('Stop', { hook_event_name: 'Stop' }, { exts: [GUARD, broken], args: ['--fail-closed'] })), {});
  const usage = spawnSync(process.execPath, [CLI, 'doctor', '--fail-closed'], { encoding: 'utf8' });
  assert.equal(usage.status, 2);
  assert.match(usage.stderr, /--fail-closed is an option of hook/);
});

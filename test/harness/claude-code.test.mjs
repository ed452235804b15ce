// zot in Claude Code, for real: Claude Code 2.1.328 from npm (installed into
// the test cache by scripts/harness-env.mjs), driven offline by a scripted
// model on 127.0.0.1 (fake-model.mjs), loads the plugin `zot-host plugin`
// writes (--plugin-dir) with a zot home holding a guard (Python) and a tool
// extension. In one session the model asks for a shell call the guard
// refuses, an allowed one, and the zot tool; then a prompt the guard refuses.
// What each must come to is read where it lands: the file system, the
// model's next request, and the guard's own log of the events it was sent.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fakeAnthropic, toolResults } from './fake-model.mjs';
import { assertGuardedOnce, guardSaw, hookFor, MCP_PROBE, nodeStarts, probeLog, runHarness, scene } from './scene.mjs';
import { ensureHarness, unsupported } from '../../scripts/harness-env.mjs';

/** Claude Code's name for a tool of the plugin's server `zot`. */
const ZOT_TOOL = 'mcp__plugin_zot-extensions_zot__echo_upper';

for (const guardHook of ['command', 'mcp']) {
test(`Claude Code runs zot's plugin with its guards as ${guardHook === 'mcp' ? 'mcp_tool hooks into its own server (no process per call)' : 'command hooks'}: a guard's deny stops a shell call, a zot tool's result reaches the model (guarded once), PostToolUse is a tool_result event, and the prompt guard refuses a prompt`, {
  skip: unsupported('claude-code'), timeout: 600_000,
}, async (t) => {
  const { bin } = await ensureHarness('claude-code');
  const { root, home, project, user, plugin } = scene(`zot-claude-${guardHook}-`, 'claude', ['--guard-hook', guardHook]);
  const starts = nodeStarts(root);
  // The plugin's server logs each tools/call it answers (for the guard tool: the hook and the tool asked about).
  const probe = path.join(root, 'probe.log');
  // The plugin installs no PostToolUse hook (an event decides nothing, and costs a start per call); the project asks for it, as the plugin hooks its guards in.
  const guard = JSON.parse(fs.readFileSync(path.join(plugin, 'hooks', 'hooks.json'), 'utf8')).hooks.PreToolUse[0].hooks[0];
  assert.equal(guard.type, guardHook === 'mcp' ? 'mcp_tool' : 'command');
  const post = guardHook === 'mcp'
    ? { ...guard, input: { hook_event_name: '${hook_event_name}', tool_name: '${tool_name}', tool_input: '${tool_input}', tool_response: '${tool_response}', cwd: '${cwd}' } }
    : { type: 'command', command: hookFor(guard.command, 'PostToolUse'), timeout: 15 };
  fs.mkdirSync(path.join(project, '.claude'));
  fs.writeFileSync(path.join(project, '.claude', 'settings.json'), JSON.stringify({ hooks: { PostToolUse: [{ matcher: '*', hooks: [post] }] } }));

  const written = path.join(project, 'written.txt');
  const denied = `echo denied > ${written}; rm -rf ${path.join(project, 'build')}`;
  const model = await fakeAnthropic([
    { tool: (names) => names.find((n) => n === 'Bash'), input: { command: denied, description: 'write a file, then clean' } },
    { tool: (names) => names.find((n) => n === 'Bash'), input: { command: 'echo allowed-call', description: 'say something' } },
    { tool: (names) => names.find((n) => n === ZOT_TOOL), input: { text: 'from claude code' } },
    { text: 'FINAL: done' },
  ]);
  t.after(() => model.close());
  /** @param {string} prompt */
  const claude = (prompt) => {
    // Only what Claude Code needs, all of it here: no login, no network but the model (HARNESSES.md); IS_SANDBOX lets root skip permissions;
    // ENABLE_TOOL_SEARCH=false offers MCP tools to the model at once (else they are deferred behind ToolSearch).
    const env = {
      PATH: process.env.PATH ?? '', HOME: user, CLAUDE_CONFIG_DIR: path.join(user, '.claude'), ANTHROPIC_BASE_URL: model.url, ANTHROPIC_API_KEY: 'dummy',
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1', IS_SANDBOX: '1', ENABLE_TOOL_SEARCH: 'false', ...starts.env,
      NODE_OPTIONS: `${starts.env.NODE_OPTIONS} --require ${MCP_PROBE}`, ZOT_BENCH_PROBE: probe,
    };
    return runHarness(bin, ['-p', prompt, '--output-format', 'json', '--model', 'claude-sonnet-4-5', '--plugin-dir', plugin, '--dangerously-skip-permissions'], { cwd: project, env });
  };

  const run = await claude('run the script');
  assert.equal(run.code, 0, `${run.stdout}\n${run.stderr}`);
  const result = JSON.parse(run.stdout);
  assert.equal(result.result, 'FINAL: done', run.stdout);
  // The guard's deny stopped the shell call: its file was never written, and the model was told why.
  assert.ok(!fs.existsSync(written), 'the denied command did not run');
  assert.deepEqual(result.permission_denials.map((/** @type {{ tool_name: string }} */ d) => d.tool_name), ['Bash']);
  const asks = model.requests.filter((r) => (r.body.tools ?? []).length > 0);
  assert.equal(asks.length, 4, `four model requests: ${asks.map((r) => r.url)}`);
  // Offered by the request whose answer calls it: with -p, Claude Code connects MCP servers while its first request goes out, which may offer none of their tools.
  assert.ok(asks[2].body.tools?.some((x) => x.name === ZOT_TOOL), 'the plugin\'s tool is offered under Claude Code\'s name for it');
  assert.match(toolResults(asks[1]).get('toolu_fake_1') ?? '', /^PreToolUse:Bash hook error: refusing to run rm -rf \(echo denied > /);
  assert.match(toolResults(asks[2]).get('toolu_fake_2') ?? '', /allowed-call/);
  // The zot tool's result reached the model's next request.
  assert.match(toolResults(asks[3]).get('toolu_fake_3') ?? '', /^FROM CLAUDE CODE/);

  // The zot tool was guarded once, on the MCP path; PostToolUse reached the tool_result event.
  assertGuardedOnce(home, { preShell: 'Bash', postShell: 'Bash', zotName: ZOT_TOOL, zotResult: 'FROM CLAUDE CODE' });
  // mcp_tool hooks start no zot-host hook: the server answered them (it started, and so would a hook command, as the command hooks show).
  const verbs = starts.started().map((a) => a[0]);
  assert.ok(verbs.includes('mcp'), JSON.stringify(verbs));
  const hooks = verbs.filter((v) => v === 'hook').length;
  assert.ok(guardHook === 'mcp' ? hooks === 0 : hooks >= 3, JSON.stringify(verbs));
  // The mcp_tool guard asked about each shell call and never about the plugin's own tool (its matcher leaves it to the server).
  const served = probeLog(probe);
  assert.deepEqual(served.filter((c) => c.hook?.startsWith('PreToolUse:')).map((c) => c.hook), guardHook === 'mcp' ? ['PreToolUse:Bash', 'PreToolUse:Bash'] : []);
  assert.equal(served.filter((c) => c.name === 'echo_upper').length, 1);

  // The prompt guard refuses a prompt: Claude Code says so, and the model never sees it.
  const before = model.requests.length;
  const refused = await claude('do the forbidden thing');
  assert.equal(refused.code, 0, refused.stderr);
  assert.match(JSON.parse(refused.stdout).result, /^UserPromptSubmit operation blocked by hook:\nthis prompt asks for something forbidden/);
  assert.ok(!model.requests.slice(before).some((r) => JSON.stringify(r.body).includes('forbidden thing')), 'the refused prompt never reached the model');
  assert.ok(guardSaw(home).some((f) => f.type === 'event_intercept' && f.event === 'user_message' && f.text === 'do the forbidden thing'));
});
}

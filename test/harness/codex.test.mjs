// zot in Codex CLI, for real: Codex 0.169.0 from npm (installed into the
// test cache by scripts/harness-env.mjs), with no login, its model a scripted
// one on 127.0.0.1 over OpenAI Responses (fake-model.mjs). zot reaches it two
// ways: the marketplace `zot-host plugin --format codex` writes, added as
// Codex adds plugins (`codex plugin marketplace add`, `codex plugin add`); and
// its config.toml naming zot's MCP server and hook commands by hand, as the
// Claude-format plugin writes them. A zot home holds a guard (Python) and a
// tool extension. In one
// session the model asks for a shell call the guard refuses, an allowed one,
// and the zot tool; then a prompt the guard refuses. What each must come to
// is read where it lands: the file system, the model's next request, and the
// guard's own log of the events it was sent.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { callOutputs, fakeResponses } from './fake-model.mjs';
import { assertGuardedOnce, guardSaw, hookFor, nodeStarts, runHarness, scene } from './scene.mjs';
import { ensureHarness, unsupported } from '../../scripts/harness-env.mjs';

/** How Codex offers a tool of the MCP server `zot` (a namespace), and names it to its hooks. */
const ZOT_TOOL = 'mcp__zot.echo_upper';
const HOOK_NAME = 'mcp__zot__echo_upper';

for (const how of ['plugin', 'config']) {
  test(`Codex runs zot's MCP server and hooks ${how === 'plugin' ? 'from the marketplace zot-host writes' : 'from its config.toml'}: a guard's deny stops a shell call, a zot tool's result reaches the model (guarded once), PostToolUse is a tool_result event, and the prompt guard refuses a prompt`, {
    skip: unsupported('codex'), timeout: 600_000,
  }, async (t) => {
    const { bin } = await ensureHarness('codex');
    const { root, home, project, user, plugin: written } = scene(`zot-codex-${how}-`, how === 'plugin' ? 'codex' : 'claude');
    const starts = nodeStarts(root);
    const plugin = how === 'plugin' ? path.join(written, 'zot-extensions') : written;
    const model = await fakeResponses([
      { tool: (names) => names.find((n) => n === 'exec_command'), input: { cmd: `echo denied > ${path.join(project, 'written.txt')}; rm -rf ${path.join(project, 'build')}` } },
      { tool: (names) => names.find((n) => n === 'exec_command'), input: { cmd: 'echo allowed-call' } },
      { tool: (names) => names.find((n) => n === ZOT_TOOL), input: { text: 'from codex' } },
      { text: 'FINAL: done' },
    ]);
    t.after(() => model.close());
    // The user's config: the fake as its model provider (Responses is the only wire Codex takes); by hand, the plugin's server and hook
    // commands; PostToolUse, which the plugin does not install (an event decides nothing, and costs a start per call), either way.
    const server = JSON.parse(fs.readFileSync(path.join(plugin, '.mcp.json'), 'utf8')).mcpServers.zot;
    const guard = JSON.parse(fs.readFileSync(path.join(plugin, 'hooks', 'hooks.json'), 'utf8')).hooks.PreToolUse[0].hooks[0];
    // The marketplace's plugin hooks its guards in as mcp_tool calls of its server (no process per call); by hand, as commands.
    assert.equal(guard.type, how === 'plugin' ? 'mcp_tool' : 'command');
    const q = JSON.stringify;
    /** @param {string} event */
    const hook = (event) => `[[hooks.${event}]]\n${event.endsWith('ToolUse') ? 'matcher = "*"\n' : ''}[[hooks.${event}.hooks]]\n${guard.type === 'command'
      ? `type = "command"\ncommand = ${q(hookFor(guard.command, event))}\n`
      : `type = "mcp_tool"\nserver = "zot"\ntool = "zot_agent_hook"\ninput = { hook_event_name = "\${hook_event_name}", tool_name = "\${tool_name}", tool_input = "\${tool_input}", tool_response = "\${tool_response}", cwd = "\${cwd}" }\n`}timeout = 15\n`;
    const codexHome = path.join(user, '.codex');
    fs.mkdirSync(codexHome);
    fs.writeFileSync(path.join(codexHome, 'config.toml'), [
      'model = "fake-model"', 'model_provider = "fake"', '[model_providers.fake]', 'name = "Fake"', `base_url = ${q(`${model.url}/v1`)}`, 'wire_api = "responses"',
      'env_key = "FAKE_API_KEY"', 'request_max_retries = 0', 'stream_max_retries = 0', '',
      ...(how === 'config' ? ['[mcp_servers.zot]', `command = ${q(server.command)}`, `args = ${q(server.args)}`, '', hook('PreToolUse'), hook('UserPromptSubmit')] : []),
      hook('PostToolUse'),
    ].join('\n'));
    const env = { PATH: process.env.PATH ?? '', HOME: user, CODEX_HOME: codexHome, FAKE_API_KEY: 'dummy', ...starts.env };
    if (how === 'plugin') {
      for (const args of [['plugin', 'marketplace', 'add', written], ['plugin', 'add', 'zot-extensions@zot']]) {
        const r = await runHarness(process.execPath, [bin, ...args], { cwd: project, env });
        assert.equal(r.code, 0, `codex ${args.join(' ')}: ${r.stdout}\n${r.stderr}`);
      }
    }
    // Hooks the user has not reviewed in Codex's TUI are skipped in silence without --dangerously-bypass-hook-trust (HARNESSES.md).
    /** @param {string} prompt */
    const codex = (prompt) => runHarness(process.execPath, [bin, 'exec', '--skip-git-repo-check', '--json', '--dangerously-bypass-approvals-and-sandbox', '--dangerously-bypass-hook-trust', prompt], { cwd: project, env });

    const run = await codex('run the script');
    assert.equal(run.code, 0, `${run.stdout.slice(-3000)}\n${run.stderr.slice(-3000)}`);
    const items = /** @type {{ type: string, item?: { type: string, text?: string } }[]} */ (run.stdout.split('\n').filter(Boolean).map((l) => JSON.parse(l)));
    assert.equal(items.filter((e) => e.item?.type === 'agent_message').pop()?.item?.text, 'FINAL: done');
    // The guard's deny stopped the shell call: its file was never written, and the model was told why.
    assert.ok(!fs.existsSync(path.join(project, 'written.txt')), 'the denied command did not run');
    const asks = model.requests.filter((r) => (r.body.tools ?? []).length > 0);
    assert.equal(asks.length, 4, `four model requests: ${asks.map((r) => r.url)}`);
    assert.match(callOutputs(asks[1]).get('call_fake_1') ?? '', /^Command blocked by PreToolUse hook: refusing to run rm -rf \(echo denied > /);
    assert.match(callOutputs(asks[2]).get('call_fake_2') ?? '', /allowed-call/);
    // The zot tool's result reached the model's next request.
    assert.match(callOutputs(asks[3]).get('call_fake_3') ?? '', /FROM CODEX/);

    // The zot tool was guarded once, on the MCP path; PostToolUse reached the tool_result event.
    assertGuardedOnce(home, { preShell: 'Bash', postShell: 'Bash', zotName: HOOK_NAME, zotResult: 'FROM CODEX' });
    // The marketplace's mcp_tool hooks start no zot-host hook: its server answered them. The record works where hooks run (Codex itself is
    // in it, and the commands by hand are, one each); Codex gives its MCP servers a clean environment, so the server is not.
    const verbs = starts.started().map((a) => a[0]);
    const hooks = verbs.filter((v) => v === 'hook').length;
    assert.ok(verbs.includes('exec') && (how === 'plugin' ? hooks === 0 : hooks >= 3), JSON.stringify(verbs));

    // The prompt guard refuses a prompt: the model never sees it.
    const before = model.requests.length;
    const refused = await codex('do the forbidden thing');
    assert.equal(refused.code, 0, refused.stderr.slice(-3000));
    assert.equal(model.requests.length, before, 'the refused prompt never reached the model');
    assert.ok(guardSaw(home).some((f) => f.type === 'event_intercept' && f.event === 'user_message' && f.text === 'do the forbidden thing'));
  });
}

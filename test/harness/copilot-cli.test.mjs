// zot in GitHub Copilot CLI, for real: Copilot CLI 1.0.102 from npm
// (installed into the test cache by scripts/harness-env.mjs), with no GitHub
// login, its own model a scripted one on 127.0.0.1 over Anthropic Messages
// (bring-your-own-model, fake-model.mjs). Each plugin format `zot-host
// plugin` writes is installed as Copilot CLI installs plugins (`copilot
// plugin install <dir>`) with a zot home holding a guard (Python) and a tool
// extension. In one session the model asks for a shell call the guard
// refuses, an allowed one, and the zot tool; then a prompt the guard refuses.
// What each must come to is read where it lands: the file system, the
// model's next request, and the guard's own log of the events it was sent.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fakeAnthropic, toolResults } from './fake-model.mjs';
import { execFileSync } from 'node:child_process';
import { assertGuardedOnce, guardSaw, hookFor, interceptsOf, runHarness, scene } from './scene.mjs';
import { CLI } from '../helpers.mjs';
import { ensureHarness, unsupported } from '../../scripts/harness-env.mjs';

/** Copilot CLI's name for a tool of the plugin's server `zot`. */
const ZOT_TOOL = 'zot-echo_upper';

/**
 * The JSONL events of a `--output-format json` run, and the last of a type.
 * @typedef {{ type: string, data?: { content?: string, warningType?: string, message?: string }, exitCode?: number }} CopilotEvent
 * @param {string} stdout
 */
function eventsOf(stdout) {
  const events = /** @type {CopilotEvent[]} */ (stdout.split('\n').filter(Boolean).map((l) => JSON.parse(l)));
  return { events, last: (/** @type {string} */ type) => events.filter((e) => e.type === type).pop() };
}

/** Where each format keeps the hook commands Copilot CLI runs, and the PreToolUse one. */
/** @type {Record<string, (plugin: string) => string>} */
const PRE_TOOL_USE = {
  copilot: (plugin) => JSON.parse(fs.readFileSync(path.join(plugin, 'hooks.json'), 'utf8')).hooks.preToolUse[0].bash,
  'agent-plugins': (plugin) => JSON.parse(fs.readFileSync(path.join(plugin, 'com.github.copilot', 'hooks', 'hooks.json'), 'utf8')).hooks.preToolUse[0].bash,
  claude: (plugin) => JSON.parse(fs.readFileSync(path.join(plugin, 'hooks', 'hooks.json'), 'utf8')).hooks.PreToolUse[0].hooks[0].command,
};
/** @type {Record<string, string>} */
const FORMAT_NAME = { copilot: 'its own', 'agent-plugins': 'the Agent Plugins 1.0', claude: 'Claude\'s' };

for (const format of ['copilot', 'agent-plugins', 'claude']) {
  test(`Copilot CLI runs zot's plugin in ${FORMAT_NAME[format]} format: a guard's deny stops a shell call, a zot tool's result reaches the model (guarded once), postToolUse is a tool_result event, and the prompt guard refuses a prompt`, {
    skip: unsupported('copilot'), timeout: 600_000,
  }, async (t) => {
    const { bin, xdgCache } = await ensureHarness('copilot');
    const { home, project, user, plugin } = scene(`zot-copilot-${format}-`, format);
    const model = await fakeAnthropic([
      { tool: (names) => names.find((n) => n === 'bash'), input: { command: `echo denied > ${path.join(project, 'written.txt')}; rm -rf ${path.join(project, 'build')}`, description: 'write a file, then clean' } },
      { tool: (names) => names.find((n) => n === 'bash'), input: { command: 'echo allowed-call', description: 'say something' } },
      { tool: (names) => names.find((n) => n === ZOT_TOOL), input: { text: 'from copilot' } },
      { text: 'FINAL: done' },
    ]);
    t.after(() => model.close());
    // No login and no network but the model (HARNESSES.md): COPILOT_OFFLINE, and its provider the fake.
    const env = {
      PATH: process.env.PATH ?? '', HOME: user, COPILOT_HOME: path.join(user, '.copilot'), XDG_CACHE_HOME: xdgCache, COPILOT_OFFLINE: 'true',
      COPILOT_PROVIDER_BASE_URL: model.url, COPILOT_PROVIDER_TYPE: 'anthropic', COPILOT_PROVIDER_API_KEY: 'dummy', COPILOT_MODEL: 'claude-sonnet-4-5',
    };
    /** @param {string[]} args */
    const copilot = (args) => runHarness(process.execPath, [bin, ...args], { cwd: project, env });
    const installed = await copilot(['plugin', 'install', plugin]);
    assert.equal(installed.code, 0, installed.stderr);
    assert.match(installed.stdout, /Plugin "zot-extensions" installed successfully/);
    // The plugin installs no postToolUse hook (an event decides nothing, and costs a start per call); the user's settings ask for it, with the plugin's zot-host.
    const pre = PRE_TOOL_USE[format](plugin);
    fs.writeFileSync(path.join(user, '.copilot', 'settings.json'), JSON.stringify({ hooks: { postToolUse: [{ type: 'command', bash: hookFor(pre, 'PostToolUse'), timeoutSec: 15 }] } }));

    const run = await copilot(['-p', 'run the script', '--allow-all-tools', '--no-auto-update', '--output-format', 'json']);
    assert.equal(run.code, 0, `${run.stdout.slice(-3000)}\n${run.stderr}`);
    assert.equal(eventsOf(run.stdout).last('assistant.message')?.data?.content, 'FINAL: done');
    // The guard's deny stopped the shell call: its file was never written, and the model was told why.
    assert.ok(!fs.existsSync(path.join(project, 'written.txt')), 'the denied command did not run');
    const asks = model.requests.filter((r) => (r.body.tools ?? []).length > 0);
    assert.equal(asks.length, 4, `four model requests: ${asks.map((r) => r.url)}`);
    assert.ok(asks[0].body.tools?.some((x) => x.name === ZOT_TOOL), 'the plugin\'s tool is offered under Copilot CLI\'s name for it');
    assert.match(toolResults(asks[1]).get('toolu_fake_1') ?? '', /^Denied by preToolUse hook: refusing to run rm -rf \(echo denied > /);
    assert.match(toolResults(asks[2]).get('toolu_fake_2') ?? '', /^allowed-call\n/);
    // The zot tool's result reached the model's next request.
    assert.equal(toolResults(asks[3]).get('toolu_fake_3'), 'FROM COPILOT');

    // The zot tool was guarded once, on the MCP path; postToolUse (the user's settings: camelCase input) reached the tool_result event.
    // Copilot's own hook shape (its format's and the Agent Plugins one's) names the shell tool as it is (bash); the Claude-compatible one maps it to Bash.
    assertGuardedOnce(home, { preShell: format === 'claude' ? 'Bash' : 'bash', postShell: 'bash', zotName: ZOT_TOOL, zotResult: 'FROM COPILOT' });

    // The prompt guard refuses a prompt: Copilot CLI says so, and the model never sees it.
    const before = model.requests.length;
    const refused = await copilot(['-p', 'do the forbidden thing', '--allow-all-tools', '--no-auto-update', '--output-format', 'json']);
    const said = eventsOf(refused.stdout);
    assert.deepEqual(said.events.filter((e) => e.type === 'session.warning').map((e) => [e.data?.warningType, e.data?.message]), [['policy_blocked', 'this prompt asks for something forbidden']], refused.stdout.slice(-2000));
    assert.equal(said.last('result')?.exitCode, 1);
    assert.equal(model.requests.length, before, 'the refused prompt never reached the model');
  });
}

test('Copilot CLI runs zot\'s server from the entry zot-host plugin --mcp-config adds to its mcp-config.json (no plugin installed): the zot tool\'s result reaches the model, guarded on the MCP path', {
  skip: unsupported('copilot'), timeout: 600_000,
}, async (t) => {
  const { bin, xdgCache } = await ensureHarness('copilot');
  const { home, project, user, root } = scene('zot-copilot-mcp-config-', 'claude');
  const copilotHome = path.join(user, '.copilot');
  const config = path.join(copilotHome, 'mcp-config.json');
  execFileSync(process.execPath, [CLI, 'plugin', path.join(root, 'entry-plugin'), '--home', home, '--mcp-config', config]);
  const model = await fakeAnthropic([
    { tool: (names) => names.find((n) => n === ZOT_TOOL), input: { text: 'from mcp-config' } },
    { text: 'FINAL: done' },
  ]);
  t.after(() => model.close());
  const env = {
    PATH: process.env.PATH ?? '', HOME: user, COPILOT_HOME: copilotHome, XDG_CACHE_HOME: xdgCache, COPILOT_OFFLINE: 'true',
    COPILOT_PROVIDER_BASE_URL: model.url, COPILOT_PROVIDER_TYPE: 'anthropic', COPILOT_PROVIDER_API_KEY: 'dummy', COPILOT_MODEL: 'claude-sonnet-4-5',
  };
  const run = await runHarness(process.execPath, [bin, '-p', 'call zot', '--allow-all-tools', '--no-auto-update', '--output-format', 'json'], { cwd: project, env });
  assert.equal(run.code, 0, `${run.stdout.slice(-3000)}\n${run.stderr}`);
  const asks = model.requests.filter((r) => (r.body.tools ?? []).length > 0);
  assert.equal(asks.length, 2, `two model requests: ${asks.map((r) => r.url)}`);
  assert.equal(toolResults(asks[1]).get('toolu_fake_1'), 'FROM MCP-CONFIG');
  assert.equal(interceptsOf(guardSaw(home), 'echo_upper').length, 1, 'the zot tool was put to the guard on the MCP path');
});

// The Go fixture extension (test/fixtures/go), whose frames are encoded as
// zot's Go SDK encodes them (encoding/json, omitempty), through the host and
// through zot-host: registration, tools, every command action it has, its
// panel, tool_cancel. What zot decides for such frames (docs/PROTOCOL.md 10a) is
// checked in test/fidelity/go.test.mjs.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { lib, RecordingUI, runCli, startHost, tmpdir, waitFor } from '../helpers.mjs';
import { goFixture, goPanelAfterKey, makeGoExt } from '../gofixture.mjs';

const { CancellationTokenSource } = lib;
const go = await goFixture();

/** @param {string[]} args @param {string} home */
const zotHost = (args, home) => runCli(args, { home });

describe('the Go fixture extension', { skip: go.skip }, () => {
  test('registers as a Go SDK extension does: every command and tool, its subscriptions, and no problem', async (t) => {
    assert.ok(go.bin);
    const host = await startHost(t, [makeGoExt(tmpdir(), go.bin)]);
    const [report] = host.diagnostics();
    assert.equal(report.state, 'ready');
    assert.deepEqual(report.capabilities, ['commands', 'tools', 'events', 'panels', 'tool_cancel']);
    assert.deepEqual(report.commands.map((c) => c.name), ['go-prompt', 'go-insert', 'go-display', 'go-panel', 'go-noop', 'go-error', 'go-empty', 'go-blank', 'go-unknown']);
    assert.equal(report.commands.find((c) => c.name === 'go-empty')?.description, '', 'an omitted description is empty');
    assert.deepEqual(report.tools.map((t) => [t.name, t.interactive]), [['go_echo', false], ['go_wait', false], ['go_badimage', false], ['go_noschema', false], ['go_ask', true]]);
    assert.deepEqual(report.subscriptions, { events: ['session_start', 'turn_start', 'tool_call', 'turn_end', 'assistant_message'], intercept: ['tool_call'] });
    assert.deepEqual(report.diagnostics, []);
    // "schema":null (the SDK's encoding of a tool registered without one) reads as an empty object schema.
    assert.deepEqual(host.findTool('go_noschema')?.schema, { type: 'object', properties: {} });
    const [ack] = await waitFor('hello_ack', () => host.received('gofix', 'hello_ack').length > 0 && host.received('gofix', 'hello_ack'));
    // terva's level: zot's Go SDK stores the number and never compares it (docs/TERVA.md 23.1).
    assert.equal(ack.protocol_version, 6);
    assert.equal(ack.extension_dir, report.dir);
  });

  test('tools: a result, the guard that blocks one call, and the tool_call event for an allowed one', async (t) => {
    assert.ok(go.bin);
    const host = await startHost(t, [makeGoExt(tmpdir(), go.bin)]);
    const ok = await host.runToolCall('go_echo', { text: 'from Go' }, { toolId: 'model-1' });
    assert.deepEqual([ok.outcome, ok.isError, ok.content], ['completed', false, [{ type: 'text', text: 'echo: from Go' }]]);
    await waitFor('tool_call event', () => host.received('gofix', 'event').some((f) => f.event === 'tool_call' && f.tool_id === 'model-1'));
    // An allow answer is the bare {"type","id"}: no block, no reason, no rewrite.
    const blocked = await host.runToolCall('go_echo', { text: 'rm -rf /' });
    assert.equal(blocked.outcome, 'not_run');
    assert.deepEqual(blocked.content, [{ type: 'text', text: 'the Go guard refuses rm -rf' }]);
    assert.equal(host.received('gofix', 'tool_call').length, 1, 'the blocked call never reached the tool');
    const noschema = await host.runToolCall('go_noschema', { any: 1 });
    assert.deepEqual(noschema.content, [{ type: 'text', text: 'args: {"any":1}' }]);
  });

  test('zot-host tool runs a Go tool and exits by its outcome', async () => {
    const home = tmpdir('zot-home-');
    assert.ok(go.bin);
    const ext = makeGoExt(tmpdir(), go.bin);
    const ok = await zotHost(['tool', 'go_echo', '{"text":"cli"}', '--no-discover', '--ext', ext, '--json'], home);
    assert.equal(ok.code, 0, ok.stderr);
    assert.deepEqual(JSON.parse(ok.stdout), { outcome: 'completed', extension: 'gofix', is_error: false, content: [{ type: 'text', text: 'echo: cli' }], message: '' });
    const blocked = await zotHost(['tool', 'go_echo', '{"text":"rm -rf /"}', '--no-discover', '--ext', ext], home);
    assert.equal(blocked.code, 1);
    assert.match(blocked.stderr, /the Go guard refuses rm -rf/);
  });

  test('each command action is carried out: prompt, insert, display, open_panel, noop, an error, an empty response', async (t) => {
    const ui = new RecordingUI();
    assert.ok(go.bin);
    const host = await startHost(t, [makeGoExt(tmpdir(), go.bin)], { ui });
    /** @param {string} name @param {string} [args] */
    const run = async (name, args = '') => {
      const before = ui.calls.length;
      const o = await host.runCommand(name, args);
      assert.equal(o.outcome, 'completed', `${name}: ${o.message}`);
      return ui.calls.slice(before).map((c) => [c.kind, ...c.args]);
    };
    assert.deepEqual(await run('go-prompt', 'the diff'), [['submit', 'gofix', 'Summarise the diff']]);
    assert.deepEqual(await run('go-insert', 'x'), [['insert', 'gofix', 'inserted by go: x']]);
    assert.deepEqual(await run('go-display', 'y'), [['display', 'gofix', 'displayed by go: y']]);
    const [[kind, , panel]] = await run('go-panel');
    assert.equal(kind, 'openPanel');
    assert.ok(typeof panel === 'object');
    assert.deepEqual([panel.id, panel.title, panel.lines, panel.footer], ['list', 'Go list', ['first item', 'second item', 'third item'], 'd: drop the last item · x: clear the list']);
    assert.deepEqual(await run('go-noop'), []);
    assert.deepEqual(await run('go-error'), [['notify', 'gofix', 'error', '/gofix: go-error failed on purpose']]);
    assert.deepEqual(await run('go-empty'), []);
    // The args the user typed arrive trimmed.
    const invoked = host.received('gofix', 'command_invoked');
    assert.deepEqual(invoked[0], { type: 'command_invoked', id: invoked[0].id, name: 'go-prompt', args: 'the diff' });
  });

  test('zot-host command prints each action of a Go command', async () => {
    const home = tmpdir('zot-home-');
    assert.ok(go.bin);
    const ext = makeGoExt(tmpdir(), go.bin);
    /** @param {...string} a */
    const cli = (...a) => zotHost(['command', ...a, '--no-discover', '--ext', ext], home);
    const display = await cli('go-display', 'hello', 'there');
    assert.deepEqual([display.code, display.stdout], [0, 'displayed by go: hello there\n']);
    const prompt = await cli('go-prompt', 'it');
    assert.equal(prompt.stdout, 'prompt for the model:\nSummarise it\n');
    const panel = await cli('go-panel');
    assert.equal(panel.stdout, '── Go list ──\nfirst item\nsecond item\nthird item\n(d: drop the last item · x: clear the list)\n');
    const failed = await cli('go-error');
    assert.deepEqual([failed.code, failed.stderr], [1, '/go-error: error: go-error failed on purpose\n']);
    const json = await cli('go-insert', 'z', '--json');
    assert.deepEqual(JSON.parse(json.stdout), { action: 'insert', insert: 'inserted by go: z' });
  });

  test('its panel: keys reach it, and a render with fewer lines replaces the list', async (t) => {
    assert.ok(go.bin);
    const { host, render: p } = await goPanelAfterKey(t, go.bin, 'd');
    assert.deepEqual([p.title, p.lines, p.footer], ['Go list', ['first item', 'second item'], 'd: drop the last item · x: clear the list']);
    assert.deepEqual(host.received('gofix', 'panel_key')[0], { type: 'panel_key', panel_id: 'list', key: 'rune', text: 'd' });
  });

  test('tool_cancel: a cancelled Go tool stops its work and sends no result', async (t) => {
    assert.ok(go.bin);
    const host = await startHost(t, [makeGoExt(tmpdir(), go.bin)]);
    const cts = new CancellationTokenSource();
    const call = host.runToolCall('go_wait', {}, { token: cts.token });
    const [frame] = await waitFor('delivered', () => host.received('gofix', 'tool_call').length > 0 && host.received('gofix', 'tool_call'));
    cts.cancel();
    const o = await call;
    assert.deepEqual([o.outcome, o.message], ['canceled', 'canceled; the extension was told to stop']);
    await waitFor('tool_cancel received', () => host.received('gofix', 'tool_cancel').some((f) => f.id === frame.id));
    await waitFor('work stopped', () => host.stderrOf('gofix').includes(`CANCELLED ${frame.id}`));
    assert.equal(host.get('gofix')?.lateReplies, 0, 'no result came after the cancel');
  });

  test('zot-host tool --timeout: the timed-out Go tool is sent tool_cancel', async () => {
    const home = tmpdir('zot-home-');
    assert.ok(go.bin);
    const r = await zotHost(['tool', 'go_wait', '--timeout', '300', '--no-discover', '--ext', makeGoExt(tmpdir(), go.bin), '--json'], home);
    assert.equal(r.code, 1);
    assert.equal(/** @type {{ outcome: string }} */ (JSON.parse(r.stdout)).outcome, 'timed_out');
    const log = fs.readFileSync(path.join(home, 'logs', 'ext-gofix.log'), 'utf8');
    const id = /RECV \{"type":"tool_call","id":"([^"]+)","name":"go_wait"/.exec(log)?.[1];
    assert.ok(id, log);
    // zot-host shuts the extension down right after, so whether its work got to log the cancel is a race.
    assert.ok(log.includes(`RECV {"type":"tool_cancel","id":"${id}"}`), log);
  });

  test('an interactive Go tool: its panel serves the call, an answer completes it, a cancel closes it', async (t) => {
    const ui = new RecordingUI();
    assert.ok(go.bin);
    const host = await startHost(t, [makeGoExt(tmpdir(), go.bin)], { ui });
    const answered = host.runToolCall('go_ask', {});
    await waitFor('panel', () => ui.of('openPanel').length === 1);
    const [key, panel] = ui.of('openPanel')[0].args;
    assert.equal(panel.forToolCall, true);
    ui.panel(key).key('enter');
    assert.deepEqual((await answered).content, [{ type: 'text', text: 'answer: yes' }]);
    await waitFor('its panel closed by the extension', () => host.openPanels.length === 0);

    const cts = new CancellationTokenSource();
    const cancelled = host.runToolCall('go_ask', {}, { token: cts.token });
    await waitFor('second panel', () => ui.of('openPanel').length === 2);
    cts.cancel();
    assert.equal((await cancelled).outcome, 'canceled');
    await waitFor('panel closed', () => host.openPanels.length === 0);
    await waitFor('work stopped', () => host.stderrOf('gofix').filter((l) => l.startsWith('CANCELLED ')).length === 1);
  });
});

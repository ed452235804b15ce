// Fidelity to zot, seen by the Go fixture extension (test/fixtures/go), whose
// frames are encoded as zot's Go SDK encodes them: such frames read as zot
// reads them, and nothing sent to it that zot never sends.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { RecordingUI, runCli, startHost, tmpdir, waitFor } from '../helpers.mjs';
import { goFixture, goPanelAfterKey, makeGoExt } from '../gofixture.mjs';

const go = await goFixture();
/** The fixture's executable (the tests that use it skip where there is none). */
const goBin = () => {
  assert.ok(go.bin, go.skip);
  return go.bin;
};

/** @type {(args: string[], home: string) => ReturnType<typeof runCli>} */
const zotHost = (args, home) => runCli(args, { home });

describe('the Go fixture sees what zot would show it', { skip: go.skip }, () => {
  test('emptying its list: the render leaves out lines, footer and title, and the panel shows no line and the old title', async (t) => {
    const { render: p } = await goPanelAfterKey(t, goBin(), 'x');
    assert.deepEqual([p.title, p.lines, p.footer], ['Go list', [], '']);
  });

  test('a command with an unknown action is an error naming it; one whose prompt is spaces submits nothing', async (t) => {
    const ui = new RecordingUI();
    const host = await startHost(t, [makeGoExt(tmpdir(), goBin())], { ui });
    await host.runCommand('go-blank', '');
    assert.deepEqual(ui.of('submit'), []);
    await host.runCommand('go-unknown', '');
    assert.match(ui.of('notify')[0]?.args[2] ?? '(nothing shown)', /unknown action explode/);
  });

  test('it is never sent panel_resize, which it would log as an unknown frame', async (t) => {
    const ui = new RecordingUI();
    const host = await startHost(t, [makeGoExt(tmpdir(), goBin())], { ui });
    await host.runCommand('go-panel', '');
    const key = ui.of('openPanel')[0].args[0];
    ui.panel(key).resize(80, 24);
    ui.panel(key).key('rune', 'd');
    await waitFor('the key after the resize', () => host.received('gofix', 'panel_key').length === 1);
    assert.deepEqual(host.stderrOf('gofix').filter((l) => l.includes('unknown frame type')), []);
  });

  test('its undecodable image makes the result an error', async () => {
    const r = await zotHost(['tool', 'go_badimage', '--no-discover', '--ext', makeGoExt(tmpdir(), goBin()), '--json'], tmpdir('zot-home-'));
    assert.equal(/** @type {{ is_error: boolean }} */ (JSON.parse(r.stdout)).is_error, true, r.stdout);
  });

  test('a zot-host run is a session: it receives session_start once, before the call', async () => {
    const home = tmpdir('zot-home-');
    await zotHost(['tool', 'go_echo', '{"text":"x"}', '--no-discover', '--ext', makeGoExt(tmpdir(), goBin())], home);
    const lines = fs.readFileSync(path.join(home, 'logs', 'ext-gofix.log'), 'utf8').split('\n');
    const starts = lines.filter((l) => l.startsWith('RECV {"type":"event","event":"session_start",'));
    assert.equal(starts.length, 1);
    // zot's fields on every event: a run is one session with an id of its own, in the host's folder, the first event.
    const start = JSON.parse(starts[0].slice(5));
    assert.deepEqual(Object.keys(start), ['type', 'event', 'session_id', 'cwd', 'sequence']);
    assert.match(start.session_id, /^run-/);
    assert.equal(start.sequence, 1);
    assert.ok(lines.indexOf(starts[0]) < lines.findIndex((l) => l.startsWith('RECV {"type":"tool_call"')));
  });
});

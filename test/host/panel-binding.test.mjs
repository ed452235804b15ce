// A tool that asks one question after another (closes its panel, opens the
// next), as a real extension process does it: each next panel is bound to
// the same call, so it shows where that call's panels show (an MCP client's
// elicitation, the chat's own view), never in the host's UI; and the bound of
// 4 panels per call counts the panels open at once, not those ever opened,
// nor one opened again to replace it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { makeExt, RecordingUI, startHost, tmpdir, waitFor } from '../helpers.mjs';

/** @typedef {import('../../out/types/host/index.js').PanelHandle} PanelHandle */

/**
 * Answers `count` questions of one call with Enter, each once its panel shows in `ui`.
 * @param {RecordingUI} ui
 * @param {string} callId
 * @param {number} count
 */
async function answerAll(ui, callId, count) {
  for (let n = 1; n <= count; n++) {
    const id = `q-${callId}-${n}`;
    const opened = await waitFor(`question ${n} of call ${callId} shown in its call's UI`, () => ui.of('openPanel').find((c) => c.args[1].id === id), 5_000);
    assert.equal(opened.args[1].forToolCall, true, `question ${n} is the call's`);
    ui.panel(opened.args[0]).key('enter');
  }
}

/**
 * A host with one asking tool; `named`: its panels name their call.
 * @param {import('node:test').TestContext} t
 * @param {string} name
 * @param {boolean} named
 */
async function askingHost(t, name, named) {
  const ext = makeExt(tmpdir(), name, { caps: ['tools', 'panels', 'tool_cancel'], tools: [{ name: 'ask', interactive: true, behaviour: 'questions', count: 6, named }] });
  const hostUi = new RecordingUI();
  const host = await startHost(t, [ext], { ui: hostUi });
  return { host, hostUi };
}

for (const named of [false, true]) {
  test(`six questions in a row${named ? ', each naming its call' : ', none naming a call'}: each next panel binds to the same call and shows in its UI; the 4-panel bound counts open ones`, async (t) => {
    const { host, hostUi } = await askingHost(t, named ? 'asker-named' : 'asker', named);
    const callUi = new RecordingUI();
    const outcome = host.runToolCall('ask', {}, { panelUi: callUi });
    const [call] = await waitFor('the call delivered', () => host.received(named ? 'asker-named' : 'asker', 'tool_call').length === 1 && host.received(named ? 'asker-named' : 'asker', 'tool_call'));
    await answerAll(callUi, call.id, 6);
    const o = await outcome;
    assert.equal(o.outcome, 'completed');
    assert.deepEqual(o.content, [{ type: 'text', text: 'enter,enter,enter,enter,enter,enter' }]);
    assert.deepEqual(hostUi.of('openPanel'), [], 'no question reached the host\'s own UI');
    assert.equal(callUi.of('openPanel').length, 6);
    const view = host.get(named ? 'asker-named' : 'asker');
    assert.deepEqual(view?.problems.filter((p) => /open_panel refused/.test(p.message)), [], 'none refused');
    assert.equal(host.openPanels.length, 0);
  });
}

test('two asking calls at once, no panel naming its call: each next question stays with its own call', async (t) => {
  const { host, hostUi } = await askingHost(t, 'asker-two', false);
  const uiA = new RecordingUI();
  const uiB = new RecordingUI();
  const a = host.runToolCall('ask', { who: 'a' }, { panelUi: uiA });
  const [callA] = await waitFor('A delivered', () => host.received('asker-two', 'tool_call').length === 1 && host.received('asker-two', 'tool_call'));
  await waitFor('A\'s first question', () => uiA.of('openPanel').length === 1);
  const b = host.runToolCall('ask', { who: 'b' }, { panelUi: uiB });
  const callB = await waitFor('B delivered', () => host.received('asker-two', 'tool_call')[1]);
  // B's first question is open while A goes on through all of its own.
  await waitFor('B\'s first question', () => uiB.of('openPanel').length === 1);
  await answerAll(uiA, callA.id, 6);
  assert.equal((await a).outcome, 'completed');
  await answerAll(uiB, callB.id, 6);
  assert.equal((await b).outcome, 'completed');
  assert.deepEqual(uiA.of('openPanel').map((c) => c.args[1].id), [1, 2, 3, 4, 5, 6].map((n) => `q-${callA.id}-${n}`));
  assert.deepEqual(uiB.of('openPanel').map((c) => c.args[1].id), [1, 2, 3, 4, 5, 6].map((n) => `q-${callB.id}-${n}`));
  assert.deepEqual(hostUi.of('openPanel'), []);
});

test('a call at its bound of 4 open panels may open one of them again (to replace it): shown in place, nothing refused', async (t) => {
  const ui = new RecordingUI();
  const dir = makeExt(tmpdir(), 'reopener', { tools: [{ name: 'bind', behaviour: 'bound_panels', count: 4, reopen: true, delayMs: 400 }] });
  const host = await startHost(t, [dir], { ui });
  const outcome = host.runToolCall('bind', {});
  const [call] = await waitFor('the call delivered', () => host.received('reopener', 'tool_call').length === 1 && host.received('reopener', 'tool_call'));
  const first = `call-${call.id}-0`;
  await waitFor('the first panel replaced', () => ui.of('renderPanel').find((c) => c.args[1].id === first && c.args[1].lines[0] === 'replaced'), 5_000);
  assert.equal(ui.of('openPanel').length, 4);
  assert.deepEqual(host.openPanels.map((p) => p.id).sort(), [0, 1, 2, 3].map((i) => `call-${call.id}-${i}`));
  assert.deepEqual(host.get('reopener')?.problems.filter((p) => /open_panel refused/.test(p.message)), []);
  assert.equal((await outcome).outcome, 'completed');
  await waitFor('its panels closed with the call', () => host.openPanels.length === 0, 2000);
  await waitFor('the extension told of each, once', () => host.received('reopener', 'panel_close').length === 4, 2000);
});

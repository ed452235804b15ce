// terva's host_tool_call in the editor (src/vscode/hostTools/hostTools.ts) against
// a stand-in of the VS Code API: the modal question's buttons are in VS Code's
// language and the one clicked decides (German: "Zulassen" once, "Für diese
// Sitzung zulassen" for the session, the dialog closed: refused); the tool
// runs through vscode.lm.invokeTool with the call's arguments, its result
// comes back as content, and the connection closing cancels it there.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { bundleSources, ROOT, tmpdir, vscodeStandIn, waitFor } from '../helpers.mjs';

/** @type {Record<string, string>} */
const GERMAN = JSON.parse(readFileSync(path.join(ROOT, 'l10n', 'bundle.l10n.de.json'), 'utf8'));

const VSCODE_STUB = `
const state = { trusted: true, asked: [], answer: undefined, invoked: [], hold: false };
class CancellationTokenSource {
  constructor() { const fns = []; this.token = { isCancellationRequested: false, onCancellationRequested: (f) => { fns.push(f); return { dispose() {} }; } }; this.fns = fns; }
  cancel() { this.token.isCancellationRequested = true; for (const f of this.fns) f(); }
  dispose() {}
}
module.exports = {
  state, CancellationTokenSource,
  workspace: { get isTrusted() { return state.trusted; } },
  window: { showWarningMessage: async (message, options, ...choices) => { state.asked.push({ message, options, choices }); return state.answer; } },
  lm: {
    tools: [{ name: 'copilot_findTextInFiles' }],
    invokeTool: (name, options, token) => new Promise((resolve) => {
      const call = { name, input: options.input, token };
      state.invoked.push(call);
      const answer = () => resolve({ content: [{ value: '3 matches' }] });
      if (!state.hold) return answer();
      token.onCancellationRequested(() => resolve({ content: [{ value: 'stopped' }] }));
    }),
  },
};
`;

/** @type {string} */
let scratch;
/** @type {import('../bundled').Bundled<'vscode', 'hostTools/hostTools' | 'l10n'> & { vscode: { state: { trusted: boolean, asked: { message: string, options: { modal?: boolean }, choices: string[] }[], answer: string | undefined, invoked: { name: string, input: unknown, token: { isCancellationRequested: boolean } }[], hold: boolean } } }} */
let m;
before(async () => {
  scratch = tmpdir('zot-host-tools-vscode-');
  const vscode = vscodeStandIn(scratch, VSCODE_STUB);
  m = { ...(await bundleSources(scratch, 'vscode', ['hostTools/hostTools', 'l10n'], { external: ['vscode'], together: true })), vscode };
  m.l10n.useTranslator((message, ...args) => m.l10n.english(GERMAN[message] ?? message, ...args));
});
after(() => {
  m.l10n.useTranslator(m.l10n.english);
  rmSync(scratch, { recursive: true, force: true });
});

/** A connection's token; `cancel()` is the extension going away. */
function token() {
  /** @type {((e: unknown) => void)[]} */
  const fns = [];
  return { isCancellationRequested: false, onCancellationRequested: (/** @type {(e: unknown) => void} */ f) => { fns.push(f); return { dispose() {} }; }, cancel() { this.isCancellationRequested = true; for (const f of fns) f(undefined); } };
}

// A partial extension: its name and the part of what was found that the rules read.
const ledger = /** @type {import('../../out/types/host/index.js').ExtensionView} */ (/** @type {unknown} */ ({ name: 'ledger', found: { name: 'ledger', source: 'global', dir: '/x/ledger' } }));
const request = { extension: ledger, name: 'copilot_findTextInFiles', args: { query: 'todo' }, silent: false };

test('in German: "Zulassen" runs the tool once, "Für diese Sitzung zulassen" for the session, a closed dialog refuses', async () => {
  const tools = m.hostTools.vscodeHostTools({ zotToolNames: () => [], log() {} });
  const s = m.vscode.state;
  s.answer = 'Zulassen';
  assert.deepEqual(await tools.call(request, token()), { content: [{ type: 'text', text: '3 matches' }], isError: false });
  assert.equal(s.asked.length, 1);
  assert.equal(s.asked[0].options.modal, true, 'a modal question');
  assert.match(s.asked[0].message, /^Die zot-Erweiterung "ledger" möchte das Tool "copilot_findTextInFiles" ausführen\.$/);
  assert.deepEqual(s.asked[0].choices, ['Zulassen', 'Für diese Sitzung zulassen']);
  assert.deepEqual(s.invoked.map((c) => [c.name, c.input]), [['copilot_findTextInFiles', { query: 'todo' }]]);
  // Once is once: the next call asks again; for the session, it does not.
  s.answer = 'Für diese Sitzung zulassen';
  assert.equal((await tools.call(request, token())).isError, false);
  assert.equal(s.asked.length, 2);
  s.answer = undefined;
  assert.equal((await tools.call(request, token())).isError, false);
  assert.equal(s.asked.length, 2, 'allowed for the session: not asked again');
  assert.equal(s.invoked.length, 3);
  // Another runner (another window): asked, closed, refused, nothing run.
  const other = m.hostTools.vscodeHostTools({ zotToolNames: () => [], log() {} });
  const refused = await other.call(request, token());
  assert.equal(refused.isError, true);
  assert.match(/** @type {{ text: string }} */ (refused.content[0]).text, /the user did not allow "ledger" to run the tool "copilot_findTextInFiles"/);
  // The English word is no button in a German VS Code.
  s.answer = 'Allow';
  assert.equal((await other.call(request, token())).isError, true);
  assert.equal(s.invoked.length, 3);
});

test('the connection closing while the tool runs cancels it through vscode.lm.invokeTool\'s token', async () => {
  const tools = m.hostTools.vscodeHostTools({ zotToolNames: () => [], log() {} });
  const s = m.vscode.state;
  s.answer = 'Zulassen';
  s.hold = true;
  try {
    const conn = token();
    const before = s.invoked.length;
    const answer = tools.call(request, conn);
    const running = await waitFor('the tool running', () => s.invoked[before]);
    assert.equal(running.token.isCancellationRequested, false);
    conn.cancel();
    await answer;
    assert.equal(running.token.isCancellationRequested, true, 'the tool was told');
  } finally {
    s.hold = false;
  }
});

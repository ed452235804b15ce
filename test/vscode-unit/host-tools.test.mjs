// Unit tests of terva's host_tool_call rules in VS Code (src/vscode/hostTools/hostToolRules.ts),
// bundled with esbuild: what is refused before anyone is asked, the question and what an
// allow for the session covers, the deadline and the connection's cancellation, and how a
// language model tool's result parts become content blocks. hostTools.ts only hands these
// rules vscode.lm, the workspace's trust and a modal question.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { bundleSources } from '../helpers.mjs';

/** @typedef {import('../../out/types/host/index.js').ExtensionView} ExtensionView */
/** @typedef {import('../../src/vscode/hostTools/hostToolRules').Permission} Permission */
/** @typedef {import('../../src/vscode/hostTools/hostToolRules').CallCancellation} CallCancellation */

/** @type {string} */
let scratch;
/** @type {typeof import('../../src/vscode/hostTools/hostToolRules')} */
let m;

before(async () => {
  scratch = mkdtempSync(path.join(os.tmpdir(), 'zot-host-tools-'));
  ({ hostToolRules: m } = await bundleSources(scratch, 'vscode/hostTools', ['hostToolRules']));
});

after(() => rmSync(scratch, { recursive: true, force: true }));

/** A token as the host passes it: `cancel()` is the extension's connection going. */
function token() {
  /** @type {Set<() => void>} */
  const listeners = new Set();
  return {
    isCancellationRequested: false,
    /** @param {() => void} l */
    onCancellationRequested(l) { listeners.add(l); return { dispose: () => listeners.delete(l) }; },
    cancel() { this.isCancellationRequested = true; for (const l of listeners) l(); },
    get listening() { return listeners.size; },
  };
}

// A partial extension: its name and the part of what was found that the rules read.
/** @type {(name: string, source?: import('../../out/types/host/index.js').ExtensionSource) => ExtensionView} */
const ext = (name, source = 'global') => /** @type {ExtensionView} */ ({ name, found: { name, source, dir: `/x/${name}` } });
/** @type {(name: string, e?: ExtensionView, args?: import('../../out/types/protocol/index.js').JsonObject) => import('../../out/types/host/index.js').HostToolRequest} */
const request = (name, e = ext('ledger'), args = { pattern: 'todo' }) => ({ extension: e, name, args, silent: true });
/** @param {string} t */
const text = (t) => ({ type: 'text', text: t });

class TextPart { constructor(/** @type {string} */ value) { this.value = value; } }
class DataPart { constructor(/** @type {Uint8Array} */ data, /** @type {string} */ mimeType) { this.data = data; this.mimeType = mimeType; } }
class PromptTsxPart { constructor(/** @type {unknown} */ value) { this.value = value; } }

/**
 * A runner over fake deps; `calls` records what reached the tool, `asked` who was asked.
 * `answer` is the person's answer (or a function giving it), `result` the tool's parts (or a function of its cancellation).
 * @param {{ trusted?: boolean, tools?: string[], zot?: string[], answer?: Permission | (() => Permission | Promise<Permission>), result?: unknown[] | ((cancel: CallCancellation) => Promise<readonly unknown[]>), deadlineMs?: number }} [options]
 */
function runner({ trusted = true, tools = ['copilot_findTextInFiles', 'mcp_github_search', 'mcp_other_ledger_balance'], zot = ['ledger_balance', 'rates.fetch'], answer = 'once', result = [new TextPart('3 matches')], deadlineMs } = {}) {
  /** @type {{ name: string, args: Record<string, unknown>, cancel: CallCancellation }[]} */
  const calls = [];
  /** @type {[string, string, Record<string, unknown>][]} */
  const asked = [];
  /** @type {string[]} */
  const log = [];
  const r = new m.HostToolRunner({
    trusted: () => trusted,
    tools: () => tools.map((name) => ({ name })),
    zotToolNames: () => zot,
    ask: async (extension, tool, args) => { asked.push([extension, tool, args]); return typeof answer === 'function' ? answer() : answer; },
    invoke: (name, args, cancel) => { calls.push({ name, args, cancel }); return typeof result === 'function' ? result(cancel) : Promise.resolve(result); },
    log: (line) => log.push(line),
    ...(deadlineMs !== undefined && { deadlineMs }),
  });
  return { r, calls, asked, log };
}

describe('what is refused at once, with no one asked', () => {
  test('a project-local extension of an untrusted workspace gets no host tools; a global one still asks', async () => {
    const f = runner({ trusted: false });
    const got = await f.r.call(request('copilot_findTextInFiles', ext('local', 'project')), token());
    assert.deepEqual(got, { isError: true, content: [text('host tools are not offered to "local": it is a project extension and this workspace is not trusted')] });
    assert.deepEqual([f.asked, f.calls], [[], []]);
    const global = await f.r.call(request('copilot_findTextInFiles', ext('global')), token());
    assert.deepEqual(global, { isError: false, content: [text('3 matches')] });
    const trusted = runner({ trusted: true });
    assert.equal((await trusted.r.call(request('copilot_findTextInFiles', ext('local', 'project')), token())).isError, false, 'trusted: a project extension may ask');
  });

  test('no call reaches a zot tool, under its own name, its MCP form or zot\'s MCP server', async () => {
    const f = runner({ tools: ['ledger_balance', 'mcp_other_ledger_balance', 'mcp_zot_x', 'mcp__zot__y', 'rates_fetch', 'mcp_srv_rates_fetch'] });
    for (const name of ['ledger_balance', 'LEDGER_BALANCE', 'mcp_other_ledger_balance', 'mcp_zot_x', 'mcp__zot__y', 'rates_fetch', 'mcp_srv_rates_fetch']) {
      const got = await f.r.call(request(name), token());
      assert.deepEqual(got, { isError: true, content: [text(`"${name}" is a zot extension's tool; host tool calls reach only the host's own tools`)] }, name);
    }
    assert.deepEqual([f.asked, f.calls], [[], []]);
    assert.equal(m.isZotToolName('mcp_github_search', ['ledger_balance']), false);
    assert.equal(m.isZotToolName('mcp_github_balance', ['ledger_balance']), false, 'a suffix of the name is not the name');
  });

  test('a name that is not one of the window\'s tools is an error naming it', async () => {
    const f = runner();
    const got = await f.r.call(request('grep'), token());
    assert.deepEqual(got, { isError: true, content: [text('there is no tool "grep" in this VS Code window (its tools have names of their own: terva\'s read, grep or bash are not among them)')] });
    assert.deepEqual([f.asked, f.calls], [[], []]);
  });
});

describe('the question', () => {
  test('the person is asked with the extension, the tool and the arguments; silent changes nothing', async () => {
    const f = runner();
    const quiet = { ...request('copilot_findTextInFiles'), silent: true };
    const loud = { ...request('copilot_findTextInFiles'), silent: false };
    await f.r.call(quiet, token());
    await f.r.call(loud, token());
    assert.deepEqual(f.asked, [['ledger', 'copilot_findTextInFiles', { pattern: 'todo' }], ['ledger', 'copilot_findTextInFiles', { pattern: 'todo' }]]);
    assert.deepEqual(f.calls.map((c) => [c.name, c.args]), [['copilot_findTextInFiles', { pattern: 'todo' }], ['copilot_findTextInFiles', { pattern: 'todo' }]]);
  });

  test('a refusal is an error and runs nothing', async () => {
    const f = runner({ answer: () => undefined });
    const got = await f.r.call(request('copilot_findTextInFiles'), token());
    assert.deepEqual(got, { isError: true, content: [text('the user did not allow "ledger" to run the tool "copilot_findTextInFiles"')] });
    assert.deepEqual(f.calls, []);
  });

  test('an allow for the session covers that extension and that tool only', async () => {
    const f = runner({ answer: 'session' });
    await f.r.call(request('copilot_findTextInFiles'), token());
    await f.r.call(request('copilot_findTextInFiles'), token());
    assert.equal(f.asked.length, 1, 'asked once');
    await f.r.call(request('mcp_github_search'), token());
    await f.r.call(request('copilot_findTextInFiles', ext('other')), token());
    assert.deepEqual(f.asked.map(([e, tool]) => `${e}/${tool}`), ['ledger/copilot_findTextInFiles', 'ledger/mcp_github_search', 'other/copilot_findTextInFiles']);
    assert.equal(f.calls.length, 4);
  });

  test('the connection going while the person is asked ends the call with no tool run', async () => {
    /** @type {(value: Permission) => void} */
    let answer = () => undefined;
    const f = runner({ answer: () => new Promise((r) => (answer = r)) });
    const tk = token();
    const pending = f.r.call(request('copilot_findTextInFiles'), tk);
    await new Promise((r) => setImmediate(r));
    tk.cancel();
    assert.deepEqual(await pending, { isError: true, content: [text('the call of "copilot_findTextInFiles" was cancelled: the extension\'s connection closed')] });
    answer('once');
    await new Promise((r) => setImmediate(r));
    assert.deepEqual(f.calls, []);
  });
});

describe('the deadline and cancellation', () => {
  test('a tool that runs past the deadline is cancelled and answered with an error', async () => {
    let cancelled = false;
    const f = runner({ deadlineMs: 50, result: (cancel) => new Promise(() => cancel.onCancellationRequested(() => (cancelled = true))) });
    const tk = token();
    const got = await f.r.call(request('copilot_findTextInFiles'), tk);
    assert.deepEqual(got, { isError: true, content: [text('the tool "copilot_findTextInFiles" did not finish within 0.05 s and was cancelled')] });
    assert.equal(cancelled, true, 'the tool was told to stop');
    assert.equal(tk.listening, 0, 'no listener is left on the connection\'s token');
    assert.equal(m.HOST_TOOL_DEADLINE_MS, 25_000, 'under the SDK\'s 30 s');
  });

  test('the extension\'s connection going cancels the running tool', async () => {
    let cancelled = false;
    const f = runner({ result: (cancel) => new Promise(() => cancel.onCancellationRequested(() => (cancelled = true))) });
    const tk = token();
    const pending = f.r.call(request('copilot_findTextInFiles'), tk);
    await new Promise((r) => setImmediate(r));
    tk.cancel();
    assert.deepEqual(await pending, { isError: true, content: [text('the call of "copilot_findTextInFiles" was cancelled: the extension\'s connection closed')] });
    assert.equal(cancelled, true);
  });

  test('a tool that throws is an error with its message', async () => {
    const f = runner({ result: () => Promise.reject(new Error('Tool copilot_findTextInFiles was not contributed')) });
    assert.deepEqual(await f.r.call(request('copilot_findTextInFiles'), token()), { isError: true, content: [text('the tool "copilot_findTextInFiles" failed: Tool copilot_findTextInFiles was not contributed')] });
  });
});

describe('the result\'s parts as content blocks', () => {
  test('text stays text, an image is an image block in base64, anything else is named in a text', () => {
    const png = Uint8Array.from([0x89, 0x50, 0x4e, 0x47]);
    const blocks = m.blocksOfResult([
      new TextPart('hello'),
      new DataPart(png, 'image/png'),
      new DataPart(Buffer.from('{"a":1}'), 'application/json'),
      new PromptTsxPart({ node: 1 }),
      42,
    ]);
    assert.deepEqual(blocks, [
      { type: 'text', text: 'hello' },
      { type: 'image', mime_type: 'image/png', data: Buffer.from(png).toString('base64') },
      { type: 'text', text: '[a data part (application/json, 7 bytes), which this host does not pass on]' },
      { type: 'text', text: '[a part of type PromptTsxPart, which this host does not pass on]' },
      { type: 'text', text: '[a part of type number, which this host does not pass on]' },
    ]);
  });

  test('a call\'s result goes through that mapping', async () => {
    const f = runner({ result: [new TextPart('a'), new DataPart(Uint8Array.from([1, 2, 3]), 'image/jpeg')] });
    assert.deepEqual(await f.r.call(request('copilot_findTextInFiles'), token()), {
      isError: false,
      content: [{ type: 'text', text: 'a' }, { type: 'image', mime_type: 'image/jpeg', data: 'AQID' }],
    });
  });
});

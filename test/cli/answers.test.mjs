// An answer the host cannot use as a result, an `error` frame or a reply over
// the frame limit, ends its call as `completed` with `is_error`, and every
// front end says what was wrong: zot-host tool (text and --json), MCP, and
// what @zot's model reads (the chat's pure modules, bundled from src).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import * as path from 'node:path';
import { bundleSources, CLI, makeExt, ROOT, runCli, tmpdir } from '../helpers.mjs';

const require = createRequire(import.meta.url);
const { Client } = require('@modelcontextprotocol/sdk/client/index.js');
const { StdioClientTransport } = require('@modelcontextprotocol/sdk/client/stdio.js');

/** @typedef {import('@modelcontextprotocol/sdk/types.js').CallToolResult} CallToolResult */
/** @typedef {import('@modelcontextprotocol/sdk/types.js').TextContent} TextContent */
/** @typedef {import('../../src/vscode/chat/limits.js').TextPart} TextPart */
/**
 * What `zot-host tool --json` prints, as this test reads it.
 * @typedef {{ outcome: import('../../out/types/host/index.js').Outcome, extension: string, is_error: boolean, content: import('../../out/types/protocol/index.js').TextBlock[], message: string }} ToolJson
 */

const LIMIT = 8 * 1024 * 1024;
const ext = makeExt(tmpdir(), 'answers', {
  tools: [
    { name: 'refuses', behaviour: 'error_frame' },
    { name: 'huge', behaviour: 'big', size: LIMIT + 1 },
  ],
});
const CASES = {
  refuses: { text: 'cannot do that', message: 'the extension answered with an error frame' },
  huge: {
    text: /^malformed tool_result: dropped a line of \d+ bytes: longer than the 8388608-byte limit$/,
    message: /^the extension sent a malformed tool_result: dropped a line of \d+ bytes: longer than the 8388608-byte limit$/,
  },
};
/** @type {(value: string, want: string | RegExp) => void} */
const matches = (value, want) => (typeof want === 'string' ? assert.equal(value, want) : assert.match(value, want));

/** @param {string[]} args */
const cli = (args) => runCli([...args, '--no-discover', '--ext', ext]);

/** @type {string} */
let scratch;
let chat = /** @type {import('../bundled').Bundled<'vscode/chat', 'callOutcome' | 'modelView'>} */ ({});
before(async () => {
  scratch = mkdtempSync(path.join(os.tmpdir(), 'zot-answers-'));
  Object.assign(chat, await bundleSources(scratch, 'vscode/chat', ['callOutcome', 'modelView']));
});
after(() => rmSync(scratch, { recursive: true, force: true }));

for (const [tool, want] of Object.entries(CASES)) {
  test(`zot-host tool, an unusable answer (${tool}): completed, is_error, the text and the message say what was wrong, exit 1`, async () => {
    const j = await cli(['tool', tool, '--json']);
    assert.equal(j.code, 1, j.stderr);
    const o = /** @type {ToolJson} */ (JSON.parse(j.stdout));
    assert.equal(o.outcome, 'completed');
    assert.equal(o.is_error, true);
    assert.equal(o.content.length, 1);
    matches(o.content[0].text, want.text);
    matches(o.message, want.message);

    const t = await cli(['tool', tool]);
    assert.equal(t.code, 1);
    assert.equal(t.stdout, '', 'an error result goes to stderr');
    const [text, said] = t.stderr.trimEnd().split('\n');
    matches(text, want.text);
    assert.ok(said.startsWith(`${tool}: `), said);
    matches(said.slice(tool.length + 2), want.message);

    // What @zot's model reads for this outcome: the chat's words for a failed call, then the text.
    const ending = chat.callOutcome.callEnd({ outcome: o.outcome, extension: o.extension, isError: o.is_error, content: o.content, message: o.message });
    assert.equal(ending.end, 'error');
    const parts = chat.modelView.resultForModel(ending, false, { images: true });
    assert.equal(/** @type {TextPart} */ (parts[0]).text, 'The tool reported an error:');
    matches(/** @type {TextPart} */ (parts[1]).text, want.text);
  });
}

test('zot-host mcp: the same two answers are isError results with the same text', async (t) => {
  const transport = new StdioClientTransport({ command: process.execPath, args: [CLI, 'mcp', '--no-discover', '--ext', ext], env: { ...process.env, ZOT_HOME: tmpdir('zot-home-') }, stderr: 'pipe' });
  const client = new Client({ name: 'answers', version: '1.0.0' });
  await client.connect(transport);
  t.after(() => client.close());
  for (const [tool, want] of Object.entries(CASES)) {
    const r = /** @type {CallToolResult} */ (await client.callTool({ name: tool, arguments: {} }));
    assert.equal(r.isError, true, tool);
    assert.equal(r.content.length, 1);
    matches(/** @type {TextContent} */ (r.content[0]).text, want.text);
  }
});

test('a block of a type the host does not know: named in text by zot-host, as sent in --json, named for MCP and for @zot\'s model', async (t) => {
  const blocks = [{ type: 'text', text: 'before' }, { type: 'audio', mime_type: 'audio/wav', data: 'UklGRg==' }, { type: 'image', mime_type: 'image/png', data: 'iVBORw0KGgo=' }];
  const dir = makeExt(tmpdir(), 'odd', { tools: [{ name: 'odd_blocks', behaviour: 'content', content: blocks }] });
  /** @param {string[]} args */
  const run = (args) => runCli([...args, '--no-discover', '--ext', dir]);
  const text = await run(['tool', 'odd_blocks']);
  assert.equal(text.code, 0, text.stderr);
  assert.equal(text.stdout, 'before\n[audio block]\n[image image/png, 8 bytes]\n');
  const json = /** @type {{ content: unknown }} */ (JSON.parse((await run(['tool', 'odd_blocks', '--json'])).stdout));
  assert.deepEqual(json.content, blocks, 'the blocks as the extension sent them');
  const transport = new StdioClientTransport({ command: process.execPath, args: [CLI, 'mcp', '--no-discover', '--ext', dir], env: { ...process.env, ZOT_HOME: tmpdir('zot-home-') }, stderr: 'pipe' });
  const client = new Client({ name: 'odd', version: '1.0.0' });
  await client.connect(transport);
  t.after(() => client.close());
  const r = await client.callTool({ name: 'odd_blocks', arguments: {} });
  assert.deepEqual(r.content, [
    { type: 'text', text: 'before' },
    { type: 'text', text: '[unknown block type "audio" from the extension]' },
    { type: 'image', data: 'iVBORw0KGgo=', mimeType: 'image/png' },
  ]);
  const parts = chat.modelView.resultForModel({ end: 'completed', message: '', extension: 'odd', content: [{ type: 'text', text: 'before' }, { type: 'other', other_type: 'audio', block: blocks[1] }] }, false, { images: true });
  assert.deepEqual(parts.map((p) => /** @type {TextPart} */ (p).text), ['before', '[unknown block type "audio" from the extension]']);
});

// The panel webview's messages and the cursor rule, in plain Node (their
// contract: src/protocol/pageContract.ts): what the page may send is
// checked before anything acts on it, and one rule says which line is the
// cursor for the webview and the QuickPick alike.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { bundleSources, lib } from '../helpers.mjs';

/** @type {string} */
let scratch;
/** @type {import('../bundled').BundledSources['protocol/pageContract']} */
let messages;
before(async () => {
  scratch = mkdtempSync(path.join(os.tmpdir(), 'zot-panels-unit-'));
  ({ pageContract: messages } = await bundleSources(scratch, 'protocol', ['pageContract']));
});
after(() => rmSync(scratch, { recursive: true, force: true }));

test('messages from the page: each known shape passes as it is; anything else is dropped', () => {
  const ok = [
    [{ type: 'ready' }, { type: 'ready' }],
    [{ type: 'close', extra: 1 }, { type: 'close' }],
    [{ type: 'key', key: 'down' }, { type: 'key', key: 'down', seq: 0 }],
    [{ type: 'key', key: 'down', seq: 7 }, { type: 'key', key: 'down', seq: 7 }],
    [{ type: 'key', key: 'rune', text: 'x', seq: 8 }, { type: 'key', key: 'rune', text: 'x', seq: 8 }],
    [{ type: 'key', key: 'rune' }, { type: 'key', key: 'rune', text: '', seq: 0 }],
    [{ type: 'resize', width: 80, height: 24 }, { type: 'resize', width: 80, height: 24 }],
  ];
  for (const [m, want] of ok) assert.deepEqual(messages.fromWebview(m), want, JSON.stringify(m));
  const dropped = [null, 'ready', [], {}, { type: 'nope' }, { type: 'key' }, { type: 'key', key: 'launch' }, { type: 'key', key: 'rune', text: 7 },
    { type: 'key', key: 'up', seq: -1 }, { type: 'key', key: 'up', seq: 1.5 }, { type: 'key', key: 'up', seq: '3' },
    { type: 'resize', width: '80', height: 24 }, { type: 'resize', width: Infinity, height: 1 }, { type: 'resize', width: 1 }];
  for (const m of dropped) assert.equal(messages.fromWebview(m), undefined, JSON.stringify(m));
});

test('the cursor is the one line that starts with a mark; none or several: no cursor', () => {
  assert.equal(lib.cursorLine(['  a', '› b', '  c']), 1);
  for (const mark of ['›', '>', '▶', '▸', '❯', '→', '➤']) assert.equal(lib.cursorLine(['x', `  ${mark} item`]), 1, mark);
  assert.equal(lib.cursorLine(['● done', '  open']), -1, 'a bullet is not a cursor');
  assert.equal(lib.cursorLine(['› a', '› b']), -1, 'two marks: no cursor');
  assert.equal(lib.cursorLine([]), -1);
  assert.equal(lib.cursorLine(['plain', 'lines']), -1);
  for (const lines of [['  a', '› b'], ['› a', '› b'], ['● done'], []]) assert.equal(messages.cursorLine(lines), lib.cursorLine(lines), 'the page contract states the same rule');
});

test('a render for the page: whole, or the lines that changed with the cursor the rule finds and what a screen reader is to hear', () => {
  const head = { title: 'T', footer: 'F', seq: 4 };
  assert.deepEqual(messages.renderMessage(head, ['  a', '› b'], undefined), { type: 'render', title: 'T', footer: 'F', cursor: 1, seq: 4, lines: ['  a', '› b'] });
  assert.deepEqual(messages.renderMessage({ ...head, widgets: [] }, [], undefined).widgets, [], 'the tree goes when it is given');
  // The cursor moved down and the line under it changed: the moved mark is not read out, the new text is.
  assert.deepEqual(messages.renderMessage(head, ['  a', '  b', '› c!'], ['  a', '› b', '  c']), { type: 'render', title: 'T', footer: 'F', cursor: 2, seq: 4, length: 3, changed: [[1, '  b'], [2, '› c!']], spoken: [2] });
  // Only the mark moved, with its indentation kept: nothing to hear. A line added is heard; one taken away changes nothing.
  assert.deepEqual(/** @type {import('../../src/protocol/pageContract.js').ChangedRender} */ (messages.renderMessage(head, ['\t> x', '  \t y'], ['\t  x', '  \t▸y'])).spoken, []);
  assert.deepEqual(messages.renderMessage(head, ['› a', 'new'], ['› a']), { type: 'render', title: 'T', footer: 'F', cursor: 0, seq: 4, length: 2, changed: [[1, 'new']], spoken: [1] });
  assert.deepEqual(messages.renderMessage(head, ['› a', '› b'], ['› a', '  b', 'c']), { type: 'render', title: 'T', footer: 'F', cursor: -1, seq: 4, length: 2, changed: [[1, '› b']], spoken: [] });
});

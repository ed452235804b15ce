// The panel webview's messages and the cursor rule, in plain Node: what the
// page may send is checked before anything acts on it, and one rule says
// which line is the cursor for the webview and the QuickPick alike.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { bundleSources, lib } from '../helpers.mjs';

let scratch;
let messages;
before(async () => {
  scratch = mkdtempSync(path.join(os.tmpdir(), 'zot-panels-unit-'));
  ({ messages } = await bundleSources(scratch, 'vscode/panels', ['messages']));
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
});

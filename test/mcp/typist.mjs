// A zot extension with one interactive tool whose panel is free text (no
// cursor line): it takes the typed characters in order, and on enter answers
// with what was typed and how many keys it took, so a test sees an answer
// arrive whole, in order, and nothing of one that was refused.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { tmpdir } from '../helpers.mjs';

export const TYPIST_TOOL = 'type_it';

/** @returns {string} the extension's folder */
export function typistExtension() {
  const dir = path.join(tmpdir(), 'typist');
  fs.mkdirSync(dir);
  fs.writeFileSync(path.join(dir, 'extension.json'), JSON.stringify({ name: 'typist', version: '1.0.0', exec: 'node', args: ['index.js'] }));
  fs.writeFileSync(path.join(dir, 'index.js'), `
const send = (f) => process.stdout.write(JSON.stringify(f) + '\\n');
send({ type: 'hello', name: 'typist', version: '1.0.0', capabilities: ['tools', 'panels'] });
send({ type: 'register_tool', name: '${TYPIST_TOOL}', description: 'asks for a text', schema: { type: 'object', properties: {} }, interactive: true });
send({ type: 'ready' });
let typed = '';
let keys = 0;
let call;
require('node:readline').createInterface({ input: process.stdin }).on('line', (l) => {
  const f = JSON.parse(l);
  if (f.type === 'tool_call') { call = f.id; typed = ''; keys = 0; send({ type: 'open_panel', panel: { id: 'p', title: 'Type it', lines: ['Type a text, then enter'], footer: '', tool_call_id: f.id } }); }
  if (f.type !== 'panel_key') return;
  keys++;
  if (f.key === 'rune') typed += f.text;
  if (f.key === 'enter') { send({ type: 'panel_close', panel_id: 'p' }); send({ type: 'tool_result', id: call, content: [{ type: 'text', text: JSON.stringify({ typed, keys }) }] }); }
});
`);
  return dir;
}

/**
 * A text of `n` characters, each told apart from its neighbours, some of
 * them outside the BMP (two UTF-16 units, one character) and some multi-byte
 * in UTF-8: typed out of order, or one lost or split, it would not match.
 * @param {number} n
 */
export function textOf(n) {
  let text = '';
  for (let i = 0; i < n; i++) text += i % 10 === 9 ? String.fromCodePoint(0x1f600 + (i % 50)) : i % 10 === 4 ? 'ä' : String.fromCharCode(0x30 + (i % 43));
  return text;
}

// Unit tests of the chat's pure modules (what the model sees of a result,
// the history's bounds, the words for each ending, the choice of tools),
// bundled from src/vscode/chat with esbuild: they import nothing from VS Code.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { bundleSources } from '../helpers.mjs';

/** @typedef {import('../bundled').Bundled<'vscode/chat', 'limits' | 'rounds' | 'modelView' | 'callOutcome' | 'toolChoice'>} ChatModules */
/** @typedef {import('../../src/vscode/chat/limits.js').TextPart} TextPart */
/** @typedef {import('../../src/vscode/chat/rounds.js').Round} Round */
/** @typedef {import('../../src/vscode/chat/rounds.js').RoundCall & { result: TextPart[] }} TextCall A call whose result is text only. */
/** @typedef {{ name: string, extension: string, essential?: boolean }} Tool */

/** @type {string} */
let scratch;
// Empty until before() bundles the modules.
let m = /** @type {ChatModules} */ ({});

before(async () => {
  scratch = mkdtempSync(path.join(os.tmpdir(), 'zot-chat-pure-'));
  m = await bundleSources(scratch, 'vscode/chat', ['limits', 'rounds', 'modelView', 'callOutcome', 'toolChoice']);
});

after(() => rmSync(scratch, { recursive: true, force: true }));

/**
 * @param {...import('../../out/types/protocol/index.js').ContentBlock} content
 * @returns {import('../../src/vscode/chat/callOutcome.js').CallEnding}
 */
const completed = (...content) => ({ end: 'completed', message: '', extension: 'x', content });
/**
 * @param {string} t
 * @returns {import('../../out/types/protocol/index.js').ContentBlock}
 */
const text = (t) => ({ type: 'text', text: t });
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

describe('what the model sees of a result', () => {
  test('a 5 MiB text is cut to 64 KiB with a note of its size', () => {
    const parts = /** @type {TextPart[]} */ (m.modelView.resultForModel(completed(text('x'.repeat(5 * 1024 * 1024))), false, { images: true }));
    assert.equal(parts.length, 2);
    assert.equal(Buffer.byteLength(parts[0].text), m.limits.RESULT_TEXT_MAX_BYTES);
    assert.deepEqual(parts[1], { kind: 'text', text: '[cut: the tool returned 5 MiB of text; the model sees the first 64 KiB]', note: true });
  });
  test('the cut counts all text blocks together and never splits a character', () => {
    const parts = /** @type {TextPart[]} */ (m.modelView.resultForModel(completed(text('é'.repeat(20_000)), text('ü'.repeat(20_000)), text('tail')), false, { images: true }));
    const kept = parts.slice(0, -1).map((p) => p.text).join('');
    assert.ok(Buffer.byteLength(kept) <= 64 * 1024 && Buffer.byteLength(kept) > 64 * 1024 - 2);
    assert.ok(!kept.includes('\ufffd') && !kept.includes('tail'));
    const last = parts.at(-1);
    assert.ok(last);
    assert.match(last.text, /returned 78.1 KiB of text/);
  });
  test('a result within the bound is left whole', () => {
    assert.deepEqual(m.modelView.resultForModel(completed(text('small')), false, { images: true }), [{ kind: 'text', text: 'small' }]);
  });
  test('an image goes to a model that takes it, and is described to one that does not', () => {
    /** @type {import('../../out/types/protocol/index.js').ContentBlock} */
    const img = { type: 'image', mime_type: 'image/png', data: PNG };
    assert.equal(m.modelView.resultForModel(completed(img), false, { images: true })[0].kind, 'image');
    assert.equal(m.modelView.resultForModel(completed(img), false, { images: undefined })[0].kind, 'image');
    const [d] = /** @type {TextPart[]} */ (m.modelView.resultForModel(completed(img), false, { images: false }));
    assert.equal(d.text, '[the extension sent an image (image/png, 70 B) that is not shown to the model: this model does not take images]');
    const [svg] = /** @type {TextPart[]} */ (m.modelView.resultForModel(completed({ type: 'image', mime_type: 'image/svg+xml', data: 'PHN2Zz48L3N2Zz4=' }), false, { images: true }));
    assert.match(svg.text, /image\/svg\+xml, 11 B.*PNG, JPEG, GIF and WebP/);
  });
  test('an ending other than completion is said in words, after any reason the call carried', () => {
    const [p] = /** @type {TextPart[]} */ (m.modelView.resultForModel({ end: 'not_run', message: 'blocked by extension "g": forbidden by policy', extension: 't', content: [text('forbidden by policy')] }, false, { images: true }));
    assert.equal(p.text, 'forbidden by policy\n(not run: blocked by extension "g": forbidden by policy. The call never reached the extension, so it had no effect.)');
  });
});

describe('the words for each ending', () => {
  /**
   * @param {import('../../src/vscode/chat/callOutcome.js').CallEnd} end
   * @param {string} message
   * @param {boolean} byStop
   */
  const w = (end, message, byStop) => m.callOutcome.wordsForModel({ end, message, extension: 't', content: [] }, byStop);
  test('after Stop every ending says what happened and what to do', () => {
    assert.match(w('canceled', 'canceled; the extension was told to stop', true), /^interrupted: the user pressed Stop.*told to stop.*Ask the user before running it again\.$/);
    assert.match(w('abandoned', 'x', true), /cannot be told to stop.*may still be running.*never arrive/);
    assert.match(w('late_result', 'x', true), /finished the call after Stop.*may have taken effect.*result was dropped/);
    assert.match(w('not_run', m.callOutcome.NEVER_STARTED.message, true), /^not run: the user pressed Stop before this call started\. .*no effect/);
    assert.match(w('disconnected', 'extension "t" exited while the call was pending', true), /^failed: extension "t" exited.*unknown/);
  });
  test('a canceled call answered after Stop becomes late_result, its answer dropped', () => {
    const late = m.callOutcome.lateResult({ end: 'canceled', message: 'canceled', extension: 't', content: [text('finished anyway')] });
    assert.deepEqual(late, { end: 'late_result', message: 'the extension sent its result within 600 ms after Stop', extension: 't', content: [] });
    const [p] = /** @type {TextPart[]} */ (m.modelView.resultForModel(late, true, { images: true }));
    assert.ok(!p.text.includes('finished anyway'));
  });
  test('a timeout keeps the host sentence', () => {
    assert.match(w('timed_out', 'timed out after 60 s; the extension was told to stop', false), /^timed out after 60 s; the extension was told to stop\. The call produced no result/);
  });
});

describe('the history of rounds', () => {
  /**
   * @param {string} id
   * @param {string} t
   * @returns {TextCall}
   */
  const call = (id, t) => ({ callId: id, name: 'echo', tool: 'echo', input: {}, end: 'completed', result: [{ kind: 'text', text: t }] });
  test('a stored result keeps 16 KiB of text and says what it had', () => {
    /** @type {TextPart} */
    const cutNote = { kind: 'text', text: '[cut: the tool returned 5 MiB of text; the model sees the first 64 KiB]', note: true };
    const kept = m.rounds.keepForHistory([{ kind: 'text', text: 'y'.repeat(64 * 1024) }, { kind: 'image', mime: 'image/png', bytes: 70 }, cutNote]);
    assert.equal(Buffer.byteLength(/** @type {TextPart} */ (kept[0]).text), 16 * 1024);
    assert.deepEqual(kept[1], { kind: 'image', mime: 'image/png', bytes: 70 });
    assert.deepEqual(kept[2], cutNote, 'the note of the first cut stays');
    assert.equal(/** @type {TextPart} */ (kept[3]).text, '[cut for the chat history: the model saw 64 KiB of this result\'s text; the first 16 KiB are kept]');
  });
  test('all results together keep to 128 KiB: the oldest give way, with a note of their size', () => {
    const big = 'z'.repeat(16 * 1024);
    const turns = Array.from({ length: 10 }, (_, i) => [{ text: `t${i}`, calls: [call(`c${i}`, big)] }]);
    const bounded = /** @type {(Round & { calls: TextCall[] })[][]} */ (m.rounds.boundHistory(turns));
    const whole = bounded.filter((t) => t[0].calls[0].result[0].text === big).length;
    assert.equal(whole, 8);
    assert.equal(bounded[0][0].calls[0].result[0].text, '[left out of the chat history: this result\'s 16 KiB of text; the history keeps at most 128 KiB of tool results, the newest first]');
    assert.equal(bounded[9][0].calls[0].result[0].text, big);
    assert.equal(turns[0][0].calls[0].result[0].text, big, 'the input is not changed');
  });
  test('rounds read back from metadata only when shaped as written', () => {
    const rounds = [{ text: 'hi', calls: [call('c1', 'r')] }];
    assert.deepEqual(m.rounds.readRounds(JSON.parse(JSON.stringify(rounds))), rounds);
    assert.equal(m.rounds.readRounds([{ text: 'hi', calls: [{ callId: 1 }] }]), undefined);
    assert.equal(m.rounds.readRounds('nope'), undefined);
  });
});

describe('choosing tools', () => {
  /** @type {Tool[]} */
  const tools = Array.from({ length: 200 }, (_, i) => ({ name: `t${i}`, extension: i < 150 ? `ext-${Math.floor(i / 50)}` : 'weather' }));
  test('up to the limit, every tool goes, in the registry\'s order, though the prompt names one and others were used last', () => {
    const fit = tools.slice(0, 128);
    const c = m.toolChoice.chooseTools(fit, 'ask ext-2 about it', ['t120', 't5'], 128);
    assert.deepEqual(c.chosen.map((t) => t.name), fit.map((t) => t.name), 'exactly 128: nothing is reordered');
    assert.deepEqual(c.left, []);
    assert.deepEqual(m.toolChoice.chooseTools(tools.slice(0, 129), 'x', ['t120'], 128).chosen[0].name, 't120', 'one over: the recent one comes first');
  });
  test('tools of extensions named in the prompt first, then the most recently used, then the registry order', () => {
    const c = m.toolChoice.chooseTools(tools, 'ask Weather about it', ['t120', 't5', 't199'], 128);
    assert.equal(c.chosen.length, 128);
    assert.equal(c.left.length, 72);
    assert.deepEqual(c.named, ['weather']);
    assert.deepEqual(c.chosen.slice(0, 50).map((t) => t.extension), Array(50).fill('weather'));
    assert.deepEqual(c.chosen.slice(50, 52).map((t) => t.name), ['t120', 't5']);
    assert.equal(c.chosen[52].name, 't0');
    assert.ok(!c.chosen.some((t) => t.name === 't149'));
  });
  test('terva\'s essential tools are carried first, before those of an extension the prompt names and the recent ones', () => {
    const marked = tools.map((t) => (t.name === 't190' || t.name === 't3' ? { ...t, essential: true } : t));
    const c = m.toolChoice.chooseTools(marked, 'ask Weather about it', ['t120'], 128);
    assert.deepEqual(c.chosen.slice(0, 2).map((t) => t.name), ['t3', 't190']);
    assert.deepEqual(c.chosen.slice(2, 51).map((t) => t.extension), Array(49).fill('weather'), 'the other 49 of weather');
    assert.ok(!c.left.some((t) => t.essential), 'an essential tool is never left out');
  });
  test('a name inside a longer word is not a mention', () => {
    assert.deepEqual(m.toolChoice.chooseTools(tools, 'ext-10 and myweather', [], 128).named, []);
  });
});

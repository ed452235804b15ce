// terva's status segments and secrets in the VS Code layer, in plain Node:
// the status bar text can never draw an icon (VS Code renders `$(name)` as a
// codicon and `\$(name)` as that literal text), and the SecretStorage store
// keeps each extension's secrets under `ext:<manifest name>:<key>`, out of
// every other extension's reach, even for names that hold a colon.
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { after, before, test } from 'node:test';
import { bundleSources, tmpdir } from '../helpers.mjs';

/** @type {string} */
let scratch;
/** @type {typeof import('../../src/vscode/terva/segmentText')} */
let text;
/** @type {typeof import('../../src/vscode/terva/secretStore')} */
let store;

before(async () => {
  scratch = tmpdir('zot-family-unit-');
  ({ segmentText: text, secretStore: store } = await bundleSources(scratch, 'vscode/terva', ['segmentText', 'secretStore']));
});
after(() => rmSync(scratch, { recursive: true, force: true }));

/**
 * What VS Code's status bar shows for a label (its renderLabelWithIcons, same expression): icons as `<icon>`, escaped ones as text.
 * @param {string} label
 */
function rendered(label) {
  return label.replace(/(\\)?\$\(([A-Za-z0-9-]+(?:~[A-Za-z]+)?)\)/g, (_, /** @type {string | undefined} */ escaped, /** @type {string} */ name) => (escaped ? `$(${name})` : `<icon ${name}>`));
}

test('segment text: every "$(" is escaped, so the bar shows exactly what the extension sent and no icon', () => {
  for (const sent of ['$(zap) 3 open', 'a $(x~spin) b $(y)', '\\$(zap)', '\\\\$(zap) $$(a)', 'no icons here', '$(', '$()', '$($(zap))', '$(a b)', 'cost $(5)']) {
    const label = text.escapeIcons(sent);
    const shown = rendered(label);
    assert.ok(!shown.includes('<icon'), `${JSON.stringify(sent)} drew an icon: ${shown}`);
    assert.equal(shown, sent, `${JSON.stringify(sent)} shows as sent`);
  }
});

test('segment item: segments joined with " · ", named "zot: <extension>", a tooltip naming the extension and each segment', () => {
  const entry = { extension: 'todo', segments: [{ id: 'count', text: '$(check) 3 open' }, { id: 'sync', text: 'synced' }] };
  assert.equal(text.segmentItemText(entry), '\\$(check) 3 open · synced');
  assert.equal(text.segmentsLine(entry), '$(check) 3 open · synced');
  assert.equal(text.segmentItemName('todo'), 'zot: todo');
  const tip = text.segmentTooltip(entry);
  assert.match(tip, /^zot extension todo\n/);
  assert.ok(tip.includes('count: $(check) 3 open\nsync: synced\n'), tip);
});

/**
 * A stand-in SecretStorage: a map, and what was asked of it.
 * @returns {import('../../src/vscode/terva/secretStore').SecretStorageLike & { map: Map<string, string> }}
 */
function storage() {
  /** @type {Map<string, string>} */
  const map = new Map();
  return {
    map,
    get: async (k) => map.get(k),
    store: async (k, v) => void map.set(k, v),
    delete: async (k) => void map.delete(k),
    keys: async () => [...map.keys()],
  };
}

test('secret store: keys are ext:<name>:<key>, listed sorted, one extension never sees another\'s', async () => {
  const s = storage();
  s.map.set('config:todo:token', 'a setting\'s secret, not an extension\'s');
  const st = new store.VsCodeSecretStore(s);
  await st.set('todo', 'b', 'v-b');
  await st.set('todo', 'a:x', 'v-ax');
  await st.set('todo-two', 'a', 'v-other');
  assert.deepEqual([...s.map.keys()].sort(), ['config:todo:token', 'ext:todo-two:a', 'ext:todo:a:x', 'ext:todo:b']);
  assert.equal(await st.get('todo', 'b'), 'v-b');
  assert.equal(await st.get('todo', 'a'), undefined);
  assert.deepEqual(await st.keys('todo'), ['a:x', 'b']);
  assert.deepEqual(await st.keys('todo-two'), ['a']);
  assert.deepEqual(await st.keys('nobody'), []);
  await st.delete('todo', 'b');
  await st.delete('todo', 'missing');
  assert.deepEqual(await st.keys('todo'), ['a:x']);
  assert.deepEqual(await st.extensions(), [{ extension: 'todo', count: 1 }, { extension: 'todo-two', count: 1 }]);
  assert.equal(await st.forget('todo'), 1);
  assert.equal(await st.forget('todo'), 0);
  assert.deepEqual([...s.map.keys()].sort(), ['config:todo:token', 'ext:todo-two:a']);
});

test('secret store: a name with ":" or "%" cannot reach the secrets of a name it starts with, nor they its', async () => {
  const s = storage();
  const st = new store.VsCodeSecretStore(s);
  await st.set('a', 'b:k', 'of a');
  await st.set('a:b', 'k', 'of a:b');
  await st.set('a%3Ab', 'k', 'of a%3Ab');
  assert.equal(store.storageKey('a:b', 'k'), 'ext:a%3Ab:k');
  assert.equal(store.storageKey('a%3Ab', 'k'), 'ext:a%253Ab:k');
  assert.deepEqual(store.parseStorageKey('ext:a%3Ab:k'), { extension: 'a:b', key: 'k' });
  assert.equal(store.parseStorageKey('ext:a%zz:k'), undefined, 'not one this store wrote');
  assert.equal(store.parseStorageKey('config:a:k'), undefined);
  assert.deepEqual(await st.keys('a'), ['b:k']);
  assert.deepEqual(await st.keys('a:b'), ['k']);
  assert.deepEqual(await st.keys('a%3Ab'), ['k']);
  assert.equal(await st.get('a:b', 'k'), 'of a:b');
  assert.equal(await st.forget('a'), 1);
  assert.equal(await st.get('a:b', 'k'), 'of a:b', 'forgetting "a" left "a:b" alone');
  assert.equal(await st.get('a%3Ab', 'k'), 'of a%3Ab');
});

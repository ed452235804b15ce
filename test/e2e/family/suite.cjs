// Runs inside VS Code's extension host (see ../family.test.mjs): terva's
// status segments as status bar items, and its secrets kept in VS Code's
// SecretStorage, with the fixture extension "family".
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const vscode = require('vscode');
const { test, runAll, waitFor } = require('../vscode/suite/runner.cjs');
const { activated, exec, logs, testApi, waitState, waitEvents, trace } = require('../vscode/suite/helpers.cjs');

const fixtureDir = path.join(process.env.ZOT_HOME, 'extensions', 'family');
/** Written by the outer test once the browser showed the item (../family.test.mjs). */
const domSeen = process.env.ZOT_E2E_RESULTS + '.dom.json';

const items = () => testApi().segmentItems();
const familyItem = async () => (await items()).find((i) => i.extension === 'family');

test('the extension activates and family is ready', async () => {
  await activated();
  await waitState('family', 'ready');
});

test('a status segment makes one status bar item: its text, name, tooltip and a click that shows the log', async () => {
  await exec('zot.runCommand', 'seg', 'count $(zap) 3 open');
  const item = await waitFor('the segment item', familyItem);
  assert.equal(item.text, '\\$(zap) 3 open', 'the icon syntax is escaped');
  assert.equal(item.name, 'zot: family');
  assert.match(item.tooltip, /family/);
  assert.match(item.tooltip, /count: \$\(zap\) 3 open/);
  assert.equal(item.command, 'zot.showLog');
  assert.deepEqual(item.arguments, ['family']);
  await exec('zot.runCommand', 'seg', 'sync synced');
  await waitFor('two segments joined', async () => (await familyItem())?.text === '\\$(zap) 3 open · synced');
  // The browser shows the literal text and no icon: the outer test looked at the page.
  const dom = JSON.parse(await waitFor('the outer test to see the item in the page', () => fs.existsSync(domSeen) && fs.readFileSync(domSeen, 'utf8'), 30_000));
  assert.equal(dom.text, '$(zap) 3 open · synced', JSON.stringify(dom));
  assert.equal(dom.icons, 0, 'no codicon inside the item');
});

test('clearing every segment removes the item; a new one brings it back; stopping the extension removes it', async () => {
  await exec('zot.runCommand', 'seg', 'count');
  await waitFor('one segment left', async () => (await familyItem())?.text === 'synced');
  await exec('zot.runCommand', 'seg', 'sync');
  await waitFor('the item gone', async () => (await familyItem()) === undefined);
  await exec('zot.runCommand', 'seg', 'count 4 open');
  await waitFor('the item back', async () => (await familyItem())?.text === '4 open');
  await exec('zot.stopExtension', 'family');
  await waitState('family', 'stopped');
  await waitFor('the item gone with its extension', async () => (await familyItem()) === undefined);
  assert.deepEqual(await items(), []);
  await exec('zot.startExtension', 'family');
  await waitState('family', 'ready');
  assert.equal(await familyItem(), undefined, 'a new launch starts with no segments');
});

test('a secret round trip through SecretStorage: the real answers, and the value in no log', async () => {
  const answersFile = path.join(fixtureDir, 'answers.json');
  // The fixture makes the value itself: it never travels in a command's arguments (which the trace shows).
  await exec('zot.runCommand', 'secrets', '');
  const { value, answers } = JSON.parse(await waitFor('the answers', () => fs.existsSync(answersFile) && fs.readFileSync(answersFile, 'utf8')));
  assert.match(value, /^tok-[0-9a-f]{24}$/);
  assert.deepEqual(answers, [
    { sent: 'secret_set', answer: { type: 'secret_ack' } },
    { sent: 'secret_get', answer: { type: 'secret_value', found: true, value } },
    { sent: 'secret_list', answer: { type: 'secret_keys', keys: ['token'] } },
    { sent: 'secret_delete', answer: { type: 'secret_ack' } },
    { sent: 'secret_get', answer: { type: 'secret_value', found: false } },
    { sent: 'secret_list', answer: { type: 'secret_keys', keys: null } },
  ]);
  assert.equal(await testApi().hasSecret('family', 'token'), false);
  const all = JSON.stringify(await logs());
  assert.ok(all.includes('secret_set'), 'the verbose protocol trace was on and wrote the frames');
  assert.ok(!all.includes(value), 'the value is in no log');
});

test('Forget Extension Secrets deletes one extension\'s secrets and says how many', async () => {
  await exec('zot.runCommand', 'keep', 'alpha');
  await exec('zot.runCommand', 'keep', 'beta');
  const kept = JSON.parse(fs.readFileSync(path.join(fixtureDir, 'kept.json'), 'utf8'));
  assert.deepEqual(Object.keys(kept).sort(), ['alpha', 'beta']);
  assert.equal(await testApi().hasSecret('family', 'alpha'), true);
  assert.deepEqual(await testApi().secretKeys('family'), ['alpha', 'beta']);
  await trace(true);
  assert.equal(await exec('zot.forgetSecrets', 'family'), 2);
  await waitEvents('message', (e) => e.text === 'Forgot 2 secrets of family.');
  assert.deepEqual(await testApi().secretKeys('family'), []);
  assert.equal(await exec('zot.forgetSecrets', 'family'), 0);
  const commands = await vscode.commands.getCommands(true);
  assert.ok(commands.includes('zot.forgetSecrets'));
  const all = JSON.stringify(await logs());
  for (const v of Object.values(kept)) assert.ok(!all.includes(v), 'a kept value is in no log');
});

exports.run = runAll;

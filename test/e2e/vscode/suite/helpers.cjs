// What the suites share: reading back the extension's state through its test
// hooks (registered because the server sets ZOT_TEST_HOOKS=1).
const assert = require('node:assert/strict');
const vscode = require('vscode');
const { waitFor } = require('./runner.cjs');

const EXTENSION_ID = 'zot-host.zot-extensions';

const exec = (command, ...args) => vscode.commands.executeCommand(command, ...args);
const snapshot = () => exec('zot._test.snapshot');
const trace = (clear = false) => exec('zot._test.trace', { clear });
const logs = () => exec('zot._test.logs');
const states = (name) => exec('zot._test.states', name);

async function extension(name) {
  return (await snapshot()).extensions.find((e) => e.name === name);
}

/** Waits until the extension is in one of `wanted` states; returns its snapshot. */
function waitState(name, wanted, timeoutMs = 20_000) {
  const set = Array.isArray(wanted) ? wanted : [wanted];
  return waitFor(`${name} to be ${set.join(' or ')}`, async () => {
    const e = await extension(name);
    return e && set.includes(e.state) ? e : undefined;
  }, timeoutMs);
}

/** The tree item of an extension (with its children). */
async function treeItem(name) {
  return (await snapshot()).tree.find((i) => i.label === name);
}

async function activated() {
  const ext = vscode.extensions.getExtension(EXTENSION_ID);
  assert.ok(ext, `${EXTENSION_ID} is installed`);
  await waitFor(`${EXTENSION_ID} to activate by itself`, () => ext.isActive, 30_000);
  return ext;
}

/** Trace events of a kind since the last clear. */
async function events(kind, filter = () => true) {
  return (await trace()).filter((e) => e.kind === kind && filter(e));
}

/** Waits for trace events of a kind (an empty list does not count); returns them. */
function waitEvents(kind, filter = () => true, timeoutMs = 20_000) {
  return waitFor(`a "${kind}" event`, async () => {
    const found = await events(kind, filter);
    return found.length > 0 && found;
  }, timeoutMs);
}

module.exports = { waitEvents, EXTENSION_ID, exec, snapshot, trace, logs, states, extension, waitState, treeItem, activated, events, waitFor };

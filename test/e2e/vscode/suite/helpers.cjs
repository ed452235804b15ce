// What the suites share: reading back the extension's state through its test
// API, the exports of the test bundle (the VSIX of `npm run package:test`;
// the shipped one returns nothing from activate()).
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { pathToFileURL } = require('node:url');
const vscode = require('vscode');
const { waitFor } = require('./runner.cjs');

const EXTENSION_ID = 'zot-host.zot-extensions';

const exec = (command, ...args) => vscode.commands.executeCommand(command, ...args);

/** The test API (src/vscode/testing/testApi.ts) of the active extension. */
function testApi() {
  const ext = vscode.extensions.getExtension(EXTENSION_ID);
  if (!ext?.isActive) throw new Error(`${EXTENSION_ID} is not active yet`);
  if (typeof ext.exports?.snapshot !== 'function') throw new Error(`${EXTENSION_ID} returned no test API: is the test bundle installed (npm run package:test)?`);
  return ext.exports;
}
const snapshot = async () => testApi().snapshot();
const trace = async (clear = false) => testApi().trace({ clear });
const logs = async () => testApi().logs();
const states = async (name) => testApi().states(name);

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

/**
 * What the harness promises of a window (test/e2e/harness.mjs): the extension
 * runs from the folder --install-extension unpacked its VSIX into (as a user
 * has it, not as the development extension), and the window's workspace folder
 * is the one the test opened ($ZOT_E2E_FOLDER), as a file URI of its real path.
 */
function assertInstalledAndOpened(ext) {
  const extensionsDir = fs.realpathSync(process.env.ZOT_E2E_EXTENSIONS_DIR);
  assert.equal(path.dirname(fs.realpathSync(ext.extensionPath)), extensionsDir, `${EXTENSION_ID} runs from ${ext.extensionPath}`);
  assert.equal(ext.packageJSON.publisher, 'zot-host');
  assert.equal(vscode.workspace.workspaceFolders?.[0]?.uri.toString(), pathToFileURL(fs.realpathSync(process.env.ZOT_E2E_FOLDER)).href);
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

module.exports = { waitEvents, EXTENSION_ID, exec, testApi, snapshot, trace, logs, states, extension, waitState, treeItem, activated, assertInstalledAndOpened, events, waitFor };

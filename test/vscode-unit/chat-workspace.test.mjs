// terva's workspace_changed from @zot (src/vscode/chat/workspaceWatch.ts,
// bundled from src) against a real host, a real extension and real files:
// the workspace folder is watched while a request runs (the stand-in's
// watcher is node's fs.watch over a temporary folder), and once run_end is
// out the extension gets one event with the net change, sorted, with .git,
// files.watcherExclude and .gitignore left out; nothing when nothing
// changed, and no watcher at all when no extension subscribes.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { appendFileSync, mkdirSync, mkdtempSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { bundleSources, lib, makeExt, ROOT, sleep, startHost, tmpdir, waitFor, ownFields } from '../helpers.mjs';

/** @typedef {import('../helpers.mjs').TestHost} TestHost */
/**
 * The stand-in for 'vscode' (test/vscode-chat-api.cjs) as the chat code sees it, with what a test sets and reads on it.
 * @typedef {Omit<typeof import('vscode'), 'workspace'> & {
 *   workspace: Omit<typeof import('vscode').workspace, 'workspaceFolders'> & { workspaceFolders: readonly import('vscode').WorkspaceFolder[] | undefined, settings: Record<string, unknown> },
 *   participants: Map<string, { handler: import('vscode').ChatRequestHandler }>,
 *   fileWatchers: { made: number, open: number },
 * }} ChatApi
 */

const require = createRequire(import.meta.url);
/** @type {string} */
let scratch;
/** @type {import('../bundled').Bundled<'vscode/chat', 'participant' | 'workspaceWatch'>} */
let m;
/** @type {ChatApi} */
let vscode;

before(async () => {
  scratch = mkdtempSync(path.join(os.tmpdir(), 'zot-chat-workspace-'));
  mkdirSync(path.join(scratch, 'node_modules', 'vscode'), { recursive: true });
  writeFileSync(path.join(scratch, 'node_modules', 'vscode', 'index.js'), `module.exports = require(${JSON.stringify(path.join(ROOT, 'test', 'vscode-chat-api.cjs'))});\n`);
  m = await bundleSources(scratch, 'vscode/chat', ['participant', 'workspaceWatch'], { external: ['vscode'] });
  // Partial: the stand-in has only the part of the API the chat uses.
  vscode = /** @type {ChatApi} */ (require(path.join(scratch, 'node_modules', 'vscode')));
});
after(() => {
  vscode.workspace.workspaceFolders = undefined;
  rmSync(scratch, { recursive: true, force: true });
});

const hasGit = (() => {
  try {
    execFileSync('git', ['--version']);
    return true;
  } catch {
    return false;
  }
})();

/**
 * A workspace folder on disk, in a git repository, opened as the only workspace folder.
 * @param {Record<string, string>} files
 */
function workspaceFolder(files) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'zot-ws-'));
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    writeFileSync(path.join(dir, rel), text);
  }
  if (hasGit) execFileSync('git', ['init', '-q'], { cwd: dir });
  vscode.workspace.workspaceFolders = [{ uri: vscode.Uri.file(dir), name: path.basename(dir), index: 0 }];
  vscode.workspace.settings = { 'files.watcherExclude': { '**/node_modules/*/**': true } };
  return dir;
}

/**
 * A model whose one step runs `work` (the request's changes to the disk), then answers.
 * @param {() => unknown} work
 */
function modelThat(work) {
  // Partial: what the model loop reads of a model, and a reply with a stream only.
  return /** @type {import('vscode').LanguageModelChat} */ (/** @type {unknown} */ ({
    vendor: 'test', id: 'scripted', capabilities: {},
    sendRequest: async () => {
      await work();
      return { stream: (async function* () { yield new vscode.LanguageModelTextPart('done'); })() };
    },
  }));
}

/** @param {TestHost} host */
function chat(host) {
  // Partial: the extension's context and trace as the participant uses them.
  const context = /** @type {import('vscode').ExtensionContext} */ (/** @type {unknown} */ ({ extensionUri: { path: '/ext' }, subscriptions: [] }));
  const replies = /** @type {import('../../src/vscode/ui/trace').UiTrace} */ (/** @type {unknown} */ ({ record: () => undefined }));
  m.participant.registerChatParticipant(context, { host: () => host, reload: () => host.reload(), maxSteps: () => 5, replies });
  const participant = vscode.participants.get(m.participant.PARTICIPANT_ID);
  assert.ok(participant, 'the participant is registered');
  const handler = participant.handler;
  // Partial: the request and the response stream as the participant uses them.
  /** @type {(prompt: string, model: import('vscode').LanguageModelChat) => ReturnType<import('vscode').ChatRequestHandler>} */
  return (prompt, model) => handler(/** @type {import('vscode').ChatRequest} */ (/** @type {unknown} */ ({ prompt, model })), { history: [] }, /** @type {import('vscode').ChatResponseStream} */ (/** @type {unknown} */ ({ markdown: () => undefined, progress: () => undefined })), new lib.CancellationTokenSource().token);
}

/**
 * @param {TestHost} host
 * @param {string} name
 */
const changed = (host, name) => host.received(name, 'event').filter((e) => e.event === 'workspace_changed');
/** Long enough for the watcher to report one change before the next. */
const STEP_MS = 80;

test('a request that changes files sends one workspace_changed after run_end: the net change, sorted, without .git, watcherExclude and .gitignore matches', { skip: !hasGit && 'git is not installed' }, async (t) => {
  const dir = workspaceFolder({ '.gitignore': '*.log\n', 'keep.txt': 'k', 'old.txt': 'o', 'again.txt': 'a', 'sub/inner.txt': 'i' });
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const watch = makeExt(tmpdir(), 'watch', { subscribe: { events: ['workspace_changed', 'run_end'] } });
  const host = await startHost(t, [watch], { cwd: dir });
  await waitFor('the subscription', () => host.get('watch')?.events.has('workspace_changed'));
  const made = vscode.fileWatchers.made;
  const ask = chat(host);
  const p = (/** @type {string} */ rel) => path.join(dir, rel);
  await ask('reorganise', modelThat(async () => {
    const steps = [
      () => writeFileSync(p('new.txt'), 'n'),
      () => writeFileSync(p('tmp.txt'), 't'), () => unlinkSync(p('tmp.txt')),
      () => appendFileSync(p('keep.txt'), '+'),
      () => unlinkSync(p('old.txt')),
      () => unlinkSync(p('again.txt')), () => writeFileSync(p('again.txt'), 'b'),
      () => writeFileSync(p('debug.log'), 'ignored by .gitignore'),
      () => mkdirSync(p('node_modules/pkg'), { recursive: true }), () => writeFileSync(p('node_modules/pkg/index.js'), 'excluded'),
      () => writeFileSync(p('.git/zot-note'), 'skipped'),
      () => mkdirSync(p('made')), () => writeFileSync(p('made/f.txt'), 'f'),
      () => appendFileSync(p('sub/inner.txt'), '+'),
      () => appendFileSync(p('new.txt'), '+'),
    ];
    for (const step of steps) {
      step();
      await sleep(STEP_MS);
    }
  }));
  const [event] = await waitFor('workspace_changed', () => changed(host, 'watch').length && changed(host, 'watch'));
  assert.deepEqual(ownFields(event), { type: 'event', event: 'workspace_changed', files: [
    { path: 'again.txt', change: 'modified' },
    { path: 'keep.txt', change: 'modified' },
    { path: 'made/f.txt', change: 'added' },
    { path: 'new.txt', change: 'added' },
    { path: 'old.txt', change: 'deleted' },
    { path: 'sub/inner.txt', change: 'modified' },
  ] });
  const events = host.received('watch', 'event').map((e) => e.event);
  assert.deepEqual(events, ['run_end', 'workspace_changed'], 'after run_end, once');
  assert.equal(vscode.fileWatchers.made - made, 1, 'one watcher for the request');
  assert.equal(vscode.fileWatchers.open, 0, 'disposed once the list is made');
  await sleep(4 * m.workspaceWatch.WORKSPACE_SETTLE_MS);
  assert.equal(changed(host, 'watch').length, 1, 'sent once');
});

test('a request that changes nothing sends nothing; the next one sends only its own change', async (t) => {
  const dir = workspaceFolder({ 'a.txt': 'a' });
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const watch = makeExt(tmpdir(), 'watch', { subscribe: { events: ['workspace_changed', 'run_end'] } });
  const host = await startHost(t, [watch], { cwd: dir });
  await waitFor('the subscription', () => host.get('watch')?.events.has('workspace_changed'));
  const ask = chat(host);
  await ask('look only', modelThat(async () => sleep(STEP_MS)));
  await waitFor('run_end', () => host.received('watch', 'event').some((e) => e.event === 'run_end'));
  await sleep(2 * m.workspaceWatch.WORKSPACE_SETTLE_MS);
  assert.equal(vscode.fileWatchers.open, 0);
  await ask('now write', modelThat(async () => {
    writeFileSync(path.join(dir, 'b.txt'), 'b');
    await sleep(STEP_MS);
  }));
  await waitFor('workspace_changed', () => changed(host, 'watch').length);
  await sleep(2 * m.workspaceWatch.WORKSPACE_SETTLE_MS);
  assert.deepEqual(host.received('watch', 'event').map((e) => e.event), ['run_end', 'run_end', 'workspace_changed']);
  assert.deepEqual(changed(host, 'watch')[0].files, [{ path: 'b.txt', change: 'added' }]);
});

test('with no extension subscribed to workspace_changed, nothing is watched', async (t) => {
  const dir = workspaceFolder({ 'a.txt': 'a' });
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const plain = makeExt(tmpdir(), 'plain', { subscribe: { events: ['run_end'] } });
  const host = await startHost(t, [plain], { cwd: dir });
  await waitFor('the subscription', () => host.get('plain')?.events.has('run_end'));
  const made = vscode.fileWatchers.made;
  await chat(host)('write', modelThat(async () => writeFileSync(path.join(dir, 'c.txt'), 'c')));
  await waitFor('run_end', () => host.received('plain', 'event').length);
  assert.equal(vscode.fileWatchers.made, made);
});

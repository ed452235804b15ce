// The editor's consent gate (src/vscode/trust/workspaceGate.ts) against a
// stand-in of the VS Code API: a project extension is held and asked about in
// a notification whose buttons are in VS Code's language; the answer the user
// clicks, in that language, allows or refuses it (German: "Zulassen",
// "Nicht zulassen", from the extension's own l10n bundle). The decision and
// the fingerprint are the product's own, over a real folder.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { bundleSources, ROOT, tmpdir, vscodeStandIn, waitFor } from '../helpers.mjs';

/** @type {Record<string, string>} */
const GERMAN = JSON.parse(readFileSync(path.join(ROOT, 'l10n', 'bundle.l10n.de.json'), 'utf8'));

/** What the gate reaches for in VS Code: trust, folders, a notification the test answers, an emitter. */
const VSCODE_STUB = `
class EventEmitter { constructor() { this.fns = []; this.event = (fn) => { this.fns.push(fn); return { dispose() {} }; }; } fire(v) { for (const f of this.fns) f(v); } dispose() {} }
const state = { trusted: true, folders: [], asked: [], answer: undefined, commands: [] };
module.exports = {
  state, EventEmitter,
  Uri: { file: (p) => ({ fsPath: p }) },
  workspace: {
    get isTrusted() { return state.trusted; },
    get workspaceFolders() { return state.folders; },
    getWorkspaceFolder: (uri) => state.folders.find((f) => uri.fsPath.startsWith(f.uri.fsPath + '/')),
  },
  window: {
    showInformationMessage: async (message, ...choices) => { state.asked.push({ message, choices }); return typeof state.answer === 'function' ? state.answer(message, choices) : state.answer; },
    showWarningMessage: async (message, ...choices) => { state.asked.push({ message, choices, warning: true }); return undefined; },
  },
  commands: { executeCommand: async (...args) => { state.commands.push(args); } },
};
`;

/** @type {string} */
let scratch;
/** @type {import('../bundled').Bundled<'vscode', 'trust/workspaceGate' | 'l10n'> & { vscode: { state: { trusted: boolean, folders: unknown[], asked: { message: string, choices: string[], warning?: boolean }[], answer: string | undefined | (() => string | undefined | Promise<string | undefined>) } } }} */
let m;
before(async () => {
  scratch = tmpdir('zot-gate-');
  const vscode = vscodeStandIn(scratch, VSCODE_STUB);
  m = { ...(await bundleSources(scratch, 'vscode', ['trust/workspaceGate', 'l10n'], { external: ['vscode'], together: true })), vscode };
});
after(() => rmSync(scratch, { recursive: true, force: true }));

/**
 * A project with one extension in .zot/extensions, the gate over it, and what the gate did to the host.
 * @param {string} name
 */
function project(name) {
  const root = tmpdir('zot-gate-project-');
  const dir = path.join(root, '.zot', 'extensions', name);
  mkdirSync(dir, { recursive: true });
  const manifest = { name, version: '1.0.0', exec: 'node', args: ['index.js'] };
  writeFileSync(path.join(dir, 'extension.json'), JSON.stringify(manifest));
  writeFileSync(path.join(dir, 'index.js'), '// the extension\n');
  m.vscode.state.folders = [{ uri: { fsPath: root }, name: 'proj', index: 0 }];
  const found = /** @type {import('../../out/types/host/index.js').FoundExtension} */ (/** @type {unknown} */ ({ name, dir, source: 'project', manifest, projectDir: root }));
  /** @type {Map<string, unknown>} */
  const memento = new Map();
  /** @type {string[]} */
  const did = [];
  const rt = { dir, found, status: { kind: 'held' } };
  // Partial: the gate reads the view and starts or holds by name.
  const manager = /** @type {import('../../src/vscode/core/hostManager').HostManager} */ (/** @type {unknown} */ ({
    view: { get: (/** @type {string} */ n) => (n === name ? rt : undefined) },
    startExtension: async (/** @type {string} */ n) => void did.push(`start ${n}`),
    holdExtension: async (/** @type {string} */ n, /** @type {string} */ hold) => void did.push(`hold ${n} ${hold}`),
  }));
  // Partial: a memento the test reads.
  const store = /** @type {import('vscode').Memento} */ (/** @type {unknown} */ ({ get: (/** @type {string} */ k) => memento.get(k), update: async (/** @type {string} */ k, /** @type {unknown} */ v) => void memento.set(k, v) }));
  // Partial: the gate only writes to them.
  const logs = /** @type {import('../../src/vscode/ui/logs').LogChannels} */ (/** @type {unknown} */ ({ hostLog() {} }));
  const trace = /** @type {import('../../src/vscode/ui/trace').UiTrace} */ (/** @type {unknown} */ ({ record() {} }));
  const gate = new m.workspaceGate.WorkspaceGate(store, () => manager, logs, trace);
  const allowed = () => Object.values(/** @type {Record<string, { allowed: boolean }>} */ (memento.get('zot.consent.v1') ?? {})).map((r) => r.allowed);
  return { found, gate, did, allowed, rt, dir };
}

/** VS Code's translator for German, as vscode.l10n.t gives it: the bundle's message, with its {n} filled in. */
const german = (/** @type {string} */ message, /** @type {Array<string | number | boolean>} */ ...args) => m.l10n.english(GERMAN[message] ?? message, ...args);

for (const [language, translator, allow, deny] of /** @type {const} */ ([['English', undefined, 'Allow', "Don't Allow"], ['German', german, 'Zulassen', 'Nicht zulassen']])) {
  test(`in ${language}: the question's buttons are "${allow}" and "${deny}"; clicking "${allow}" allows and starts it, "${deny}" records the refusal and keeps it held`, async (t) => {
    m.l10n.useTranslator(translator ?? m.l10n.english);
    t.after(() => m.l10n.useTranslator(m.l10n.english));
    for (const [choice, expect] of /** @type {const} */ ([[allow, true], [deny, false]])) {
      const p = project(`proj-${language.toLowerCase()}-${expect ? 'yes' : 'no'}`);
      m.vscode.state.asked = [];
      m.vscode.state.answer = choice;
      const decision = await p.gate.gate(p.found);
      assert.equal(decision.start, false, 'held until the user answers');
      await waitFor('the answer carried out', () => p.did.length === 1, 5_000);
      const [asked] = m.vscode.state.asked;
      assert.deepEqual(asked.choices, [allow, deny]);
      if (language === 'German') assert.match(asked.message, /^Der Arbeitsbereich möchte die zot-Erweiterung "proj-german-\w+" ausführen: „node index\.js“ in \.zot\/extensions\/proj-german-\w+\. Zulassen\?/);
      assert.deepEqual(p.did, expect ? [`start ${p.found.name}`] : [`hold ${p.found.name} denied`]);
      assert.deepEqual(p.allowed(), [expect]);
      // Asked once: the next start of the same code goes by the answer.
      const again = await p.gate.gate(p.found);
      assert.deepEqual(again.start ? again : { start: again.start, hold: again.hold }, expect ? { start: true } : { start: false, hold: 'denied' });
      assert.equal(m.vscode.state.asked.length, 1);
    }
  });
}

test('an answer that is not a button shown (the English word in a German VS Code, or the notification closed) allows nothing and records nothing', async () => {
  m.l10n.useTranslator(german);
  try {
    for (const answer of ['Allow', undefined]) {
      const p = project(`proj-${answer ?? 'closed'}`.toLowerCase());
      m.vscode.state.asked = [];
      m.vscode.state.answer = answer;
      assert.equal((await p.gate.gate(p.found)).start, false);
      await waitFor('asked', () => m.vscode.state.asked.length === 1);
      await new Promise((r) => setTimeout(r, 200));
      assert.deepEqual(p.did, [], String(answer));
      assert.deepEqual(p.allowed(), []);
    }
  } finally {
    m.l10n.useTranslator(m.l10n.english);
  }
});

test('the code changed while the user was asked: the answer does not count, and the question comes again about the new code', async () => {
  const p = project('proj-changed');
  let n = 0;
  m.vscode.state.asked = [];
  m.vscode.state.answer = () => {
    // The first time, the code changes before the click.
    if (n++ === 0) writeFileSync(path.join(p.dir, 'index.js'), '// changed meanwhile\n');
    return 'Allow';
  };
  assert.equal((await p.gate.gate(p.found)).start, false);
  await waitFor('allowed on the second question', () => p.did.length === 1, 5_000);
  assert.equal(m.vscode.state.asked.length, 2, 'asked again');
  assert.deepEqual(p.did, ['start proj-changed']);
  assert.deepEqual(p.allowed(), [true]);
});

test('a question whose extension is now another folder\'s, or asked twice about the same code, or answered in an untrusted workspace, allows nothing', async () => {
  // Another folder's extension of the same name is the one known now (a folder was removed or reordered).
  const moved = project('proj-moved');
  m.vscode.state.asked = [];
  m.vscode.state.answer = () => {
    moved.rt.dir = '/elsewhere/proj-moved';
    return 'Allow';
  };
  await moved.gate.gate(moved.found);
  await waitFor('asked', () => m.vscode.state.asked.length === 1);
  await new Promise((r) => setTimeout(r, 200));
  assert.deepEqual(moved.did, []);
  assert.equal(moved.gate.canAllow('proj-moved'), false, 'no Allow offered for the folder not held');
  // Discovery and the launch both ask the gate: one question on screen.
  const twice = project('proj-twice');
  m.vscode.state.asked = [];
  m.vscode.state.answer = () => new Promise(() => undefined);
  await twice.gate.gate(twice.found);
  await twice.gate.gate(twice.found);
  await new Promise((r) => setTimeout(r, 200));
  assert.equal(m.vscode.state.asked.length, 1);
  assert.equal(twice.gate.canAllow('proj-twice'), true, 'held, in a trusted workspace: the view offers Allow');
  // Untrusted: neither offered nor done; the user is told to trust the workspace first.
  m.vscode.state.trusted = false;
  try {
    assert.equal(twice.gate.canAllow('proj-twice'), false);
    assert.equal(await twice.gate.allow('proj-twice'), false);
    assert.deepEqual(twice.did, []);
    assert.deepEqual(m.vscode.state.asked.at(-1)?.choices, ['Manage Workspace Trust']);
  } finally {
    m.vscode.state.trusted = true;
  }
});

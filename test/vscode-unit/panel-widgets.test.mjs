// terva's panel widgets in the VS Code layer, in plain Node: the page's
// scripts (media/panel/widgets.js and panel.js) run against a small stand-in
// DOM that refuses markup, and the webview and QuickPick presenters run
// against a stand-in of the VS Code API that records what they show.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import vm from 'node:vm';
import { after, before, test } from 'node:test';
import { bundleSources, lib, ROOT } from '../helpers.mjs';

const require = createRequire(import.meta.url);
const WIDGETS_JS = readFileSync(path.join(ROOT, 'media', 'panel', 'widgets.js'), 'utf8');
const PANEL_JS = readFileSync(path.join(ROOT, 'media', 'panel', 'panel.js'), 'utf8');

/** @typedef {import('../../out/types/protocol/index.js').Widget} Widget */
/** @typedef {import('../../src/protocol/pageContract.js').ToWebview} ToWebview */
/** @typedef {{ target: FakeElement }} ClickEvent */
/**
 * The stand-in document: what the page's scripts reach for.
 * @typedef {{
 *   activeElement: FakeElement, title: string, listeners: Map<string, (e: KeyEvent) => void>, body: FakeElement,
 *   createElement(tag: string): FakeElement, getElementById(id: string): FakeElement | null, addEventListener(type: string, fn: (e: KeyEvent) => void): void,
 * }} FakeDocument
 */
/**
 * A key event as the page's keydown listener gets it.
 * @typedef {{
 *   key: string, target: FakeElement, isComposing: boolean, ctrlKey: boolean, metaKey: boolean, altKey: boolean, shiftKey: boolean,
 *   defaultPrevented: boolean, getModifierState(key: string): boolean, preventDefault(): void,
 * }} KeyEvent
 */
/** @typedef {{ type: string, key?: string, text?: string, id?: string }} PageMessage What the page posts to the extension, as JSON. */
/** @typedef {{ fire(value?: unknown): void }} StubEmitter The stand-in's event emitter (VSCODE_STUB). */
/** @typedef {import('vscode').QuickPickItem & { index: number, action?: string }} LineItem A QuickPick row as the presenter makes it. */
/**
 * The stand-in of the VS Code API, as the test reads it: what its windows made, each with what the presenters gave it.
 * @typedef {{
 *   made: {
 *     webviews: (import('vscode').WebviewPanel & { posted: ToWebview[], receive(m: unknown): void })[],
 *     quickPicks: (import('vscode').QuickPick<LineItem> & { ev: Record<'active' | 'accept' | 'value' | 'hide' | 'button', StubEmitter> })[],
 *   },
 * }} VscodeStandIn
 */

/**
 * terva's example tree (docs/TERVA.md 21), as validation leaves it, plus a hostile string.
 * @type {Widget[]}
 */
const LEDGER = [
  { type: 'heading', text: 'March close', level: 1 },
  { type: 'text', text: 'Three accounts still differ.', tone: 'muted' },
  { type: 'meter', label: 'reconciled', value: 9, max: 12, unit: 'accounts' },
  { type: 'keyvalue', rows: [{ key: 'ledger file', value: 'books/2026-03.ledger', mono: true }, { key: 'difference', value: '0.03 EUR', note: 'rounding suspected' }] },
  { type: 'table', columns: ['account', 'ledger', 'bank'], cells: [['4010', '1200.00', '1200.00'], ['4020', '88.13', '88.10']] },
  { type: 'list', items: [{ text: '4020 office supplies', note: 'off by 0.03', tone: 'danger', action_id: 'open-4020' }, { text: '4030 travel', tone: 'ok' }] },
  { type: 'group', children: [{ type: 'note', text: '<img src=x onerror=alert(1)>', tone: 'warn' }, { type: 'action', text: 'Export CSV', action_id: 'export-csv' }] },
  { type: 'divider' },
  { type: 'action', text: 'Reconcile again', action_id: 'reconcile' },
];

// ---- a stand-in DOM: enough of it for the panel's scripts, and no way in for markup ----

class FakeElement {
  /**
   * @param {FakeDocument} doc
   * @param {string} tag
   */
  constructor(doc, tag) {
    this.ownerDocument = doc;
    this.tagName = tag.toUpperCase();
    /** @type {FakeElement[]} */
    this.children = [];
    /** @type {FakeElement | null} */
    this.parentNode = null;
    this.className = '';
    this.id = '';
    this.hidden = false;
    /** @type {Record<string, string>} */
    this.dataset = {};
    /** @type {Record<string, string>} */
    this.style = {};
    /** @type {Map<string, string>} */
    this.attrs = new Map();
    /** @type {Map<string, ((e: ClickEvent) => void)[]>} */
    this.listeners = new Map();
    this.text = '';
  }
  /** @returns {string} */
  get textContent() { return this.text + this.children.map((c) => c.textContent).join(''); }
  /** @param {unknown} v */
  set textContent(v) { for (const c of this.children) c.parentNode = null; this.children = []; this.text = String(v); }
  /** @param {unknown} _ */
  set innerHTML(_) { throw new Error('extension text must never be parsed as HTML'); }
  /** @param {unknown} _ */
  set outerHTML(_) { throw new Error('extension text must never be parsed as HTML'); }
  insertAdjacentHTML() { throw new Error('extension text must never be parsed as HTML'); }
  get firstElementChild() { return this.children[0] ?? null; }
  /** @returns {FakeElement | null} */
  get lastElementChild() { return this.children.at(-1) ?? null; }
  /** @param {FakeElement} c */
  appendChild(c) { c.parentNode?.removeChild(c); c.parentNode = this; this.children.push(c); return c; }
  /** @param {FakeElement} c */
  removeChild(c) { this.children.splice(this.children.indexOf(c), 1); c.parentNode = null; }
  remove() { this.parentNode?.removeChild(this); }
  /** @param {...FakeElement} cs */
  replaceChildren(...cs) { for (const c of [...this.children]) this.removeChild(c); for (const c of cs) this.appendChild(c); }
  /**
   * @param {string} k
   * @param {unknown} v
   */
  setAttribute(k, v) { this.attrs.set(k, String(v)); }
  /** @param {string} k */
  getAttribute(k) { return this.attrs.get(k) ?? null; }
  /** @param {string} k */
  removeAttribute(k) { this.attrs.delete(k); }
  /** @param {FakeElement | null} n */
  contains(n) { for (; n; n = n.parentNode) if (n === this) return true; return false; }
  /** @param {string} sel */
  closest(sel) { for (let n = /** @type {FakeElement | null} */ (this); n; n = n.parentNode) if (sel === `#${n.id}`) return n; return null; }
  /**
   * Descendants in document order.
   * @returns {Generator<FakeElement>}
   */
  *all() { for (const c of this.children) { yield c; yield* c.all(); } }
  /** @param {string} sel */
  querySelectorAll(sel) { return [...this.all()].filter((e) => matches(e, sel)); }
  /** @param {string} sel */
  querySelector(sel) { return this.querySelectorAll(sel)[0] ?? null; }
  focus() { this.ownerDocument.activeElement = this; }
  /**
   * @param {string} type
   * @param {(e: ClickEvent) => void} fn
   */
  addEventListener(type, fn) { this.listeners.set(type, [...(this.listeners.get(type) ?? []), fn]); }
  click() { for (const fn of this.listeners.get('click') ?? []) fn({ target: this }); }
  scrollIntoView() {}
  getBoundingClientRect() { return { width: 800 }; }
  get clientWidth() { return 800; }
  get clientHeight() { return 400; }
}

/**
 * @param {FakeElement} e
 * @param {string} sel
 */
function matches(e, sel) {
  if (sel === 'button') return e.tagName === 'BUTTON';
  if (sel === 'button:not([disabled])') return e.tagName === 'BUTTON' && !e.attrs.has('disabled');
  throw new Error(`the stand-in DOM does not know the selector ${sel}`);
}

/** @returns {FakeDocument} */
function fakeDocument() {
  // Partial: the lines below fill in the rest.
  const doc = /** @type {FakeDocument} */ (/** @type {unknown} */ ({ activeElement: null, title: '', listeners: new Map() }));
  doc.createElement = (tag) => new FakeElement(doc, tag);
  doc.body = doc.createElement('body');
  /** @type {Record<string, FakeElement>} */
  const byId = {};
  for (const id of ['title', 'lines', 'widgets', 'footer', 'announce', 'measure']) {
    const e = doc.createElement('div');
    e.id = id;
    doc.body.appendChild(e);
    byId[id] = e;
  }
  byId.lines.setAttribute('aria-label', 'Panel');
  byId.widgets.hidden = true;
  doc.getElementById = (id) => byId[id] ?? null;
  doc.addEventListener = (type, fn) => doc.listeners.set(type, fn);
  doc.activeElement = doc.body;
  return doc;
}

/**
 * The text of every element of a kind under `root`, in order.
 * @param {FakeElement} root
 * @param {string} tag
 */
const texts = (root, tag) => [...root.all()].filter((e) => e.tagName === tag.toUpperCase()).map((e) => e.textContent);

/** widgets.js alone: its `draw`, over a fresh document. */
function widgetsModule() {
  const doc = fakeDocument();
  /** @type {{ zotPanelWidgets?: { draw(container: FakeElement, widgets: readonly unknown[], onAction: (id: string) => void): void } }} */
  const window = {};
  vm.runInNewContext(WIDGETS_JS, { window, document: doc });
  assert.ok(window.zotPanelWidgets, 'widgets.js sets window.zotPanelWidgets');
  return { draw: window.zotPanelWidgets.draw, doc };
}

/** The whole page: both scripts, as the webview runs them; `posted` is what it sent the extension. */
function page() {
  const doc = fakeDocument();
  /** @type {Map<string, (e: { data: unknown }) => void>} */
  const winListeners = new Map();
  const window = {
    /**
     * @param {string} type
     * @param {(e: { data: unknown }) => void} fn
     */
    addEventListener: (type, fn) => winListeners.set(type, fn),
  };
  /** @type {PageMessage[]} */
  const posted = [];
  const context = {
    window, document: doc,
    // A message crosses as a copy, as postMessage clones it.
    acquireVsCodeApi: () => ({ postMessage: (/** @type {unknown} */ m) => posted.push(JSON.parse(JSON.stringify(m))), getState: () => undefined, setState: () => undefined }),
    ResizeObserver: class { observe() {} },
    getComputedStyle: () => ({ lineHeight: '18', paddingLeft: '0', paddingRight: '0' }),
    setTimeout: () => 0, clearTimeout: () => undefined,
  };
  vm.createContext(context);
  vm.runInContext(WIDGETS_JS, context);
  vm.runInContext(PANEL_JS, context);
  /**
   * @param {string} k
   * @param {FakeElement} [target]
   */
  const key = (k, target = doc.activeElement) => {
    /** @type {KeyEvent} */
    const e = { key: k, target, isComposing: false, ctrlKey: false, metaKey: false, altKey: false, shiftKey: false, defaultPrevented: false, getModifierState: () => false, preventDefault() { this.defaultPrevented = true; } };
    const onKey = doc.listeners.get('keydown');
    assert.ok(onKey, 'the page listens for keys');
    onKey(e);
    return e;
  };
  /** @param {unknown} msg */
  const receive = (msg) => {
    const onMessage = winListeners.get('message');
    assert.ok(onMessage, 'the page listens for messages');
    return onMessage({ data: msg });
  };
  /** @param {string} id */
  const $ = (id) => {
    const e = doc.getElementById(id);
    assert.ok(e, `#${id}`);
    return e;
  };
  return { doc, posted, key, receive, $ };
}

// ---- a stand-in of the VS Code API for the presenters ----

const VSCODE_STUB = `
class Emitter { constructor() { this.fns = []; this.event = (fn) => { this.fns.push(fn); return { dispose() {} }; }; } fire(v) { for (const f of this.fns) f(v); } }
const made = { webviews: [], quickPicks: [] };
module.exports = {
  made,
  ViewColumn: { Active: -1 },
  Uri: { joinPath: (u, ...p) => ({ path: [u.path, ...p].join('/') }) },
  ThemeIcon: class { constructor(id) { this.id = id; } },
  env: { language: 'en' },
  window: {
    createWebviewPanel(viewType, title) {
      const message = new Emitter(), disposed = new Emitter();
      const w = { title, visible: true, posted: [],
        webview: { html: '', cspSource: 'vscode-webview:', asWebviewUri: (u) => 'webview:' + u.path, postMessage: async (m) => { w.posted.push(m); return true; }, onDidReceiveMessage: message.event },
        receive: (m) => message.fire(m), onDidDispose: disposed.event, reveal() {}, dispose() { disposed.fire(); } };
      made.webviews.push(w);
      return w;
    },
    createQuickPick() {
      const ev = { active: new Emitter(), accept: new Emitter(), value: new Emitter(), hide: new Emitter(), button: new Emitter() };
      const qp = { ev, items: [], activeItems: [], title: '', placeholder: '', value: '', buttons: [],
        onDidChangeActive: ev.active.event, onDidAccept: ev.accept.event, onDidChangeValue: ev.value.event, onDidHide: ev.hide.event, onDidTriggerButton: ev.button.event,
        show() {}, hide() { ev.hide.fire(); }, dispose() {} };
      made.quickPicks.push(qp);
      return qp;
    },
  },
};
`;

/**
 * A panel as the host hands it to the UI, recording what the UI sends back.
 * @param {readonly Widget[]} widgets
 * @param {readonly string[]} [lines]
 * @returns {import('../../out/types/host/index.js').Panel & { sent: string[] }}
 */
function fakePanel(widgets, lines = ['March: 9 of 12 accounts reconciled']) {
  return {
    uid: 'ledger\0p', extension: { name: 'ledger', dir: '/x' }, id: 'p', title: 'Ledger', lines, footer: 'esc close', widgets, forToolCall: false,
    sent: [], key(k, text) { this.sent.push(text === undefined ? k : `${k} ${text}`); }, action(id) { this.sent.push(`action ${id}`); }, resize() {}, dismiss() {},
  };
}
// Partial: the presenters only record to it.
const trace = /** @type {import('../../src/vscode/ui/trace.js').UiTrace} */ (/** @type {unknown} */ ({ record() {} }));
// Partial: the presenters only read its path.
const extensionUri = /** @type {import('vscode').Uri} */ ({ path: '/ext' });

/** @type {string} */
let scratch;
/**
 * The bundled presenters and the page contract, and the stand-in API they were given.
 * @type {import('../bundled').Bundled<'vscode/panels', 'panels' | 'webviewPanels'> & import('../bundled').Bundled<'protocol', 'pageContract'> & { vscode: VscodeStandIn }}
 */
let m;
before(async () => {
  scratch = mkdtempSync(path.join(os.tmpdir(), 'zot-panel-widgets-'));
  // The bundle's `require('vscode')` finds the stand-in as a package beside it.
  const standIn = path.join(scratch, 'node_modules', 'vscode');
  mkdirSync(standIn, { recursive: true });
  writeFileSync(path.join(standIn, 'index.js'), VSCODE_STUB);
  m = { ...(await bundleSources(scratch, 'vscode/panels', ['panels', 'webviewPanels'], { external: ['vscode'] })), ...(await bundleSources(path.join(scratch, 'protocol'), 'protocol', ['pageContract'])), vscode: require(standIn) };
});
after(() => rmSync(scratch, { recursive: true, force: true }));

test('the page may send an action by its id; an empty, over-long or non-string id is dropped', () => {
  assert.deepEqual(m.pageContract.fromWebview({ type: 'action', id: 'export-csv', extra: 1 }), { type: 'action', id: 'export-csv' });
  for (const message of [{ type: 'action' }, { type: 'action', id: '' }, { type: 'action', id: 7 }, { type: 'action', id: 'x'.repeat(m.pageContract.MAX_ACTION_ID + 1) }]) {
    assert.equal(m.pageContract.fromWebview(message), undefined, JSON.stringify(message).slice(0, 60));
  }
});

test('widgets.js draws each kind as its own element, every string as text, tones as classes, actions as buttons', () => {
  const { draw, doc } = widgetsModule();
  const box = doc.getElementById('widgets');
  assert.ok(box);
  /** @type {string[]} */
  const pressed = [];
  draw(box, [...LEDGER, { type: 'sparkline', text: 'unknown kinds draw nothing' }], (id) => pressed.push(id));
  assert.deepEqual(box.children.map((e) => e.tagName), ['H2', 'P', 'DIV', 'DL', 'TABLE', 'UL', 'DIV', 'HR', 'BUTTON']);
  assert.deepEqual(texts(box, 'h2'), ['March close'], 'a level-1 widget heading sits under the panel title');
  assert.equal(box.children[1].className, 'w-text tone-muted');
  const meter = box.children[2];
  assert.equal(meter.textContent, 'reconciled9 / 12 accounts', 'the numbers are text beside the bar');
  const bar = [...meter.all()].find((e) => e.getAttribute('role') === 'meter');
  assert.ok(bar, 'a meter role');
  assert.deepEqual([bar.getAttribute('aria-valuenow'), bar.getAttribute('aria-valuemax'), bar.getAttribute('aria-valuetext'), bar.children[0].style.width], ['9', '12', '9 / 12 accounts', '75%']);
  assert.deepEqual(texts(box, 'dt'), ['ledger file', 'difference']);
  assert.deepEqual(texts(box, 'dd'), ['books/2026-03.ledger', '0.03 EURrounding suspected']);
  assert.equal(box.children[3].children[1].children[0].className, 'w-mono');
  assert.deepEqual(texts(box, 'th'), ['account', 'ledger', 'bank']);
  assert.deepEqual(texts(box, 'td'), ['4010', '1200.00', '1200.00', '4020', '88.13', '88.10']);
  assert.deepEqual(box.children[5].children.map((li) => li.className), ['w-item tone-danger', 'w-item tone-ok']);
  const note = box.children[6].children[0];
  assert.deepEqual([note.className, note.textContent, note.children.length], ['w-note tone-warn', '<img src=x onerror=alert(1)>', 0], 'markup in a string stays text');
  // Every action is a button of type button, found by Tab; pressing one says its id.
  const buttons = box.querySelectorAll('button');
  assert.deepEqual(buttons.map((b) => [b.textContent, b.dataset.action, b.getAttribute('type')]), [
    ['4020 office suppliesoff by 0.03', 'open-4020', 'button'], ['Export CSV', 'export-csv', 'button'], ['Reconcile again', 'reconcile', 'button'],
  ]);
  for (const b of buttons) b.click();
  assert.deepEqual(pressed, ['open-4020', 'export-csv', 'reconcile']);
  // The script itself never reaches for markup.
  for (const src of [WIDGETS_JS, PANEL_JS]) assert.doesNotMatch(src, /innerHTML|outerHTML|insertAdjacentHTML|document\.write|eval\(|new Function/);
});

test('widgets.js: an action without an id is a disabled button; a redraw keeps the focus on the action it was on', () => {
  const { draw, doc } = widgetsModule();
  const box = doc.getElementById('widgets');
  assert.ok(box);
  draw(box, [{ type: 'action', text: 'later' }, { type: 'action', text: 'A', action_id: 'a' }, { type: 'action', text: 'B', action_id: 'b' }], () => undefined);
  const [dead, , b] = box.querySelectorAll('button');
  assert.equal(dead.getAttribute('disabled'), '');
  b.focus();
  draw(box, [{ type: 'text', text: 'new' }, { type: 'action', text: 'B again', action_id: 'b' }], () => undefined);
  assert.equal(doc.activeElement.textContent, 'B again');
  box.querySelectorAll('button')[0].focus();
  draw(box, [{ type: 'text', text: 'no actions now' }], () => undefined);
  assert.equal(doc.activeElement, box, 'its action gone, the focus stays in the panel');
});

test('the page shows widgets in place of the lines; Tab moves among the actions, Enter presses one, other keys still go to the extension', () => {
  const p = page();
  assert.equal(p.doc.activeElement, p.$('lines'));
  p.receive({ type: 'render', title: 'Ledger', footer: 'esc close', cursor: -1, seq: 0, lines: ['March: 9 of 12'], widgets: LEDGER });
  assert.deepEqual([p.$('lines').hidden, p.$('widgets').hidden], [true, false]);
  assert.equal(p.doc.activeElement, p.$('widgets'), 'the focus follows to what shows');
  assert.equal(p.$('widgets').getAttribute('aria-label'), 'Ledger');
  p.posted.length = 0;

  const tab = p.key('Tab');
  assert.equal(tab.defaultPrevented, false, 'Tab is the browser\'s: it moves to the first action');
  const button = p.$('widgets').querySelectorAll('button')[2];
  button.focus();
  const enter = p.key('Enter', button);
  assert.equal(enter.defaultPrevented, false, 'Enter on a button presses it');
  assert.equal(p.key(' ', button).defaultPrevented, false, 'and so does Space');
  button.click();
  assert.deepEqual(p.posted, [{ type: 'action', id: 'reconcile' }]);

  p.posted.length = 0;
  p.key('ArrowDown', button);
  p.key('Enter', p.$('widgets'));
  p.key('x', p.$('widgets'));
  assert.deepEqual(p.posted.map((/** @type {PageMessage} */ m) => m.key + (m.text ?? '')), ['down', 'enter', 'runex']);

  // A render that changes only lines keeps the tree; one with an empty tree brings the lines back.
  p.receive({ type: 'render', title: 'Ledger', footer: 'esc close', cursor: -1, seq: 3, length: 1, changed: [[0, 'March: 10 of 12']], spoken: [0] });
  assert.equal(p.$('widgets').hidden, false);
  p.receive({ type: 'render', title: 'Ledger', footer: 'esc close', cursor: -1, seq: 3, length: 1, changed: [], spoken: [], widgets: [] });
  assert.deepEqual([p.$('lines').hidden, p.$('widgets').hidden, p.$('widgets').children.length], [false, true, 0]);
  p.posted.length = 0;
  assert.equal(p.key('Tab', p.$('lines')).defaultPrevented, true, 'without widgets Tab is a key for the extension, as before');
  assert.deepEqual(p.posted.map((/** @type {PageMessage} */ m) => m.key), ['tab']);
});

test('the page without actions in its widgets sends Tab to the extension', () => {
  const p = page();
  p.receive({ type: 'render', title: '', footer: '', cursor: -1, seq: 0, lines: [], widgets: [{ type: 'text', text: 'read only' }] });
  p.posted.length = 0;
  p.key('Tab');
  assert.deepEqual(p.posted.map((m) => m.key), ['tab']);
});

test('the webview presenter: the same strict policy with both scripts nonce\'d; the tree goes when it changed; an action reaches the panel', () => {
  const view = new m.webviewPanels.WebviewPanels(extensionUri, trace);
  const panel = fakePanel(LEDGER);
  view.open(panel);
  const w = m.vscode.made.webviews.at(-1);
  assert.ok(w, 'a webview');
  const html = w.webview.html;
  assert.match(html, /content="default-src 'none'; style-src vscode-webview:; font-src vscode-webview:; img-src vscode-webview:; script-src 'nonce-[^']+';"/);
  const scripts = [...html.matchAll(/<script nonce="([^"]+)" src="([^"]+)"><\/script>/g)];
  assert.deepEqual(scripts.map((m) => m[2]), ['webview:/ext/media/panel/widgets.js', 'webview:/ext/media/panel/panel.js']);
  assert.equal(scripts[0][1], scripts[1][1]);
  assert.match(html, /<div id="widgets" tabindex="0" role="region" aria-label="Panel" hidden><\/div>/);

  w.receive({ type: 'ready' });
  view.render({ ...panel, lines: ['changed'] });
  view.render({ ...panel, lines: ['changed'], widgets: [{ type: 'divider' }] });
  view.render({ ...panel, lines: ['changed'], widgets: [] });
  assert.deepEqual(w.posted.map((m) => m.widgets), [LEDGER, undefined, [{ type: 'divider' }], []], 'whole with ready, then only when it changed');

  w.receive({ type: 'action', id: 'reconcile' });
  w.receive({ type: 'action', id: '' });
  w.receive({ type: 'key', key: 'enter', seq: 1 });
  assert.deepEqual(panel.sent, ['action reconcile', 'enter']);
  view.dispose();
});

/**
 * A panel of `lines` in the webview presenter, over the page's scripts: `deliver` takes what the presenter
 * posted to the page, `highlighted` the lines the page shows as the cursor.
 * @param {string[]} lines
 */
function webviewOnPage(lines) {
  const view = new m.webviewPanels.WebviewPanels(extensionUri, trace);
  const panel = fakePanel([], lines);
  view.open(panel);
  const w = m.vscode.made.webviews.at(-1);
  assert.ok(w, 'a webview');
  const p = page();
  const deliver = () => {
    for (const msg of w.posted.splice(0)) p.receive(JSON.parse(JSON.stringify(msg)));
  };
  const highlighted = () => p.$('lines').children.map((row, i) => (row.className === 'line current' ? i : -1)).filter((i) => i >= 0);
  return { view, panel, w, p, deliver, highlighted };
}

test('the presenter\'s renders on the page: the cursor it says is highlighted; a screen reader hears changed text, not a moved mark', () => {
  const { view, panel, w, p, deliver, highlighted } = webviewOnPage(['› one', '  two', '  three']);
  w.receive({ type: 'ready' });
  deliver();
  assert.deepEqual(highlighted(), [0]);
  view.render({ ...panel, lines: ['  one', '› two', '  three'] });
  deliver();
  assert.deepEqual(highlighted(), [1]);
  assert.equal(p.$('announce').textContent, '', 'only the cursor moved: its line is heard as the selected one, nothing else');
  view.render({ ...panel, lines: ['  one', '› two (done)', '  three', '  four'] });
  deliver();
  assert.deepEqual(highlighted(), [1]);
  assert.equal(p.$('announce').textContent, '› two (done); four');
  view.render({ ...panel, lines: ['› one', '› two (done)', '  three', '  four'] });
  deliver();
  assert.deepEqual(highlighted(), [], 'two marks: no cursor');
  view.dispose();
});

test('the QuickPick shows the widgets as text rows; moving among them sends no keys; Enter on an action row sends the action', () => {
  const qps = new m.panels.QuickPickPanels(trace);
  const panel = fakePanel(LEDGER);
  qps.open(panel);
  const qp = m.vscode.made.quickPicks.at(-1);
  assert.ok(qp, 'a QuickPick');
  const rows = lib.widgetLines(LEDGER);
  assert.deepEqual(qp.items.map((i) => i.label), rows.map((r) => r.text.replace(/ /g, '\u00a0')));
  assert.deepEqual(rows.map((r) => r.text), [
    '# March close',
    'Three accounts still differ.',
    'reconciled  [███████████████░░░░░]  9 / 12 accounts',
    'ledger file  books/2026-03.ledger',
    'difference   0.03 EUR  (rounding suspected)',
    'account  ledger   bank',
    '───────  ───────  ───────',
    '4010     1200.00  1200.00',
    '4020     88.13    88.10',
    '• ✗ 4020 office supplies — off by 0.03 ↵',
    '• ✓ 4030 travel',
    '  │ ! <img src=x onerror=alert(1)>',
    '  [ Export CSV ]',
    '────────────────────────────────────────',
    '[ Reconcile again ]',
  ]);
  assert.deepEqual(qp.items.filter((i) => i.action).map((i) => [i.index, i.action]), [[9, 'open-4020'], [12, 'export-csv'], [14, 'reconcile']]);

  /** @param {number} i */
  const move = (i) => { qp.activeItems = [qp.items[i]]; qp.ev.active.fire([qp.items[i]]); };
  move(12);
  move(9);
  qp.ev.accept.fire();
  move(2);
  qp.ev.accept.fire();
  qp.value = 'r';
  qp.ev.value.fire('r');
  assert.deepEqual(panel.sent, ['action open-4020', 'enter', 'rune r'], 'no up/down for moves among rows; typed keys still go');

  // The widgets gone, the lines are the items again and moves are keys again.
  qps.render({ ...panel, widgets: [], lines: ['› a', '  b'] });
  assert.deepEqual(qp.items.map((i) => i.label), ['›\u00a0a', '\u00a0\u00a0b']);
  panel.sent.length = 0;
  qps.render({ ...panel, widgets: [], lines: ['› a', '  b'] });
  setTimeoutless(() => move(1));
  assert.deepEqual(panel.sent, ['down']);
  qps.dispose();
});

/**
 * Runs `fn` as a user's move, after the echo window of a programmatic one (ECHO_MS) has passed.
 * @param {() => void} fn
 */
function setTimeoutless(fn) {
  const now = Date.now;
  Date.now = () => now() + 10_000;
  try {
    fn();
  } finally {
    Date.now = now;
  }
}

test('the QuickPick shows a render that changes a line\'s text but not the number of lines, or only an action\'s id; a moved cursor alone keeps the items', () => {
  const qps = new m.panels.QuickPickPanels(trace);
  const panel = fakePanel([], ['› apple', '  pear']);
  qps.open(panel);
  const qp = m.vscode.made.quickPicks.at(-1);
  assert.ok(qp, 'a QuickPick');
  const labels = () => qp.items.map((i) => i.label.replace(/\u00a0/g, ' '));
  assert.deepEqual(labels(), ['› apple', '  pear']);
  qps.render({ ...panel, lines: ['› apple (2)', '  pear'] });
  assert.deepEqual(labels(), ['› apple (2)', '  pear'], 'the changed text shows');
  const items = qp.items;
  qps.render({ ...panel, lines: ['  apple (2)', '› pear'] });
  assert.deepEqual(labels(), ['  apple (2)', '› pear']);
  qps.render({ ...panel, lines: ['› apple (2)', '  pear'] });
  assert.equal(qp.activeItems[0]?.index, 0);
  qps.render({ ...panel, lines: ['  apple (2)', '› pear'] });
  assert.equal(qp.activeItems[0]?.index, 1, 'the cursor it says is the active item');
  assert.notEqual(qp.items, items, 'the marks moved: new labels');
  const marked = qp.items;
  qps.render({ ...panel, lines: ['  apple (2)', '› pear'], footer: 'a counter' });
  assert.equal(qp.items, marked, 'a render that changes no line leaves the items alone');
  // A widget row whose text stays while its action changes: Enter presses the new one.
  const go = (/** @type {string} */ id) => ({ ...panel, lines: [], widgets: /** @type {Widget[]} */ ([{ type: 'action', text: 'Go', action_id: id }]) });
  qps.render(go('first'));
  qps.render(go('second'));
  qp.activeItems = [qp.items[0]];
  qp.ev.accept.fire();
  assert.deepEqual(panel.sent.slice(-1), ['action second']);
  qps.dispose();
});

test('the page\'s guessed highlight: an arrow moves it at once; once the extension has answered that move its cursor stands, and a move it has not answered yet stays on top', () => {
  const { view, panel, w, p, deliver, highlighted } = webviewOnPage(['› one', '  two', '  three', '  four']);
  /** The page's keys, as they reach the extension side. */
  const forward = () => {
    for (const msg of p.posted.splice(0)) w.receive(msg);
  };
  /** The extension's render with its cursor on line `at`. */
  const cursorAt = (/** @type {number} */ at) => view.render({ ...panel, lines: panel.lines.map((l, i) => `${i === at ? '›' : ' '}${l.slice(1)}`) });
  w.receive({ type: 'ready' });
  deliver();
  assert.deepEqual(highlighted(), [0]);
  p.key('ArrowDown');
  assert.deepEqual(highlighted(), [1], 'guessed at once');
  forward();
  cursorAt(1);
  deliver();
  assert.deepEqual(highlighted(), [1], 'the answered move is not counted again');
  // Two moves; the extension answers the first before it reads the second.
  p.key('ArrowDown');
  p.key('ArrowDown');
  assert.deepEqual(highlighted(), [3]);
  const [first, second] = p.posted.splice(0);
  w.receive(first);
  cursorAt(2);
  deliver();
  assert.deepEqual(highlighted(), [3], 'the move not answered yet stays on top of the extension\'s cursor');
  w.receive(second);
  cursorAt(3);
  deliver();
  assert.deepEqual(highlighted(), [3]);
  // A move the extension answers by not moving (it ignores the key): its cursor stands.
  p.key('ArrowUp');
  assert.deepEqual(highlighted(), [2]);
  forward();
  cursorAt(3);
  deliver();
  assert.deepEqual(highlighted(), [3]);
  view.dispose();
});

test('the page gets a whole render after it says ready again (reloaded) or after a render that did not reach it; fewer lines leave no rows behind', async () => {
  const { view, panel, w, p, deliver } = webviewOnPage(['› one', '  two', '  three']);
  const rows = (/** @type {ReturnType<typeof page>} */ q) => q.$('lines').children.map((r) => r.textContent);
  w.receive({ type: 'ready' });
  deliver();
  assert.deepEqual(rows(p), ['› one', '  two', '  three']);
  view.render({ ...panel, lines: ['› one', '  two (done)'] });
  const [partial] = w.posted;
  assert.ok(partial && 'changed' in partial, 'a render of what changed');
  deliver();
  assert.deepEqual(rows(p), ['› one', '  two (done)'], 'the third row is gone');
  // The page reloads: a fresh one says ready, and gets every line, not what changed since the old one.
  const fresh = page();
  w.receive({ type: 'ready' });
  for (const msg of w.posted.splice(0)) fresh.receive(JSON.parse(JSON.stringify(msg)));
  assert.deepEqual(rows(fresh), ['› one', '  two (done)']);
  // A render the webview did not take (hidden, disposed meanwhile): the next one is whole.
  const post = w.webview.postMessage;
  w.webview.postMessage = async () => false;
  view.render({ ...panel, lines: ['› one', '  two (done)', '  three (new)'] });
  await new Promise((r) => setImmediate(r));
  w.webview.postMessage = post;
  view.render({ ...panel, lines: ['› one', '  two (done)', '  three (new)', '  four'] });
  const [after] = w.posted.splice(0);
  assert.ok(after && 'lines' in after, `whole after a lost render: ${JSON.stringify(after)}`);
  fresh.receive(JSON.parse(JSON.stringify(after)));
  assert.deepEqual(rows(fresh), ['› one', '  two (done)', '  three (new)', '  four']);
  view.dispose();
});

test('a page that has had no whole render ignores a render of changed lines (it does not know the rest)', () => {
  const p = page();
  p.receive({ type: 'render', title: 't', footer: '', cursor: 0, seq: 0, length: 2, changed: [[0, '› x']], spoken: [0] });
  assert.deepEqual(p.$('lines').children.map((r) => r.textContent), []);
  p.receive({ type: 'render', title: 't', footer: '', cursor: 0, seq: 0, lines: ['› x', '  y'] });
  assert.deepEqual(p.$('lines').children.map((r) => r.textContent), ['› x', '  y']);
});

test('the QuickPick as a key reader: a jump of rows sends as many keys, VS Code\'s echo of an update none; typed characters go once each and leave the box empty; a panel covers the one under it until it closes', () => {
  const qps = new m.panels.QuickPickPanels(trace);
  const panel = fakePanel([], ['› a', '  b', '  c', '  d']);
  qps.open(panel);
  const qp = m.vscode.made.quickPicks.at(-1);
  assert.ok(qp, 'a QuickPick');
  // The extension moved its cursor to c; VS Code first resets the active item to the top, then echoes c.
  qps.render({ ...panel, lines: ['  a', '  b', '› c', '  d'] });
  qp.ev.active.fire([qp.items[0]]);
  qp.ev.active.fire([qp.items[2]]);
  assert.deepEqual(panel.sent, [], 'VS Code\'s echo is not the user\'s');
  // The user jumps two rows up at once (a click, Page Up): two keys.
  setTimeoutless(() => qp.ev.active.fire([qp.items[0]]));
  assert.deepEqual(panel.sent.splice(0), ['up', 'up']);
  // Typing: each character once, the box emptied again; a keystroke VS Code reports before the box was emptied is not sent twice.
  qp.value = 'x';
  qp.ev.value.fire('x');
  assert.equal(qp.value, '', 'the box is a key reader, not a filter');
  qp.ev.value.fire('xy');
  qp.ev.value.fire('');
  qp.ev.value.fire('z');
  assert.deepEqual(panel.sent.splice(0), ['rune x', 'rune y', 'rune z']);
  // A second panel covers the first; closing it brings the first back.
  const other = { ...fakePanel([], ['› yes', '  no']), uid: 'ledger\0q', id: 'q' };
  qps.open(other);
  const visible = () => Object.fromEntries(qps.describe().map((s) => [s.id, s.visible]));
  assert.deepEqual(visible(), { p: false, q: true });
  qps.close(other);
  assert.deepEqual(visible(), { p: true });
  assert.deepEqual(panel.sent, [], 'covered and shown again without a word to the extension');
  qps.dispose();
});

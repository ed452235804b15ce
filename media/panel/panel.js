// The script of a zot panel webview. Extension text only ever goes through
// textContent: it is shown, never interpreted as HTML.
// The messages, both ways, are those of src/protocol/pageContract.ts
// (checked by tsconfig.media.json); the extension decides which line is the
// cursor and which changed lines are read out, so the page has no rule of
// its own about lines.
// @ts-check
(function () {
  /** @typedef {import('../../src/protocol/pageContract.js').ToWebview} ToWebview */
  /** @typedef {import('../../src/protocol/pageContract.js').PanelKey} PanelKey */
  /** @typedef {import('../../src/protocol/pageContract.js').Widget} Widget */
  // eslint-disable-next-line no-undef
  const vscode = acquireVsCodeApi();
  const title = /** @type {HTMLElement} */ (document.getElementById('title'));
  const lines = /** @type {HTMLElement} */ (document.getElementById('lines'));
  const footer = /** @type {HTMLElement} */ (document.getElementById('footer'));
  const measure = /** @type {HTMLElement} */ (document.getElementById('measure'));
  const announce = /** @type {HTMLElement} */ (document.getElementById('announce'));
  // terva's widgets, drawn by widgets.js in place of the lines when a render has some.
  const widgetsBox = /** @type {HTMLElement} */ (document.getElementById('widgets'));
  const widgetsView = window.zotPanelWidgets;
  // The list's name when the panel has no title, in VS Code's language (set by the extension).
  const untitled = lines.getAttribute('aria-label') || '';

  /** @type {Record<string, PanelKey | undefined>} */
  const KEYS = {
    ArrowUp: 'up', ArrowDown: 'down', ArrowLeft: 'left', ArrowRight: 'right',
    Enter: 'enter', Tab: 'tab', PageUp: 'pageup', PageDown: 'pagedown',
    Home: 'home', End: 'end', Backspace: 'backspace', Delete: 'delete',
  };

  /** What is on screen; `synced` once a full render arrived in this page's life. */
  let shown = { title: '', footer: '', lines: /** @type {readonly string[]} */ ([]) };
  /** The widget tree on screen; empty: the lines show. */
  let widgets = /** @type {readonly Widget[]} */ ([]);
  let synced = false;
  /** The highlighted line: the extension's cursor, moved by the arrow keys it has not answered yet. */
  let current = -1;
  /** The cursor of the extension's last render. */
  let rendered = -1;
  let saveTimer = 0;

  /**
   * A key that moves a marked cursor shows at once: the highlight moves here,
   * before the extension's render arrives, and that render settles it. Each
   * key carries a number; each render says the last key the extension had
   * been sent when it rendered, so moves it has answered are dropped and the
   * others stay on top of its cursor. Any other key stops the guessing until
   * its render is in; a guess the extension never answers is taken back.
   */
  let seq = 0;
  /** @type {{ seq: number, delta: number }[]} */
  let moves = [];
  /** Guessing waits for the render of this key (one that is not a plain move). */
  let settleAfter = 0;
  let guessTimer = 0;
  const GUESS_MS = 1000;
  /**
   * Whether this panel's cursor wraps (down from the last line to the first,
   * up from the first to the last) or stops there: unknown until the
   * extension's own render answers a move off an edge. Learned again at each
   * such render, so a wrong guess is shown for one render at most.
   */
  let wraps = false;
  /** A move off an edge from a settled cursor (`from`, and `to` if it wraps), kept until its render says which way the extension went. */
  let edge = /** @type {{ seq: number, from: number, to: number, length: number } | undefined} */ (undefined);

  /**
   * A render is either whole (`lines`) or the lines that changed since the
   * last one (`length` and `changed`, [index, text] pairs): a key that moves a
   * cursor changes two lines of forty, so only those cross the hops and the DOM.
   * @param {ToWebview} msg
   */
  function apply(msg) {
    let next;
    if ('lines' in msg) {
      next = msg.lines;
      synced = true;
    } else {
      // A change to lines this page never had (it was reloaded meanwhile): the full render after 'ready' follows.
      if (!synced) return;
      next = shown.lines.slice(0, msg.length);
      while (next.length < msg.length) next.push('');
      for (const [i, text] of msg.changed) next[i] = text;
    }
    // The cursor line comes from the extension side (src/host/ui/cursor.ts): one rule for every view of a panel.
    rendered = Number.isInteger(msg.cursor) ? msg.cursor : -1;
    const answered = Number.isInteger(msg.seq) ? msg.seq : seq;
    if (edge && answered >= edge.seq) {
      // The render of exactly that key, over the same lines: the extension either wrapped or stayed.
      if (answered === edge.seq && next.length === edge.length) {
        if (rendered === edge.to) wraps = true;
        else if (rendered === edge.from) wraps = false;
      }
      edge = undefined;
    }
    moves = moves.filter((m) => m.seq > answered);
    if (settleAfter <= answered) settleAfter = 0;
    if (!moves.length) clearTimeout(guessTimer);
    if (Array.isArray(msg.widgets)) showWidgets(msg.widgets);
    render({ title: msg.title || '', footer: msg.footer || '', lines: next }, guessed(next.length));
    if ('lines' in msg || !synced) return;
    // A screen reader hears the lines a render changed, politely; a moved cursor it hears as the selected line (the render says which).
    const spoken = Array.isArray(msg.spoken) ? msg.spoken : [];
    if (spoken.length) announce.textContent = spoken.slice(0, 3).map((i) => next[i].trim()).filter(Boolean).join('; ');
  }

  /**
   * Shows a widget tree instead of the lines (an empty one: the lines again).
   * An action the user presses goes to the extension by its id.
   * @param {readonly Widget[]} tree
   */
  function showWidgets(tree) {
    const had = widgets.length > 0;
    widgets = tree;
    const on = tree.length > 0;
    if (on) widgetsView.draw(widgetsBox, tree, (id) => vscode.postMessage({ type: 'action', id }));
    else widgetsBox.replaceChildren();
    widgetsBox.hidden = !on;
    lines.hidden = on;
    // The focus was on what is hidden now: it goes to what shows.
    if (had !== on && (document.activeElement === document.body || document.activeElement === (on ? lines : widgetsBox))) reader().focus();
  }

  /** What takes the keys when nothing else has the focus: the widgets when they show, else the lines. */
  function reader() {
    return widgets.length ? widgetsBox : lines;
  }

  /**
   * The extension's cursor moved by the moves it has not answered, or its own where that leaves the lines.
   * @param {number} length
   */
  function guessed(length) {
    if (rendered < 0) return rendered;
    let at = rendered;
    for (const m of moves) {
      at = step(at, m.delta, length);
      if (at < 0) return rendered;
    }
    return at;
  }

  /**
   * The line a move leads to, as this panel's cursor has been seen to go; -1 off an edge it is not known to wrap.
   * @param {number} from
   * @param {number} delta
   * @param {number} length
   */
  function step(from, delta, length) {
    const to = from + delta;
    if (to >= 0 && to < length) return to;
    return wraps ? wrap(to, length) : -1;
  }

  /** @type {(i: number, length: number) => number} */
  function wrap(i, length) {
    return ((i % length) + length) % length;
  }

  /**
   * Moves the highlight by `delta` at once, where the extension's render will most likely put it.
   * @param {number} delta
   * @param {number} keySeq
   */
  function guess(delta, keySeq) {
    if (!synced || rendered < 0 || settleAfter || current < 0) return;
    const length = shown.lines.length;
    const next = current + delta;
    // Off an edge with nothing else unanswered: its render shows whether this panel wraps.
    if ((next < 0 || next >= length) && !edge && !moves.length && current === rendered) edge = { seq: keySeq, from: current, to: wrap(next, length), length };
    const to = step(current, delta, length);
    if (to < 0) return;
    moves.push({ seq: keySeq, delta });
    render(shown, to);
    clearTimeout(guessTimer);
    guessTimer = setTimeout(() => {
      // Not answered: the extension did not move its cursor for these keys.
      moves = [];
      render(shown, rendered);
    }, GUESS_MS);
  }

  /**
   * @param {{ title: string, footer: string, lines: readonly string[] }} state
   * @param {number} cursor
   */
  function render(state, cursor) {
    if (state.title !== shown.title) {
      title.textContent = state.title;
      if (state.title) document.title = state.title;
      lines.setAttribute('aria-label', state.title || untitled);
      widgetsBox.setAttribute('aria-label', state.title || untitled);
    }
    if (state.footer !== shown.footer) footer.textContent = state.footer;
    const rows = lines.children;
    const old = shown.lines;
    for (let i = 0; i < state.lines.length; i++) {
      let row = /** @type {HTMLElement | undefined} */ (rows[i]);
      if (!row) {
        row = document.createElement('div');
        row.className = 'line';
        row.id = `line-${i}`;
        row.setAttribute('role', 'option');
        lines.appendChild(row);
      } else if (old[i] === state.lines[i] && (i === cursor) === (i === current)) continue;
      row.textContent = state.lines[i];
      row.className = i === cursor ? 'line current' : 'line';
      row.setAttribute('aria-selected', String(i === cursor));
    }
    while (rows.length > state.lines.length) lines.lastElementChild?.remove();
    shown = state;
    if (cursor >= 0) lines.setAttribute('aria-activedescendant', `line-${cursor}`);
    else lines.removeAttribute('aria-activedescendant');
    if (cursor >= 0 && cursor !== current) rows[cursor]?.scrollIntoView({ block: 'nearest' });
    current = cursor;
    // Kept for a reload of the page; off the path from a key to the paint.
    clearTimeout(saveTimer);
    saveTimer = setTimeout(() => vscode.setState({ ...shown, cursor: rendered, widgets }), 100);
  }

  document.addEventListener('keydown', (e) => {
    if (e.isComposing) return;
    if (e.key === 'Escape') {
      e.preventDefault();
      vscode.postMessage({ type: 'close' });
      return;
    }
    // On a widget's button, Enter and Space press it; while the widgets offer actions, Tab moves among them.
    if (widgets.length && ((e.key === 'Enter' || e.key === ' ') && widgetsView.isAction(e.target) || e.key === 'Tab' && widgetsBox.querySelector('button:not([disabled])'))) return;
    const named = KEYS[e.key];
    if (named && !e.ctrlKey && !e.metaKey && !e.altKey) {
      e.preventDefault();
      vscode.postMessage({ type: 'key', key: named, seq: ++seq });
      if (named === 'up' || named === 'down') guess(named === 'up' ? -1 : 1, seq);
      else settleAfter = seq;
      return;
    }
    // A typed character: one code point, not a Ctrl/Cmd shortcut (AltGr on Windows reports Ctrl+Alt).
    const typed = !e.metaKey && (!e.ctrlKey || e.getModifierState('AltGraph'));
    if ([...e.key].length === 1 && typed) {
      e.preventDefault();
      vscode.postMessage({ type: 'key', key: 'rune', text: e.key, seq: ++seq });
      settleAfter = seq;
    }
  });

  /** Columns and rows from the real font metrics. */
  let lastSize = '';
  function reportSize() {
    // Hidden behind widgets: its size says nothing; the last one stands.
    if (lines.hidden) return;
    measure.textContent = 'M'.repeat(100);
    const charWidth = measure.getBoundingClientRect().width / 100 || 8;
    const lineHeight = parseFloat(getComputedStyle(lines).lineHeight) || 18;
    const style = getComputedStyle(lines.firstElementChild || lines);
    const padding = parseFloat(style.paddingLeft || '0') + parseFloat(style.paddingRight || '0');
    const width = Math.max(1, Math.floor((lines.clientWidth - padding) / charWidth));
    const height = Math.max(1, Math.floor(lines.clientHeight / lineHeight));
    const size = `${width}x${height}`;
    if (size === lastSize) return;
    lastSize = size;
    vscode.postMessage({ type: 'resize', width, height });
  }
  let resizeTimer = 0;
  new ResizeObserver(() => {
    clearTimeout(resizeTimer);
    resizeTimer = setTimeout(reportSize, 50);
  }).observe(lines);

  window.addEventListener('message', (event) => {
    const msg = event.data;
    if (msg && msg.type === 'render') apply(msg);
  });
  window.addEventListener('focus', () => widgetsBox.contains(document.activeElement) || reader().focus());

  const initial = vscode.getState();
  if (initial && Array.isArray(initial.widgets)) showWidgets(initial.widgets);
  if (initial && Array.isArray(initial.lines)) render({ title: initial.title || '', footer: initial.footer || '', lines: initial.lines }, typeof initial.cursor === 'number' && Number.isInteger(initial.cursor) ? initial.cursor : -1);
  reader().focus();
  vscode.postMessage({ type: 'ready' });
})();

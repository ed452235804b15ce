// The script of a zot panel webview. Extension text only ever goes through
// textContent: it is shown, never interpreted as HTML.
// @ts-check
(function () {
  // eslint-disable-next-line no-undef
  const vscode = acquireVsCodeApi();
  const title = /** @type {HTMLElement} */ (document.getElementById('title'));
  const lines = /** @type {HTMLElement} */ (document.getElementById('lines'));
  const footer = /** @type {HTMLElement} */ (document.getElementById('footer'));
  const measure = /** @type {HTMLElement} */ (document.getElementById('measure'));
  const announce = /** @type {HTMLElement} */ (document.getElementById('announce'));
  // The list's name when the panel has no title, in VS Code's language (set by the extension).
  const untitled = lines.getAttribute('aria-label') || '';

  const KEYS = {
    ArrowUp: 'up', ArrowDown: 'down', ArrowLeft: 'left', ArrowRight: 'right',
    Enter: 'enter', Tab: 'tab', PageUp: 'pageup', PageDown: 'pagedown',
    Home: 'home', End: 'end', Backspace: 'backspace', Delete: 'delete',
  };

  /** What is on screen; `synced` once a full render arrived in this page's life. */
  let shown = { title: '', footer: '', lines: /** @type {string[]} */ ([]) };
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
   */
  function apply(msg) {
    let next;
    if (Array.isArray(msg.lines)) {
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
    const before = shown.lines;
    render({ title: msg.title || '', footer: msg.footer || '', lines: next }, guessed(next.length));
    if (Array.isArray(msg.lines) || !synced) return;
    // A screen reader hears the lines a render changed, politely; a moved cursor it hears as the selected line.
    const changed = msg.changed.map(([i]) => i).filter((i) => unmarked(before[i]) !== unmarked(next[i]));
    if (changed.length) announce.textContent = changed.slice(0, 3).map((i) => next[i].trim()).filter(Boolean).join('; ');
  }

  /** A line without the cursor mark at its start: what stays when only the cursor moved. */
  function unmarked(line) {
    return (line ?? '').replace(/^(\s*)[›>▶▸❯→➤]/, '$1 ');
  }

  /** The extension's cursor moved by the moves it has not answered, or its own where that leaves the lines. */
  function guessed(length) {
    if (rendered < 0) return rendered;
    let at = rendered;
    for (const m of moves) {
      at = step(at, m.delta, length);
      if (at < 0) return rendered;
    }
    return at;
  }

  /** The line a move leads to, as this panel's cursor has been seen to go; -1 off an edge it is not known to wrap. */
  function step(from, delta, length) {
    const to = from + delta;
    if (to >= 0 && to < length) return to;
    return wraps ? wrap(to, length) : -1;
  }

  function wrap(i, length) {
    return ((i % length) + length) % length;
  }

  /** Moves the highlight by `delta` at once, where the extension's render will most likely put it. */
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

  function render(state, cursor) {
    if (state.title !== shown.title) {
      title.textContent = state.title;
      if (state.title) document.title = state.title;
      lines.setAttribute('aria-label', state.title || untitled);
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
    saveTimer = setTimeout(() => vscode.setState({ ...shown, cursor: rendered }), 100);
  }

  document.addEventListener('keydown', (e) => {
    if (e.isComposing) return;
    if (e.key === 'Escape') {
      e.preventDefault();
      vscode.postMessage({ type: 'close' });
      return;
    }
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
  window.addEventListener('focus', () => lines.focus());

  const initial = vscode.getState();
  if (initial && Array.isArray(initial.lines)) render({ title: initial.title || '', footer: initial.footer || '', lines: initial.lines }, Number.isInteger(initial.cursor) ? initial.cursor : -1);
  lines.focus();
  vscode.postMessage({ type: 'ready' });
})();

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

  const KEYS = {
    ArrowUp: 'up', ArrowDown: 'down', ArrowLeft: 'left', ArrowRight: 'right',
    Enter: 'enter', Tab: 'tab', PageUp: 'pageup', PageDown: 'pagedown',
    Home: 'home', End: 'end', Backspace: 'backspace', Delete: 'delete',
  };

  /** What is on screen; `synced` once a full render arrived in this page's life. */
  let shown = { title: '', footer: '', lines: /** @type {string[]} */ ([]) };
  let synced = false;
  let current = -1;
  let saveTimer = 0;

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
    render({ title: msg.title || '', footer: msg.footer || '', lines: next }, Number.isInteger(msg.cursor) ? msg.cursor : -1);
  }

  function render(state, cursor) {
    if (state.title !== shown.title) title.textContent = state.title;
    if (state.footer !== shown.footer) footer.textContent = state.footer;
    const rows = lines.children;
    const old = shown.lines;
    for (let i = 0; i < state.lines.length; i++) {
      let row = /** @type {HTMLElement | undefined} */ (rows[i]);
      if (!row) {
        row = document.createElement('div');
        row.className = 'line';
        lines.appendChild(row);
      } else if (old[i] === state.lines[i] && (i === cursor) === (i === current)) continue;
      row.textContent = state.lines[i];
      row.className = i === cursor ? 'line current' : 'line';
    }
    while (rows.length > state.lines.length) lines.lastElementChild?.remove();
    shown = state;
    if (cursor >= 0 && cursor !== current) rows[cursor]?.scrollIntoView({ block: 'nearest' });
    current = cursor;
    // Kept for a reload of the page; off the path from a key to the paint.
    clearTimeout(saveTimer);
    saveTimer = setTimeout(() => vscode.setState({ ...shown, cursor: current }), 100);
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
      vscode.postMessage({ type: 'key', key: named });
      return;
    }
    // A typed character: one code point, not a Ctrl/Cmd shortcut (AltGr on Windows reports Ctrl+Alt).
    const typed = !e.metaKey && (!e.ctrlKey || e.getModifierState('AltGraph'));
    if ([...e.key].length === 1 && typed) {
      e.preventDefault();
      vscode.postMessage({ type: 'key', key: 'rune', text: e.key });
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

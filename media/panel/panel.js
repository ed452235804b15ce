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

  /** Lines that start with one of these mark the extension's cursor. */
  const CURSOR_MARK = /^\s*[›>▶▸❯→➤●]/;

  const KEYS = {
    ArrowUp: 'up', ArrowDown: 'down', ArrowLeft: 'left', ArrowRight: 'right',
    Enter: 'enter', Tab: 'tab', PageUp: 'pageup', PageDown: 'pagedown',
    Home: 'home', End: 'end', Backspace: 'backspace', Delete: 'delete',
  };

  function render(state) {
    vscode.setState(state);
    title.textContent = state.title || '';
    footer.textContent = state.footer || '';
    const frag = document.createDocumentFragment();
    const marked = state.lines.filter((l) => CURSOR_MARK.test(l)).length === 1;
    for (const text of state.lines) {
      const div = document.createElement('div');
      div.className = marked && CURSOR_MARK.test(text) ? 'line current' : 'line';
      div.textContent = text;
      frag.appendChild(div);
    }
    // Replaced in one step, in place: no flicker, focus stays where it was.
    lines.replaceChildren(frag);
    const current = lines.querySelector('.line.current');
    if (current) current.scrollIntoView({ block: 'nearest' });
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
    if (e.key.length === 1 && !e.ctrlKey && !e.metaKey) {
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
    if (msg && msg.type === 'render') render(msg);
  });
  window.addEventListener('focus', () => lines.focus());

  const initial = vscode.getState();
  if (initial) render(initial);
  lines.focus();
  vscode.postMessage({ type: 'ready' });
})();

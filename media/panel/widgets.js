// terva's panel widgets drawn as elements of the panel page: a heading, a
// paragraph, a note, a meter, key-value rows, a table, a list whose items may
// be actions, a group, a button, a rule. The tree arrives validated (src/
// protocol/widgets.ts); every string of it is set with textContent, never
// parsed as HTML, and tones are classes the stylesheet maps to theme colours.
// Actions are <button>s: Tab reaches them, Enter and Space press them.
// @ts-check
(function (root) {
  /** @typedef {import('../../src/protocol/pageContract.js').Widget} Widget */
  const TONES = ['muted', 'danger', 'ok', 'warn'];

  /**
   * Replaces what `container` shows with `widgets`; `onAction(id)` is called
   * when the user presses an action.
   * @param {HTMLElement} container
   * @param {readonly Widget[]} widgets
   * @param {(id: string) => void} onAction
   */
  function draw(container, widgets, onAction) {
    const doc = container.ownerDocument;
    /** @type {(tag: string, className?: string, text?: string) => HTMLElement} */
    const el = (tag, className, text) => {
      const e = doc.createElement(tag);
      if (className) e.className = className;
      if (text) e.textContent = text;
      return e;
    };
    /** @type {(className: string, tone: unknown) => string} */
    const toned = (className, tone) => (typeof tone === 'string' && TONES.includes(tone) ? `${className} tone-${tone}` : className);
    /** @type {(className: string, id: string) => HTMLElement} */
    const button = (className, id) => {
      const b = el('button', className);
      b.setAttribute('type', 'button');
      b.dataset.action = id;
      b.addEventListener('click', () => onAction(id));
      return b;
    };

    /** @type {(list: readonly Widget[], into: HTMLElement) => void} */
    function nodes(list, into) {
      for (const w of list) {
        const n = node(w);
        if (!n) continue;
        if (w.label && w.type !== 'meter' && w.type !== 'group') into.appendChild(el('div', 'w-caption', w.label));
        into.appendChild(n);
      }
    }

    /** @type {(w: Widget) => HTMLElement | undefined} */
    function node(w) {
      switch (w.type) {
        case 'heading': {
          // The panel's title is the page's top heading; a level-1 widget comes under it.
          const level = Math.min(Math.max(Math.trunc(w.level || 1), 1), 5);
          return el(`h${level + 1}`, `w-heading w-h${level}`, w.text);
        }
        case 'text':
          return el('p', toned('w-text', w.tone), w.text);
        case 'note':
          return el('div', toned('w-note', w.tone), w.text);
        case 'meter':
          return meter(w);
        case 'keyvalue': {
          const dl = el('dl', 'w-kv');
          for (const r of w.rows) {
            dl.appendChild(el('dt', 'w-kv-key', r.key));
            const dd = el('dd', 'w-kv-value');
            dd.appendChild(el('span', r.mono ? 'w-mono' : '', r.value));
            if (r.note) dd.appendChild(el('span', 'w-kv-note', r.note));
            dl.appendChild(dd);
          }
          return dl;
        }
        case 'table':
          return table(w);
        case 'list': {
          const ul = el('ul', 'w-list');
          for (const item of w.items) {
            const li = el('li', toned('w-item', item.tone));
            const body = item.action_id ? button('w-item-action', item.action_id) : li;
            body.appendChild(el('span', 'w-item-text', item.text));
            if (item.note) body.appendChild(el('span', 'w-item-note', item.note));
            if (body !== li) li.appendChild(body);
            ul.appendChild(li);
          }
          return ul;
        }
        case 'group': {
          const g = el('div', 'w-group');
          g.setAttribute('role', 'group');
          if (w.label) {
            g.setAttribute('aria-label', w.label);
            g.appendChild(el('div', 'w-caption', w.label));
          }
          nodes(w.children, g);
          return g;
        }
        case 'action': {
          const label = w.text || w.action_id || '';
          if (!w.action_id) {
            const b = el('button', 'w-action', label);
            b.setAttribute('type', 'button');
            b.setAttribute('disabled', '');
            return b;
          }
          const b = button('w-action', w.action_id);
          b.textContent = label;
          return b;
        }
        case 'divider':
          return el('hr', 'w-divider');
        default:
          return undefined;
      }
    }

    /**
     * A bar and its numbers as text; the bar is a meter to a screen reader.
     * @param {Extract<Widget, { type: 'meter' }>} w
     */
    function meter(w) {
      const box = el('div', 'w-meter');
      if (w.label) box.appendChild(el('span', 'w-meter-label', w.label));
      const max = w.max > 0 ? w.max : 0;
      const numbers = `${w.value}${max ? ` / ${max}` : ''}${w.unit ? ` ${w.unit}` : ''}`;
      if (max) {
        const bar = el('div', 'w-meter-bar');
        bar.setAttribute('role', 'meter');
        bar.setAttribute('aria-valuemin', '0');
        bar.setAttribute('aria-valuemax', String(max));
        bar.setAttribute('aria-valuenow', String(w.value));
        bar.setAttribute('aria-valuetext', numbers);
        if (w.label) bar.setAttribute('aria-label', w.label);
        const fill = el('div', 'w-meter-fill');
        // A style property set from script, not an inline style attribute: the page's policy allows it.
        fill.style.width = `${Math.round(100 * Math.min(Math.max(w.value / max, 0), 1))}%`;
        bar.appendChild(fill);
        box.appendChild(bar);
      }
      box.appendChild(el('span', 'w-meter-numbers', numbers));
      return box;
    }

    /** @param {Extract<Widget, { type: 'table' }>} w */
    function table(w) {
      const t = el('table', 'w-table');
      if (w.columns.length) {
        const tr = el('tr');
        for (const c of w.columns) {
          const th = el('th', '', c);
          th.setAttribute('scope', 'col');
          tr.appendChild(th);
        }
        t.appendChild(el('thead')).appendChild(tr);
      }
      const body = el('tbody');
      for (const row of w.cells) {
        const tr = el('tr');
        for (const cell of row) tr.appendChild(el('td', '', cell));
        body.appendChild(tr);
      }
      t.appendChild(body);
      return t;
    }

    const focused = doc.activeElement;
    const keep = focused && focused !== container && container.contains(focused) ? /** @type {HTMLElement} */ (focused).dataset.action : undefined;
    container.replaceChildren();
    nodes(widgets, container);
    // The render after an action usually keeps the action: focus stays on it, so Enter can press it again.
    if (keep !== undefined) {
      for (const b of container.querySelectorAll('button')) {
        if (/** @type {HTMLElement} */ (b).dataset.action === keep) return /** @type {HTMLElement} */ (b).focus();
      }
      container.focus();
    }
  }

  /**
   * Whether an element is one of the widgets' buttons (Tab, Enter and Space are theirs there).
   * @param {EventTarget | null} target
   */
  function isAction(target) {
    const e = /** @type {Element | null} */ (target);
    return !!e && e.tagName === 'BUTTON' && typeof e.closest === 'function' && !!e.closest('#widgets');
  }

  root.zotPanelWidgets = { draw, isAction };
})(window);

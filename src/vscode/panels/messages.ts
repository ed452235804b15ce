/**
 * The messages between a panel's webview (media/panel/panel.js) and the
 * extension. What the page sends is checked here before anything acts on
 * it: a page is another process, and a message of another shape is dropped.
 */
import { PANEL_KEYS, type PanelKey } from '../../protocol/index.js';

/**
 * Extension → page: a whole render (`lines`) or the lines that changed
 * (`length`, `changed`), with the cursor line (-1: none) and `seq`, the
 * number of the last key the extension had been sent when it rendered (the
 * page drops its guesses of the cursor up to that key).
 */
export type ToWebview =
  | { type: 'render'; title: string; footer: string; cursor: number; seq: number; lines: readonly string[] }
  | { type: 'render'; title: string; footer: string; cursor: number; seq: number; length: number; changed: [number, string][] };

/** Page → extension. A key's `seq` counts the keys of this page's life (0: the page did not number it). */
export type FromWebview =
  | { type: 'ready' }
  | { type: 'close' }
  | { type: 'key'; key: PanelKey; text?: string; seq: number }
  | { type: 'resize'; width: number; height: number };

/** A message from the page, if it has one of the shapes above; undefined otherwise. */
export function fromWebview(m: unknown): FromWebview | undefined {
  if (typeof m !== 'object' || m === null) return undefined;
  const o = m as Record<string, unknown>;
  switch (o.type) {
    case 'ready':
    case 'close':
      return { type: o.type };
    case 'key':
      if (typeof o.key !== 'string' || !(PANEL_KEYS as readonly string[]).includes(o.key)) return undefined;
      if (o.text !== undefined && typeof o.text !== 'string') return undefined;
      if (o.seq !== undefined && !(Number.isSafeInteger(o.seq) && (o.seq as number) >= 0)) return undefined;
      {
        const seq = (o.seq as number | undefined) ?? 0;
        return o.key === 'rune' ? { type: 'key', key: 'rune', text: typeof o.text === 'string' ? o.text : '', seq } : { type: 'key', key: o.key as PanelKey, seq };
      }
    case 'resize':
      return typeof o.width === 'number' && typeof o.height === 'number' && Number.isFinite(o.width) && Number.isFinite(o.height)
        ? { type: 'resize', width: o.width, height: o.height }
        : undefined;
    default:
      return undefined;
  }
}

/**
 * Where an extension's panel has its cursor: zot extensions draw it as a
 * mark at the start of a line (`› item`, `> item`, `▸ item`…). One rule for
 * every way a panel is shown (the webview and the QuickPick): exactly one
 * marked line is the cursor; none or several, and there is no cursor.
 */

/** Lines that start (after spaces) with one of these mark the extension's cursor. */
export const CURSOR_MARK = /^\s*[›>▶▸❯→➤]/;

/** The index of the cursor line, or -1. */
export function cursorLine(lines: readonly string[]): number {
  let found = -1;
  for (let i = 0; i < lines.length; i++) {
    if (!CURSOR_MARK.test(lines[i]!)) continue;
    if (found >= 0) return -1;
    found = i;
  }
  return found;
}

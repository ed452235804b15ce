/**
 * The sizes @zot holds tool results to, and the cut that keeps to them.
 * Sizes are UTF-8 bytes of text; a cut never splits a character and always
 * says what it left out, so the model knows it saw only part.
 */

/** Text of one tool result as the model sees it in the turn that ran it. */
export const RESULT_TEXT_MAX_BYTES = 64 * 1024;
/** Text of one tool result replayed in a later turn's history. */
export const HISTORY_RESULT_MAX_BYTES = 16 * 1024;
/** Text of all tool results replayed in one request's history together; the oldest give way first. */
export const HISTORY_TOTAL_MAX_BYTES = 128 * 1024;
/** The most tools one request carries: the limit of common models. */
export const MAX_TOOLS_PER_REQUEST = 128;
/**
 * How long Stop waits for the extensions of stopped calls before the turn
 * reports. VS Code keeps a stopped request's result (and so its history
 * metadata) only if the handler returns within 1 s of Stop.
 */
export const STOP_SETTLE_MS = 600;

export function byteLength(text: string): number {
  return Buffer.byteLength(text, 'utf8');
}

/** The first `maxBytes` bytes of `text`, cut at a character boundary. */
export function headBytes(text: string, maxBytes: number): string {
  if (maxBytes <= 0) return '';
  if (text.length <= maxBytes / 3) return text; // at most 3 bytes per UTF-16 unit
  const buf = Buffer.from(text, 'utf8');
  if (buf.length <= maxBytes) return text;
  let end = maxBytes;
  // Step back over UTF-8 continuation bytes so no character is split.
  while (end > 0 && (buf[end]! & 0xc0) === 0x80) end--;
  return buf.subarray(0, end).toString('utf8');
}

export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${trim(n / 1024)} KiB`;
  return `${trim(n / (1024 * 1024))} MiB`;
}

function trim(x: number): string {
  return x >= 100 || Number.isInteger(x) ? String(Math.round(x)) : x.toFixed(1).replace(/\.0$/, '');
}

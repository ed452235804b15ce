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

/** A text part of a tool result; `note`: the chat's own note of a cut, kept whole and outside the bounds. */
export interface TextPart {
  kind: 'text';
  text: string;
  note?: boolean;
}

const isOwnText = (p: { kind: string }): p is TextPart => p.kind === 'text' && !(p as TextPart).note;

/** Bytes of the parts' own text (the chat's notes do not count). */
export function textBytes(parts: readonly { kind: string }[]): number {
  let n = 0;
  for (const p of parts) if (isOwnText(p)) n += byteLength(p.text);
  return n;
}

/**
 * The parts with their own text cut to the first `maxBytes` bytes across
 * them, other parts and notes kept whole, and a note from `say(total)` at the
 * end; a copy of the parts as they are when their text fits.
 */
export function cutParts<P extends { kind: string }>(parts: readonly P[], maxBytes: number, say: (total: number) => string): (P | TextPart)[] {
  const total = textBytes(parts);
  if (total <= maxBytes) return [...parts];
  const out: (P | TextPart)[] = [];
  let budget = maxBytes;
  for (const p of parts) {
    if (!isOwnText(p)) {
      out.push(p);
      continue;
    }
    if (budget <= 0) continue;
    const kept = headBytes(p.text, budget);
    budget -= byteLength(kept);
    if (kept) out.push({ kind: 'text', text: kept });
  }
  out.push({ kind: 'text', text: say(total), note: true });
  return out;
}

export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${trim(n / 1024)} KiB`;
  return `${trim(n / (1024 * 1024))} MiB`;
}

function trim(x: number): string {
  return x >= 100 || Number.isInteger(x) ? String(Math.round(x)) : x.toFixed(1).replace(/\.0$/, '');
}

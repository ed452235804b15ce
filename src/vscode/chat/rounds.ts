/**
 * The tool-calling rounds of one @zot turn, as plain JSON kept in the chat
 * result's metadata, and the bounds that keep them small: each replayed
 * result is cut to HISTORY_RESULT_MAX_BYTES when it is stored, and a
 * request's history carries at most HISTORY_TOTAL_MAX_BYTES of tool results,
 * newest first. Every cut leaves a note that says what is missing.
 */
import { cutParts, formatBytes, HISTORY_RESULT_MAX_BYTES, HISTORY_TOTAL_MAX_BYTES, textBytes, type TextPart } from './limits.js';
import type { CallEnd } from './callOutcome.js';

/**
 * A part of a tool result as the model saw it. Images are kept as a
 * description: their data is not stored. `note`: the chat's own note of a
 * cut, kept whole and outside the bounds.
 */
export type SeenPart = TextPart | { kind: 'image'; mime: string; bytes: number };

export interface RoundCall {
  callId: string;
  /** The name the model used: the chat's name for the tool. */
  name: string;
  /** zot's name of the tool. */
  tool: string;
  input: Record<string, unknown>;
  end: CallEnd;
  /** The result the model saw, or will see when the call was cut short before it did. */
  result: SeenPart[];
}

/** One model step: its text and the calls it asked for. */
export interface Round {
  text: string;
  calls: RoundCall[];
}

/** The result as it is kept for later turns: text past HISTORY_RESULT_MAX_BYTES is cut, with a note. */
export function keepForHistory(result: readonly SeenPart[]): SeenPart[] {
  return cutParts(result, HISTORY_RESULT_MAX_BYTES, (total) => `[cut for the chat history: the model saw ${formatBytes(total)} of this result's text; the first ${formatBytes(HISTORY_RESULT_MAX_BYTES)} are kept]`);
}

/**
 * The turns' rounds with tool results bounded together: walking from the
 * newest result back, a result that would pass HISTORY_TOTAL_MAX_BYTES is
 * replaced by a note of its size. Calls and their outcomes always stay.
 */
export function boundHistory(turns: readonly (readonly Round[])[]): Round[][] {
  let used = 0;
  const out = turns.map((rounds) => rounds.map((r) => ({ text: r.text, calls: r.calls.map((c) => ({ ...c })) })));
  for (let t = out.length - 1; t >= 0; t--) {
    const rounds = out[t]!;
    for (let r = rounds.length - 1; r >= 0; r--) {
      const calls = rounds[r]!.calls;
      for (let c = calls.length - 1; c >= 0; c--) {
        const call = calls[c]!;
        const size = textBytes(call.result);
        if (used + size <= HISTORY_TOTAL_MAX_BYTES) {
          used += size;
          continue;
        }
        call.result = [{ kind: 'text', note: true, text: `[left out of the chat history: this result's ${formatBytes(size)} of text; the history keeps at most ${formatBytes(HISTORY_TOTAL_MAX_BYTES)} of tool results, the newest first]` }];
      }
    }
  }
  return out;
}

/** How an image from an earlier turn appears in the history. */
export function imageNote(p: { mime: string; bytes: number }): string {
  return `[an image (${p.mime}, ${formatBytes(p.bytes)}) the model saw in an earlier turn; images are not kept in the chat history]`;
}

/** Reads rounds back from a result's metadata, dropping anything that is not shaped as this module wrote it. */
export function readRounds(value: unknown): Round[] | undefined {
  if (!Array.isArray(value)) return undefined;
  const rounds: Round[] = [];
  for (const r of value) {
    if (!isObject(r) || typeof r.text !== 'string' || !Array.isArray(r.calls)) return undefined;
    const calls = r.calls.filter(isRoundCall);
    if (calls.length !== r.calls.length) return undefined;
    rounds.push({ text: r.text, calls });
  }
  return rounds;
}

function isRoundCall(c: unknown): c is RoundCall {
  return isObject(c) && typeof c.callId === 'string' && typeof c.name === 'string' && typeof c.tool === 'string'
    && isObject(c.input) && typeof c.end === 'string' && Array.isArray(c.result)
    && c.result.every((p) => isObject(p) && ((p.kind === 'text' && typeof p.text === 'string' && (p.note === undefined || typeof p.note === 'boolean')) || (p.kind === 'image' && typeof p.mime === 'string' && typeof p.bytes === 'number')));
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * What one extension told the host with terva's notices (docs/TERVA.md 16.3 to
 * 16.8, 16.13): its standing model context, its live context cards, its
 * status segments, which of its tools it withdrew and whether it offered a
 * chat connector. Kept per launch, bounded, and forgotten when the
 * connection goes, as registrations are.
 */
import type { NoticeFromExt } from '../../protocol/index.js';

/** A static context block is cut to this many UTF-8 bytes, with a marker (terva: 8 KiB per extension). */
export const MAX_CONTEXT_BYTES = 8192;
/** A card's text is cut to this many UTF-8 bytes (terva: 4 KiB per card). */
export const MAX_CARD_BYTES = 4096;
/** Cards of one extension kept at once; a new id beyond this is dropped and logged. */
const MAX_CARDS = 32;
/** A status segment is shown cut to this many characters, on one line. */
export const MAX_SEGMENT_CHARS = 80;
/** Status segments of one extension kept at once. */
const MAX_SEGMENTS = 8;
/** A card's label or a card or segment id is cut to this many characters. */
const MAX_LABEL_CHARS = 120;

export const CONTEXT_CUT_MARKER = '\n[… cut: an extension\'s context is bounded to 8192 bytes]';

/** What a notice changed, for the views and front ends that draw it. */
export type TervaChange = 'context' | 'cards' | 'status' | 'withdrawn';

export interface ContextCard {
  id: string;
  label?: string;
  text: string;
  priority: number;
  blocking: boolean;
}

export class TervaState {
  /** The standing context block (register_context, refresh_context), bounded; undefined when none. */
  context: string | undefined;
  /** Live cards by id, in arrival order. */
  readonly cards = new Map<string, ContextCard>();
  /** Status segments by id, in arrival order. */
  readonly segments = new Map<string, string>();
  /** Tools withdrawn by their extension: hidden from every list and not callable, still registered. */
  readonly withdrawn = new Set<string>();
  /** It sent `register_connector` (recorded: this host offers no chat connectors). */
  connector = false;

  /**
   * Applies a notice; returns what changed, if anything. `ownTools` are the
   * names its extension has registered now (withdrawal covers only those);
   * `log` takes what was cut or dropped.
   */
  apply(frame: NoticeFromExt, ownTools: Iterable<string>, log: (line: string) => void): TervaChange | undefined {
    switch (frame.type) {
      case 'register_context':
      case 'refresh_context': {
        const text = frame.text ? boundBytes(frame.text, MAX_CONTEXT_BYTES, CONTEXT_CUT_MARKER, () => log(`${frame.type}: the text is over ${MAX_CONTEXT_BYTES} bytes and was cut`)) : undefined;
        if (text === this.context) return undefined;
        this.context = text;
        return 'context';
      }
      case 'context_card': {
        const id = frame.id.slice(0, MAX_LABEL_CHARS);
        if (!this.cards.has(id) && this.cards.size >= MAX_CARDS) return void log(`context_card "${id}" dropped: an extension keeps at most ${MAX_CARDS} cards`), undefined;
        const card: ContextCard = {
          id,
          ...(frame.label && { label: oneLine(frame.label, MAX_LABEL_CHARS) }),
          text: boundBytes(frame.text ?? '', MAX_CARD_BYTES, '\n[… cut]', () => log(`context_card "${id}": the text is over ${MAX_CARD_BYTES} bytes and was cut`)),
          priority: Number.isFinite(frame.priority) ? Math.trunc(frame.priority!) : 0,
          blocking: frame.blocking === true,
        };
        const old = this.cards.get(id);
        if (old && sameCard(old, card)) return undefined;
        this.cards.set(id, card);
        return 'cards';
      }
      case 'context_card_clear':
        return this.cards.delete(frame.id.slice(0, MAX_LABEL_CHARS)) ? 'cards' : undefined;
      case 'status_segment': {
        const id = frame.id.slice(0, MAX_LABEL_CHARS);
        const text = frame.text ? oneLine(frame.text, MAX_SEGMENT_CHARS) : '';
        if (!text) return this.segments.delete(id) ? 'status' : undefined;
        if (this.segments.get(id) === text) return undefined;
        if (!this.segments.has(id) && this.segments.size >= MAX_SEGMENTS) return void log(`status_segment "${id}" dropped: an extension shows at most ${MAX_SEGMENTS} segments`), undefined;
        this.segments.set(id, text);
        return 'status';
      }
      case 'set_withdrawn_tools': {
        // Always the whole set; names it does not own are ignored; `all` covers the tools registered now.
        const own = new Set(ownTools);
        const next = new Set(frame.all === true ? own : (frame.tools ?? []).filter((n) => own.has(n)));
        if (next.size === this.withdrawn.size && [...next].every((n) => this.withdrawn.has(n))) return undefined;
        this.withdrawn.clear();
        for (const n of next) this.withdrawn.add(n);
        return 'withdrawn';
      }
      case 'register_connector':
        this.connector = true;
        return undefined;
      case 'chat':
      case 'chat_down':
        return undefined;
    }
  }

  /** Forgets everything (the connection went); returns what had content. */
  clear(): TervaChange[] {
    const had: TervaChange[] = [];
    if (this.context !== undefined) had.push('context');
    if (this.cards.size) had.push('cards');
    if (this.segments.size) had.push('status');
    if (this.withdrawn.size) had.push('withdrawn');
    this.context = undefined;
    this.cards.clear();
    this.segments.clear();
    this.withdrawn.clear();
    this.connector = false;
    return had;
  }
}

function sameCard(a: ContextCard, b: ContextCard): boolean {
  return a.text === b.text && a.label === b.label && a.priority === b.priority && a.blocking === b.blocking;
}

/** One line: control characters and line breaks become spaces, runs of blanks one, cut to `max` characters. */
function oneLine(s: string, max: number): string {
  // eslint-disable-next-line no-control-regex
  const flat = s.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g, ' ').replace(/\s{2,}/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/** `text` cut to at most `max` UTF-8 bytes on a character boundary, `marker` appended when cut. */
function boundBytes(text: string, max: number, marker: string, cut: () => void): string {
  const bytes = Buffer.from(text, 'utf8');
  if (bytes.length <= max) return text;
  cut();
  let end = max;
  // Back off to the start of a character: continuation bytes are 10xxxxxx.
  while (end > 0 && (bytes[end]! & 0xc0) === 0x80) end--;
  return bytes.subarray(0, end).toString('utf8') + marker;
}

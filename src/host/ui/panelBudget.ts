/**
 * A bound on the panels an extension opens by itself (not for a tool call):
 * at most `maxOpen` at once and `maxPerWindow` new ones per `windowMs`, so a
 * flood of open_panel frames cannot bury the UI in webviews. The first
 * refusal of a run says so; the rest are refused quietly until one is
 * admitted again.
 */
export const MAX_SPONTANEOUS_OPEN = 8;
/** Panels one tool call may have open at once (bound to it by tool_call_id, or the interactive call's own). */
export const MAX_PANELS_PER_CALL = 4;
export const MAX_SPONTANEOUS_PER_WINDOW = 20;
export const SPONTANEOUS_WINDOW_MS = 10_000;

export type Admission = { ok: true } | { ok: false; say?: string };

export class PanelBudget {
  private readonly opened = new Map<string, number[]>();
  private readonly refusing = new Set<string>();

  constructor(
    private readonly maxOpen = MAX_SPONTANEOUS_OPEN,
    private readonly maxPerWindow = MAX_SPONTANEOUS_PER_WINDOW,
    private readonly windowMs = SPONTANEOUS_WINDOW_MS,
    private readonly now: () => number = Date.now,
  ) {}

  /** Whether `extension`, with `openNow` such panels open, may open one more. */
  admit(extension: string, openNow: number): Admission {
    const t = this.now();
    const recent = (this.opened.get(extension) ?? []).filter((at) => t - at < this.windowMs);
    const why = openNow >= this.maxOpen
      ? `it already has ${openNow} panels open that no tool call asked for (at most ${this.maxOpen})`
      : recent.length >= this.maxPerWindow
        ? `it opened ${recent.length} panels within ${this.windowMs / 1000} s that no tool call asked for (at most ${this.maxPerWindow})`
        : undefined;
    this.opened.set(extension, recent);
    if (why) {
      if (this.refusing.has(extension)) return { ok: false };
      this.refusing.add(extension);
      return { ok: false, say: `open_panel refused: ${why}; further ones are refused without a word until it is under the bound again` };
    }
    recent.push(t);
    this.refusing.delete(extension);
    return { ok: true };
  }
}

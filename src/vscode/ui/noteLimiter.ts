/**
 * Rate limit and de-duplication of extension notes, per extension: at most
 * MAX_SHOWN notes in WINDOW_MS, and the same text only once in that window.
 * Pure, so it is tested without VS Code.
 */
export const MAX_SHOWN = 3;
export const WINDOW_MS = 10_000;
export type Admission = { show: true } | { show: false; why: 'duplicate' | 'rate' };

/** Pure rate limiter and de-duplicator, per extension. */
export class NoteLimiter {
  private readonly shown = new Map<string, { at: number; key: string }[]>();
  constructor(private readonly max = MAX_SHOWN, private readonly windowMs = WINDOW_MS, private readonly now: () => number = Date.now) {}

  admit(extension: string, level: string, text: string): Admission {
    const t = this.now();
    const recent = (this.shown.get(extension) ?? []).filter((e) => t - e.at < this.windowMs);
    const key = `${level}\0${text}`;
    let result: Admission;
    if (recent.some((e) => e.key === key)) result = { show: false, why: 'duplicate' };
    else if (recent.length >= this.max) result = { show: false, why: 'rate' };
    else {
      recent.push({ at: t, key });
      result = { show: true };
    }
    if (recent.length) this.shown.set(extension, recent);
    else this.shown.delete(extension);
    return result;
  }
}

/** What went wrong with one extension, newest last, bounded. */

const MAX_PROBLEMS = 200;

export class Problems {
  readonly items: { time: number; message: string }[] = [];
  dropped = 0;

  /**
   * `log` writes the problem where the extension's log lines go, marked as a
   * warning; `redact` hides secrets first (a problem may quote what the
   * extension wrote, such as a line that was not JSON).
   */
  constructor(private readonly log: (line: string) => void, private readonly redact: (text: string) => string = (t) => t) {}

  add(raw: string): void {
    const message = this.redact(raw);
    if (this.items.length >= MAX_PROBLEMS) {
      this.items.shift();
      this.dropped++;
    }
    this.items.push({ time: Date.now(), message });
    this.log(`problem: ${message}`);
  }
}

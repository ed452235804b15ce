/**
 * Lifetimes: what is disposed together (a host's subscriptions, one launch's
 * timers and subscriptions), and a timer that is one slot, re-armed in place.
 */
import type { Disposable } from 'vscode-jsonrpc/node';

/** Disposables ended together, last added first; anything added after the end is ended at once. */
export class DisposableStore implements Disposable {
  private items: Disposable[] = [];
  private ended = false;

  add<T extends Disposable>(d: T): T {
    if (this.ended) d.dispose();
    else this.items.push(d);
    return d;
  }

  get isDisposed(): boolean {
    return this.ended;
  }

  dispose(): void {
    this.ended = true;
    for (const d of this.items.splice(0).reverse()) d.dispose();
  }
}

/**
 * One timer: arming it again replaces the previous one; once disposed it
 * never fires again. It fires only after the input that is waiting has been
 * read: a process that was busy past the deadline reads what arrived
 * meanwhile first (Node runs due timers before pending I/O), so a frame that
 * came in time re-arms or clears it instead of losing to a late timer.
 */
export class TimerSlot implements Disposable {
  private timer: NodeJS.Timeout | undefined;
  private immediate: NodeJS.Immediate | undefined;
  private ended = false;

  /** Whether a timer is waiting to fire. */
  get armed(): boolean {
    return this.timer !== undefined;
  }

  arm(ms: number, fire: () => void): void {
    this.clear();
    if (this.ended) return;
    this.timer = setTimeout(() => {
      // Still armed until the check phase: the poll phase in between reads the waiting input.
      this.immediate = setImmediate(() => {
        this.immediate = undefined;
        this.timer = undefined;
        fire();
      });
    }, ms);
  }

  clear(): void {
    clearTimeout(this.timer);
    clearImmediate(this.immediate);
    this.timer = undefined;
    this.immediate = undefined;
  }

  dispose(): void {
    this.ended = true;
    this.clear();
  }
}

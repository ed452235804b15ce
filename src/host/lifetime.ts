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

/** One timer: arming it again replaces the previous one; once disposed it never fires again. */
export class TimerSlot implements Disposable {
  private timer: NodeJS.Timeout | undefined;
  private ended = false;

  /** Whether a timer is waiting to fire. */
  get armed(): boolean {
    return this.timer !== undefined;
  }

  arm(ms: number, fire: () => void): void {
    this.clear();
    if (this.ended) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      fire();
    }, ms);
  }

  clear(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  dispose(): void {
    this.ended = true;
    this.clear();
  }
}

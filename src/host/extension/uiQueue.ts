/**
 * An extension's UI-facing frames (notify, submit, panels…), handled one at
 * a time in arrival order and never on the read path: a handler that waits
 * for a person does not stop replies from being read.
 */
import type { FrameFromExt } from '../../protocol/index.js';

export class UiQueue {
  private queue: FrameFromExt[] = [];
  private head = 0;
  private draining = false;

  constructor(
    private readonly handle: (frame: FrameFromExt) => Promise<void> | void,
    private readonly failed: (frame: FrameFromExt, err: Error) => void,
    /** Told of each frame as it arrives, before any frame read after it (a tool's result above all). */
    private readonly arrived: (frame: FrameFromExt) => void = () => undefined,
  ) {}

  push(frame: FrameFromExt): void {
    this.arrived(frame);
    this.queue.push(frame);
    if (!this.draining) void this.drain();
  }

  private async drain(): Promise<void> {
    this.draining = true;
    while (this.head < this.queue.length) {
      const frame = this.queue[this.head++]!;
      if (this.head > 1024 && this.head * 2 > this.queue.length) {
        this.queue = this.queue.slice(this.head);
        this.head = 0;
      }
      try {
        await this.handle(frame);
      } catch (err) {
        this.failed(frame, err as Error);
      }
    }
    this.queue = [];
    this.head = 0;
    this.draining = false;
  }
}

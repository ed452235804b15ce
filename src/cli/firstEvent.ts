/**
 * Waiting for whichever of several events comes first, with every listener
 * taken off once it has, so a wait that is over holds nothing.
 */
import type { EventEmitter } from 'node:events';

/**
 * Resolves at the first of `events` on `emitter`, or when `start` calls the
 * `done` it is handed; the listeners are removed either way.
 */
export function firstEvent(emitter: EventEmitter, events: readonly string[], start?: (done: () => void) => void): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      for (const e of events) emitter.off(e, done);
      resolve();
    };
    for (const e of events) emitter.once(e, done);
    start?.(done);
  });
}

/**
 * Nothing outlives the process: if it exits without stopping its extensions,
 * their trees are killed synchronously from the 'exit' handler.
 */
import { killTree } from './treeKill.js';

const live = new Set<number>();
let hooked = false;

export function guard(pid: number): void {
  live.add(pid);
  if (hooked) return;
  hooked = true;
  process.on('exit', () => {
    for (const p of live) killTree(p, true);
  });
}

export function release(pid: number): void {
  live.delete(pid);
}

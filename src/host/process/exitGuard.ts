/**
 * Nothing outlives the process: if it exits without stopping its extensions,
 * their trees, and what they started outside them (found by their marker),
 * are killed synchronously from the 'exit' handler.
 */
import { killMarked, markedProcesses } from './marker.js';
import { killTree } from './treeKill.js';

const live = new Map<number, string>();
let hooked = false;

export function guard(pid: number, marker: string): void {
  live.set(pid, marker);
  if (hooked) return;
  hooked = true;
  process.on('exit', () => {
    for (const p of live.keys()) killTree(p, true);
    killMarked(markedProcesses(undefined, true), 'SIGKILL');
  });
}

export function release(pid: number): void {
  live.delete(pid);
}

/**
 * Finding what an extension started after it left its process group
 * (`setsid`, `detached: true`): every extension gets a marker in its
 * environment, inherited by whatever it starts, and on Linux the host looks
 * for it in /proc/<pid>/environ of this user's processes. A process that
 * clears its environment is out of reach; this is a net, not a sandbox.
 */
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import { sleep } from './treeKill.js';

export const MARKER_VAR = 'ZOT_HOST_INSTANCE';
/** This host process's part of every marker it hands out. */
const INSTANCE = randomBytes(8).toString('hex');
let launches = 0;

/** A fresh marker for one extension process. */
export function newMarker(): string {
  return `${INSTANCE}-${process.pid}-${++launches}`;
}

/** Live processes whose environment carries `marker` (or, with `prefix`, any marker of this host). */
export function markedProcesses(marker: string = INSTANCE, prefix = false): number[] {
  if (process.platform !== 'linux') return [];
  let entries: string[];
  try {
    entries = fs.readdirSync('/proc');
  } catch {
    return [];
  }
  const exact = `${MARKER_VAR}=${marker}\0`;
  const start = `${MARKER_VAR}=${marker}-`;
  const found: number[] = [];
  for (const e of entries) {
    const c = e.charCodeAt(0);
    if (c < 48 || c > 57 || Number(e) === process.pid) continue;
    let env: string;
    try {
      env = fs.readFileSync(`/proc/${e}/environ`, 'latin1');
    } catch {
      continue; // gone, or another user's
    }
    if (!(prefix ? env.includes(start) : env.includes(exact))) continue;
    if (!isZombie(e)) found.push(Number(e));
  }
  return found;
}

export function killMarked(pids: readonly number[], signal: NodeJS.Signals): void {
  for (const pid of pids) {
    try {
      process.kill(pid, signal);
    } catch {
      // Already gone.
    }
  }
}

/** Ends every process carrying `marker`: SIGTERM, then SIGKILL after `killAfterMs`. Returns how many there were. */
export async function terminateMarked(marker: string, killAfterMs: number): Promise<number> {
  const first = markedProcesses(marker);
  if (first.length === 0) return 0;
  killMarked(first, 'SIGTERM');
  const deadline = Date.now() + killAfterMs;
  for (let left = first; left.length > 0; left = markedProcesses(marker)) {
    if (Date.now() >= deadline) {
      killMarked(left, 'SIGKILL');
      await sleep(20);
      if (Date.now() >= deadline + 2000) break;
    } else await sleep(20);
  }
  return first.length;
}

function isZombie(pid: string): boolean {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const state = stat.slice(stat.lastIndexOf(')') + 2)[0];
    return state === 'Z' || state === 'X';
  } catch {
    return true;
  }
}

/**
 * Process-group helpers: every extension runs in its own group, so stopping
 * it reaches its grandchildren too.
 */
import * as fs from 'node:fs';

export function signalGroup(pgid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(process.platform === 'win32' ? pgid : -pgid, signal);
  } catch {
    // Already gone.
  }
}

/**
 * Whether any live process remains in the group. Zombies do not count: on a
 * machine whose init does not reap orphans they linger, but they run nothing.
 */
export function groupAlive(pgid: number): boolean {
  try {
    process.kill(process.platform === 'win32' ? pgid : -pgid, 0);
  } catch {
    return false;
  }
  if (process.platform !== 'linux') return true;
  let entries: string[];
  try {
    entries = fs.readdirSync('/proc');
  } catch {
    return true;
  }
  for (const e of entries) {
    const c = e.charCodeAt(0);
    if (c < 48 || c > 57) continue;
    let stat: string;
    try {
      stat = fs.readFileSync(`/proc/${e}/stat`, 'utf8');
    } catch {
      continue;
    }
    // "pid (comm) state ppid pgrp …": comm may hold spaces and parentheses.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (Number(fields[2]) === pgid && fields[0] !== 'Z' && fields[0] !== 'X') return true;
  }
  return false;
}

export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Waits until the group is empty, up to `ms`. Returns whether it emptied. */
export async function waitGroupGone(pgid: number, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  for (let delay = 5; ; delay = Math.min(delay * 2, 50)) {
    if (!groupAlive(pgid)) return true;
    if (Date.now() >= deadline) return false;
    await sleep(delay);
  }
}

/** Ends whatever is left of a group: SIGTERM, then SIGKILL after `killAfterMs`. */
export async function terminateGroup(pgid: number, killAfterMs: number): Promise<boolean> {
  if (!groupAlive(pgid)) return true;
  signalGroup(pgid, 'SIGTERM');
  if (await waitGroupGone(pgid, killAfterMs)) return true;
  signalGroup(pgid, 'SIGKILL');
  return waitGroupGone(pgid, 2000);
}

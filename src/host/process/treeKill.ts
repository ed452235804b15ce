/**
 * Ending an extension's whole process tree, through the plan platform.ts
 * chose: its process group on Linux and macOS, System32's taskkill /T on
 * Windows.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import { killPlan, type KillPlan, type Platform } from './platform.js';

/** Carries out a plan. Synchronous, so it also works from a process 'exit' handler. */
export function execute(plan: KillPlan): void {
  if (plan.kind === 'group') {
    try {
      process.kill(-plan.pgid, plan.signal);
    } catch {
      // Already gone.
    }
    return;
  }
  const r = spawnSync(plan.file, plan.args, { stdio: 'ignore', windowsHide: true });
  if (plan.orEnd === undefined || (!r.error && r.status === 0)) return;
  // The forced step's taskkill failed (a Windows without it, or one that refuses /T, as Wine's does): the
  // process itself is ended (TerminateProcess), so the stop finishes; what it started may outlive it.
  try {
    process.kill(plan.orEnd, 'SIGKILL');
  } catch {
    // Already gone.
  }
}

/** `env` is where Windows' own taskkill is looked for (SystemRoot), never in the current folder. */
export function killTree(pid: number, force: boolean, platform: Platform = process.platform, env: NodeJS.ProcessEnv = process.env): void {
  execute(killPlan(pid, force, platform, env));
}

/**
 * Whether any live process remains in the tree. Zombies do not count: on a
 * machine whose init does not reap orphans they linger, but they run nothing.
 * Windows has no groups to ask about; taskkill /T already walked the tree.
 */
export function treeAlive(pid: number, platform: Platform = process.platform): boolean {
  if (platform === 'win32') return processAlive(pid);
  try {
    process.kill(-pid, 0);
  } catch {
    return false;
  }
  return platform === 'linux' ? liveMemberOnLinux(pid) : true;
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

function liveMemberOnLinux(pgid: number): boolean {
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

/** Waits until the tree is empty, up to `ms`. Returns whether it emptied. */
export async function waitTreeGone(pid: number, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  for (let delay = 5; ; delay = Math.min(delay * 2, 50)) {
    if (!treeAlive(pid)) return true;
    if (Date.now() >= deadline) return false;
    await sleep(delay);
  }
}

/** Ends whatever is left of a tree: the polite kill, then the forced one after `killAfterMs`. */
export async function terminateTree(pid: number, killAfterMs: number): Promise<boolean> {
  if (!treeAlive(pid)) return true;
  killTree(pid, false);
  if (await waitTreeGone(pid, killAfterMs)) return true;
  killTree(pid, true);
  return waitTreeGone(pid, 2000);
}

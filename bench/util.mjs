// Small helpers: statistics, temporary folders, process and stream plumbing.
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';

/** gc(): the bench always runs under --expose-gc (run.mjs sees to it). */
export const gc = () => globalThis.gc();
/**
 * A scavenge only: the young garbage of whatever ran before is collected, and
 * nothing else is disturbed. A full collection also drops optimized code that
 * depends on the maps it frees: before each block of the steady-state figures
 * it cost every peer a new round of optimization in that block (measured here
 * over ten blocks of 2,000 host calls: about 500 lines of optimization in
 * `--trace-opt` against 32 without; CPU per call about 1.5 times its steady
 * value for the host), a state a running host is not in.
 */
export const minorGc = () => globalThis.gc({ type: 'minor' });

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
export const now = () => performance.now();
export const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  if (s.length === 0) return null;
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
/** Nearest-rank percentile. */
export const percentile = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  if (s.length === 0) return null;
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))];
};
export const round = (x, d = 1) => (x === null || x === undefined || !Number.isFinite(x) ? null : Math.round(x * 10 ** d) / 10 ** d);
export const tmpDir = (tag) => fs.mkdtempSync(path.join(os.tmpdir(), `zot-bench-${tag}-`));
export const tmpDirs = [];
export const scratch = (tag) => {
  const d = tmpDir(tag);
  tmpDirs.push(d);
  return d;
};
export async function settleGc() {
  for (let i = 0; i < 3; i++) {
    gc();
    await sleep(30);
  }
}
export function vmRssKb(pid) {
  try {
    const m = /^VmRSS:\s+(\d+)\s+kB/m.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) : null;
  } catch {
    return null;
  }
}
export function waitExit(child, ms = 3000) {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const t = setTimeout(() => {
      child.kill('SIGKILL');
      resolve();
    }, ms);
    child.once('exit', () => {
      clearTimeout(t);
      resolve();
    });
  });
}

/**
 * Spawns every command at once (`{ file, args, cwd }`, each in its own
 * process group, as the host starts extensions) and times them until each has
 * written its `ready` frame; then ends them. The floor of starting extensions.
 */
export async function spawnUntilReady(commands) {
  const t0 = now();
  const children = await Promise.all(commands.map(({ file, args, cwd }) => new Promise((resolve, reject) => {
    const child = spawn(file, args, { cwd, stdio: ['pipe', 'pipe', 'ignore'], detached: true });
    child.once('error', reject);
    readFrames(child.stdout, (f) => {
      if (f.type === 'ready') resolve(child);
    });
  })));
  const ms = now() - t0;
  for (const c of children) c.stdin.end();
  await Promise.all(children.map((c) => waitExit(c)));
  return ms;
}

/**
 * A bare NDJSON line reader over a child's stdout: splits, JSON.parses, hands
 * each frame to `onFrame`. Linear in the bytes however they are chunked.
 */
export function readFrames(stream, onFrame) {
  let parts = [];
  stream.on('data', (chunk) => {
    let start = 0;
    for (let nl = chunk.indexOf(10); nl !== -1; nl = chunk.indexOf(10, start)) {
      let text;
      if (parts.length) {
        parts.push(chunk.subarray(start, nl));
        text = Buffer.concat(parts).toString('utf8');
        parts = [];
      } else {
        text = chunk.toString('utf8', start, nl);
      }
      start = nl + 1;
      if (text.length) onFrame(JSON.parse(text));
    }
    if (start < chunk.length) parts.push(chunk.subarray(start));
  });
}

/** Lines of a child's stderr. */
export function readLines(stream, onLine) {
  let partial = '';
  stream.setEncoding('utf8');
  stream.on('data', (chunk) => {
    const lines = (partial + chunk).split('\n');
    partial = lines.pop();
    for (const l of lines) onLine(l);
  });
}

/** Removes every temporary folder made with scratch(). */
export function cleanup() {
  for (const d of tmpDirs) {
    try {
      fs.rmSync(d, { recursive: true, force: true });
    } catch {
      // best effort
    }
  }
}

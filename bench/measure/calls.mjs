// Measurements of calls: sequential round trips, calls in flight, rounds that
// interleave the peers, and cancel latency (host and floor).
import { CancellationTokenSource } from '../peers.mjs';
import { TEXT } from '../config.mjs';
import { minorGc, now, percentile, sleep } from '../util.mjs';

/** n sequential calls: { ms, cpuUs } (wall time, and CPU time of this process). */
export async function sequential(peer, n) {
  const c0 = process.cpuUsage();
  const t0 = now();
  for (let i = 0; i < n; i++) {
    const r = await peer.call(TEXT);
    if (peer.textOf(r) !== TEXT) throw new Error(`${peer.name}: wrong answer: ${peer.textOf(r)}`);
  }
  const ms = now() - t0;
  const c = process.cpuUsage(c0);
  return { ms, cpuUs: c.user + c.system };
}

/** `total` calls with `width` in flight (a new call starts as each one ends): { ms, cpuUs }. */
export function inFlight(peer, total, width) {
  return new Promise((resolve, reject) => {
    let started = 0;
    let done = 0;
    const c0 = process.cpuUsage();
    const t0 = now();
    const launch = () => {
      started++;
      peer.call(TEXT).then((r) => {
        if (peer.textOf(r) !== TEXT) return reject(new Error(`${peer.name}: wrong answer: ${peer.textOf(r)}`));
        done++;
        if (done === total) {
          const ms = now() - t0;
          const c = process.cpuUsage(c0);
          resolve({ ms, cpuUs: c.user + c.system });
        } else if (started < total) launch();
      }, reject);
    };
    for (let i = 0; i < Math.min(width, total); i++) launch();
  });
}

/** Every order of `xs`. */
function permutations(xs) {
  if (xs.length <= 1) return [xs];
  return xs.flatMap((x, i) => permutations([...xs.slice(0, i), ...xs.slice(i + 1)]).map((rest) => [x, ...rest]));
}

/** The orders the peers take turns in, one per block: every order once (in a fixed shuffle), then again. */
export function turnOrders(peers, count) {
  const all = permutations(peers);
  // A fixed shuffle (a small linear congruential generator), so runs are alike and no order comes in a pattern.
  let seed = 7;
  for (let i = all.length - 1; i > 0; i--) {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    const j = seed % (i + 1);
    [all[i], all[j]] = [all[j], all[i]];
  }
  return Array.from({ length: count }, (_, k) => all[k % all.length]);
}

/**
 * `count` rounds of `perRound` calls per peer. A round is cut into `blocks`
 * blocks and the peers take turns block by block, so a noisy spell of the
 * machine is shared by all of them. Each block has its own order of the peers
 * (turnOrders): a peer never always follows the same one, whose garbage and
 * collector work would then always land in its block (with the order only
 * rotated, the host always came right after the MCP SDK, which allocates the
 * most). Before each block a scavenge clears the young garbage of the blocks
 * before (see minorGc). Per peer and round: { ms, cpuUs, calls } summed over
 * its blocks.
 */
export async function rounds(peers, count, perRound, blocks, fn) {
  const all = Object.fromEntries(peers.map((p) => [p.name, []]));
  const n = Math.ceil(perRound / blocks);
  const orders = turnOrders(peers, count * blocks);
  for (let r = 0; r < count; r++) {
    const acc = Object.fromEntries(peers.map((p) => [p.name, { ms: 0, cpuUs: 0, calls: 0 }]));
    for (let b = 0; b < blocks; b++) {
      for (const p of orders[r * blocks + b]) {
        minorGc();
        const x = await fn(p, n);
        acc[p.name].ms += x.ms;
        acc[p.name].cpuUs += x.cpuUs;
        acc[p.name].calls += n;
      }
    }
    for (const p of peers) all[p.name].push(acc[p.name]);
  }
  return all;
}

export async function cancelViaHost(hp, n, warm) {
  const { host } = hp;
  const waiters = new Map();
  const sub = host.onLog(({ line, kind }) => {
    if (kind === 'stderr' && line.startsWith('got ')) waiters.get(Number(line.slice(4)))?.();
  });
  const t0s = new Map();
  const outcomes = {};
  try {
    for (let k = 0; k < warm + n; k++) {
      const cts = new CancellationTokenSource();
      const got = new Promise((r) => waiters.set(k, r));
      const p = host.runToolCall('hang', { k }, { token: cts.token });
      await got;
      waiters.delete(k);
      await sleep(1);
      const t0 = process.hrtime.bigint();
      cts.cancel();
      const o = await p;
      t0s.set(k, t0);
      outcomes[o.outcome] = (outcomes[o.outcome] ?? 0) + 1;
      cts.dispose();
    }
  } finally {
    sub.dispose();
  }
  const rep = await host.runToolCall('cancel_report', {});
  return latencies(JSON.parse(rep.content[0].text), t0s, warm, { outcomes });
}

export async function cancelViaFloor(fp, n, warm) {
  const waiters = new Map();
  const listener = (line) => {
    if (line.startsWith('got ')) waiters.get(Number(line.slice(4)))?.();
  };
  fp.stderrListeners.add(listener);
  const t0s = new Map();
  try {
    for (let k = 0; k < warm + n; k++) {
      const got = new Promise((r) => waiters.set(k, r));
      const id = fp.nextId();
      void fp.request('hang', { k }); // never answered
      await got;
      waiters.delete(k);
      await sleep(1);
      const t0 = process.hrtime.bigint();
      fp.child.stdin.write(JSON.stringify({ type: 'tool_cancel', id }) + '\n');
      t0s.set(k, t0);
    }
  } finally {
    fp.stderrListeners.delete(listener);
  }
  const rep = await fp.request('cancel_report', {});
  return latencies(JSON.parse(rep.content[0].text), t0s, warm, {});
}

function latencies(readAt, t0s, warm, extra) {
  const ms = [];
  let missing = 0;
  for (const [k, t0] of t0s) {
    if (k < warm) continue;
    if (readAt[k] === undefined) {
      missing++;
      continue;
    }
    ms.push(Number(BigInt(readAt[k]) - t0) / 1e6);
  }
  return { p50: percentile(ms, 50), p99: percentile(ms, 99), max: ms.length ? Math.max(...ms) : null, n: ms.length, missing, ...extra };
}

// Memory, in a fresh process of its own (node --expose-gc bench/run.mjs --part
// memory): RSS growth over many calls, and the idle extension's RSS.
import { spawnSync } from 'node:child_process';
import { HOST_LIB, N, QUICK, RUN } from '../config.mjs';
import { openFloorPeer, openHostPeer } from '../peers.mjs';
import { settleGc, sleep, vmRssKb } from '../util.mjs';
import { inFlight } from './calls.mjs';

export async function memoryPart(which) {
  const peer = which === 'floor' ? await openFloorPeer() : await openHostPeer();
  const pid = which === 'floor' ? peer.child.pid : peer.rt.pid;
  const mb = (b) => b / (1024 * 1024);
  try {
    await sleep(500);
    const idleKb = vmRssKb(pid);
    await settleGc();
    const fresh = process.memoryUsage();
    // Warm-up to the steady state: V8 grows its young generation to the allocation rate over the first
    // tens of thousands of calls (the floor's process does the same), which is not a cost per call.
    await inFlight(peer, N.WARM_MEM, N.WIDTH);
    await settleGc();
    const before = process.memoryUsage();
    await inFlight(peer, N.MEM_CALLS, N.WIDTH);
    await settleGc();
    const after = process.memoryUsage();
    return {
      idle_extension_kb: idleKb,
      rss_fresh_mb: mb(fresh.rss),
      rss_before_mb: mb(before.rss),
      rss_after_mb: mb(after.rss),
      rss_warmup_growth_mb: mb(before.rss - fresh.rss),
      rss_growth_mb: (mb(after.rss - before.rss) * 100_000) / N.MEM_CALLS,
      heap_growth_mb: (mb(after.heapUsed - before.heapUsed) * 100_000) / N.MEM_CALLS,
      calls: N.MEM_CALLS,
      warmup_calls: N.WARM_MEM,
      extension_rss_after_kb: vmRssKb(pid),
    };
  } finally {
    await peer.close();
  }
}

export function runMemoryChild(which) {
  const r = spawnSync(process.execPath, ['--expose-gc', RUN, '--part', 'memory', '--peer', which, '--host-lib', HOST_LIB, ...(QUICK ? ['--quick'] : [])], { encoding: 'utf8', timeout: 120_000 });
  const line = (r.stdout ?? '').trim().split('\n').pop();
  if (r.status !== 0 || !line) throw new Error(`memory child failed (${r.status ?? r.signal}): ${(r.stderr ?? '').slice(-500)}`);
  return JSON.parse(line);
}

// User-space instructions per sequential call, under valgrind's callgrind: a
// count that does not depend on how busy the machine is. The calling process
// runs under callgrind twice (bench/run.mjs --part instructions), making
// INSTR_CALLS_SHORT and then INSTR_CALLS_LONG calls after the same warm-up;
// the difference of the two totals over the difference of the calls is the
// cost of one call, with start, warm-up and exit cancelled out (V8_FLAGS
// below say how V8 runs for it). The extension
// is not traced (callgrind follows no child), as the CPU figures count only
// this process too.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { HOST_LIB, N, RUN, TEXT } from '../config.mjs';
import { openFloorPeer, openHostPeer } from '../peers.mjs';
import { scratch } from '../util.mjs';
import { sequential } from './calls.mjs';

/**
 * V8 without background threads, and with a heap that grows on a fixed
 * schedule: optimisation and garbage collection then happen at points set by
 * the calls, not by how threads were scheduled, so two runs of one build
 * count within a few percent of each other (with V8's defaults, runs of the
 * floor were up to 12% apart). The count is of this configuration, higher
 * than with the defaults, and the same configuration for every build and peer.
 */
export const V8_FLAGS = ['--single-threaded', '--predictable-gc-schedule'];

/** In the traced process: warm up, make `calls` sequential calls, stop. */
export async function instructionsPart(which, calls) {
  const peer = which === 'floor' ? await openFloorPeer() : await openHostPeer();
  try {
    await sequential(peer, N.INSTR_WARM);
    if (peer.textOf(await peer.call(TEXT)) !== TEXT) throw new Error(`${which}: wrong answer`);
    await sequential(peer, calls);
    return { calls };
  } finally {
    await peer.close();
  }
}

/** The valgrind on PATH, or the reason there is none. */
export function valgrindVersion() {
  const r = spawnSync('valgrind', ['--version'], { encoding: 'utf8' });
  if (r.error || r.status !== 0) throw new Error('valgrind is not installed (apt-get install valgrind), so instructions per call are not counted');
  return r.stdout.trim();
}

/** Total instructions of one traced run of `calls` calls through `which`. */
function tracedRun(which, calls) {
  const out = path.join(scratch('callgrind'), 'callgrind.out');
  const args = ['--tool=callgrind', `--callgrind-out-file=${out}`, process.execPath, '--expose-gc', ...V8_FLAGS, RUN,
    '--part', 'instructions', '--peer', which, '--calls', String(calls), '--host-lib', HOST_LIB];
  const r = spawnSync('valgrind', args, { encoding: 'utf8', timeout: 900_000 });
  if (r.status !== 0) throw new Error(`callgrind run of ${which} (${calls} calls) failed (${r.status ?? r.signal}): ${(r.stderr ?? '').slice(-500)}`);
  const m = /^(?:summary|totals):\s*(\d+)/m.exec(fs.readFileSync(out, 'utf8'));
  if (!m) throw new Error(`no instruction total in ${out}`);
  return Number(m[1]);
}

/** Instructions per call of `which` (host or floor): { per_call, short, long, calls }. */
export function instructionsPerCall(which) {
  const short = tracedRun(which, N.INSTR_CALLS_SHORT);
  const long = tracedRun(which, N.INSTR_CALLS_LONG);
  return { per_call: (long - short) / (N.INSTR_CALLS_LONG - N.INSTR_CALLS_SHORT), short, long, calls: [N.INSTR_CALLS_SHORT, N.INSTR_CALLS_LONG] };
}

// The bench's settings: where things are, its command line, and the counts
// (reduced by --quick). Every module reads them from here.
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const BENCH = path.join(ROOT, 'bench');
export const ECHO_DIR = path.join(BENCH, 'fixtures', 'zot-echo');
export const JSONRPC_PEER = path.join(BENCH, 'fixtures', 'jsonrpc-peer.cjs');
export const MCP_PEER = path.join(BENCH, 'fixtures', 'mcp-peer.mjs');
export const PANEL_DIR = path.join(BENCH, 'fixtures', 'zot-panel');
/** The entry point, which the memory part runs again in a fresh process. */
export const RUN = path.join(BENCH, 'run.mjs');

// ---- arguments ----

export const argv = process.argv.slice(2);
export const flag = (name) => argv.includes(name);
export const value = (name) => {
  const i = argv.indexOf(name);
  return i >= 0 && i + 1 < argv.length ? argv[i + 1] : undefined;
};
export const QUICK = flag('--quick');
export const STRICT = flag('--strict');
export const JSON_OUT = value('--json');
/** A full run's document (bench/results.json) that an `--only harness` run writes its figures into, keeping the rest. */
export const INTO = value('--into');
export const PART = value('--part');
/** Another build of the host library, for comparing a change (default: dist/host.js). */
export const HOST_LIB = path.resolve(value('--host-lib') ?? path.join(ROOT, 'dist', 'host.js'));
/** Only these sections: roundtrip,throughput,cancel,big,startup,hook,harness,memory,instructions,bundle,vscode (the others are null). */
export const ONLY = value('--only')?.split(',');
/**
 * Whether a section runs. One that is slow for a try-out (`quick: false`: the agent harnesses, minutes of
 * real CLI sessions) runs under --quick only when --only names it.
 * @param {string} section
 * @param {{ quick?: boolean }} [o]
 */
export const want = (section, { quick = true } = {}) => (ONLY ? ONLY.includes(section) : quick || !QUICK);
/** Only these peers (host,floor,jsonrpc,mcp): bench/compare.mjs keeps the host and its floor. */
export const PEERS = value('--peers')?.split(',') ?? ['host', 'floor', 'jsonrpc', 'mcp'];

export const N = {
  WARM: QUICK ? 500 : 2_000,
  RT_CALLS: QUICK ? 2_000 : 20_000,
  /**
   * The best of these rounds is the figure. With 3, one peer's best round
   * could fall in a fast spell of the machine and another's not (one run's
   * rounds: host 42, 36, 41.1 µs, floor 40, 40.2, 31.5; the best 1.14 times
   * apart, the medians 1.03).
   */
  ROUNDS_RT: 6,
  TP_CALLS: QUICK ? 5_000 : 30_000,
  ROUNDS_TP: 3,
  BLOCKS: 10,
  CANCEL_CALLS: QUICK ? 200 : 1_000,
  CANCEL_WARM: 50,
  STARTUP_REPS: QUICK ? 3 : 5,
  HOOK_REPS: QUICK ? 3 : 11,
  BIG_REPS: QUICK ? 6 : 15,
  WARM_MEM: QUICK ? 20_000 : 100_000,
  MEM_CALLS: QUICK ? 20_000 : 100_000,
  WIDTH: 64,
  PANEL_KEYS: QUICK ? 100 : 500,
  PANEL_WARM: QUICK ? 10 : 30,
  /**
   * Under callgrind (about 50 times slower): the warm-up, and the two counts
   * whose difference is measured. 12,000 calls apart: with 1,000 and 6,000 the
   * difference still carried the compiler's and collector's work on the first
   * calls (the count per call was about a fifth higher, host and floor alike).
   */
  INSTR_WARM: QUICK ? 1_000 : 3_000,
  INSTR_CALLS_SHORT: QUICK ? 500 : 2_000,
  INSTR_CALLS_LONG: QUICK ? 2_500 : 14_000,
  /**
   * Agent harnesses (bench/measure/harness.mjs): rounds of one session per harness and hook, each
   * making this many calls of a zot tool, one after another (one CLI start gives them all).
   */
  HARNESS_ROUNDS: QUICK ? 2 : 5,
  HARNESS_CALLS: QUICK ? 4 : 10,
  /** With the command hook, a second or so a call on a busy machine, and only there to compare with: fewer. */
  HARNESS_COMMAND_CALLS: QUICK ? 2 : 3,
  /** Extensions whose tools the time to tools waits for (the startup figure's twenty). */
  TOOLS_EXTENSIONS: 20,
};
export const TEXT = 'hello from the benchmark';

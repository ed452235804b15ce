// An agent hook's cost per tool call: `zot-host hook PreToolUse` (dist/cli.js)
// started cold with one Node guard, from spawn to exit with its answer, for
// an allowed call and a denied one; and the floor: a bare Node program that
// reads the same input and answers `{}` (the least a hook written in Node
// costs). The editor's warm path is not measured: there is none yet.
import { spawn } from 'node:child_process';
import * as path from 'node:path';
import { BENCH, ROOT } from '../config.mjs';
import { now, scratch } from '../util.mjs';

const CLI = path.join(ROOT, 'dist', 'cli.js');
const GUARD = path.join(BENCH, 'fixtures', 'zot-guard');
const FLOOR = "let s='';process.stdin.on('data',(d)=>s+=d).on('end',()=>{JSON.parse(s);process.stdout.write('{}\\n')})";

function once(args, input) {
  return new Promise((resolve, reject) => {
    const t0 = now();
    const child = spawn(process.execPath, args, { stdio: ['pipe', 'pipe', 'ignore'] });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.once('error', reject);
    child.on('close', (code) => (code === 0 ? resolve({ ms: now() - t0, out }) : reject(new Error(`exit ${code}: ${out}`))));
    child.stdin.end(JSON.stringify(input));
  });
}

/** Medians over `reps` of: an allowed call, a denied call, and the floor; interleaved. */
export async function hookFigures(reps) {
  const home = scratch('hook-home');
  const args = [CLI, 'hook', 'PreToolUse', '--no-discover', '--home', home, '--ext', GUARD];
  const input = (command) => ({ hook_event_name: 'PreToolUse', tool_name: 'run_in_terminal', tool_input: { command }, tool_use_id: 'b1' });
  const s = { allow: [], deny: [], floor: [] };
  for (let i = -1; i < reps; i++) {
    const a = await once(args, input('ls'));
    const d = await once(args, input('rm -rf build'));
    const f = await once(['-e', FLOOR], input('ls'));
    if (a.out.trim() !== '{}' || !d.out.includes('"deny"') || f.out.trim() !== '{}') throw new Error(`unexpected answers: ${a.out} ${d.out} ${f.out}`);
    if (i < 0) continue; // warm-up
    s.allow.push(a.ms);
    s.deny.push(d.ms);
    s.floor.push(f.ms);
  }
  return s;
}

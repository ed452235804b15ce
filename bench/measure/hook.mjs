// An agent hook's cost per tool call, from spawn to exit with its answer,
// run as the hook commands zot writes run it (dist/hook.js, the hook verb
// alone, which goes on in dist/cli.js when no window answers):
// `zot-host hook PreToolUse` started cold with one Node guard,
// for an allowed call and a denied one; the same through an editor window
// (a host already running the guard, its loopback server answering hooks,
// listed in a windows folder as VS Code lists itself); and the floor: a bare
// Node program that reads the same input and answers `{}` (the least a hook
// written in Node costs). Beside them, what starting the CLI costs at all:
// `zot-host --help` as a whole process against `node -e 0`. All of it runs
// the CLI users get: the production build (minified, as the VSIX ships it).
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import { createRequire } from 'node:module';
import * as path from 'node:path';
import { BENCH, ROOT } from '../config.mjs';
import { ZotHost } from '../peers.mjs';
import { productionBuild } from './artifacts.mjs';
import { now, scratch } from '../util.mjs';

const require = createRequire(import.meta.url);

const GUARD = path.join(BENCH, 'fixtures', 'zot-guard');
const FLOOR = "let s='';process.stdin.on('data',(d)=>s+=d).on('end',()=>{JSON.parse(s);process.stdout.write('{}\\n')})";

function once(args, input, env = {}) {
  return new Promise((resolve, reject) => {
    const t0 = now();
    const child = spawn(process.execPath, args, { stdio: ['pipe', 'pipe', 'ignore'], env: { ...process.env, ...env } });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.once('error', reject);
    child.on('close', (code) => (code === 0 ? resolve({ ms: now() - t0, out }) : reject(new Error(`exit ${code}: ${out}`))));
    child.stdin.end(JSON.stringify(input));
  });
}

/** Medians over `reps` of: an allowed call and a denied call cold, both through an editor window, and the floor; interleaved. */
export async function hookFigures(reps) {
  const CLI = path.join(productionBuild(), 'cli.js');
  const HOOK = path.join(productionBuild(), 'hook.js');
  const home = scratch('hook-home');
  const project = scratch('hook-project');
  const args = [HOOK, 'hook', 'PreToolUse', '--no-discover', '--home', home, '--ext', GUARD];
  const input = (command) => ({ hook_event_name: 'PreToolUse', tool_name: 'run_in_terminal', tool_input: { command }, tool_use_id: 'b1', cwd: project });
  // The editor's side: the guard already running, answering through the loopback server.
  const host = new ZotHost({ cwd: project, zotHome: home, discover: false, extensionPaths: [GUARD] });
  await host.start();
  const server = await require(path.join(ROOT, 'dist', 'mcp.js')).startMcpHttpServer(host);
  const token = 'b'.repeat(43);
  server.setHookToken(token);
  const windows = scratch('hook-windows');
  fs.writeFileSync(path.join(windows, `${process.pid}.json`), JSON.stringify({ pid: process.pid, url: new URL(server.url).origin, folders: [project] }));
  const viaEditor = { ZOT_HOOK_TOKEN: token, ZOT_HOOK_WINDOWS: windows };
  // Through the window the hook starts nothing of its own: no --ext.
  const editorArgs = [HOOK, 'hook', 'PreToolUse', '--no-discover', '--home', home];
  const s = { allow: [], deny: [], editor_allow: [], editor_deny: [], floor: [], cli_help: [], node_bare: [] };
  try {
    for (let i = -1; i < reps; i++) {
      const a = await once(args, input('ls'));
      const d = await once(args, input('rm -rf build'));
      const ea = await once(editorArgs, input('ls'), viaEditor);
      const ed = await once(editorArgs, input('rm -rf build'), viaEditor);
      const f = await once(['-e', FLOOR], input('ls'));
      const help = await once([CLI, '--help'], {});
      const bare = await once(['-e', '0'], {});
      if (!/^zot-host [^\n]*\n\nusage:/.test(help.out)) throw new Error(`zot-host --help: unexpected output ${help.out.slice(0, 200)}`);
      for (const [what, r, want] of [['cold allow', a, '{}'], ['cold deny', d, 'deny'], ['editor allow', ea, '{}'], ['editor deny', ed, 'deny'], ['floor', f, '{}']]) {
        if (want === '{}' ? r.out.trim() !== '{}' : !r.out.includes(`"${want}"`)) throw new Error(`${what}: unexpected answer ${r.out}`);
      }
      if (i < 0) continue; // warm-up
      s.allow.push(a.ms);
      s.deny.push(d.ms);
      s.editor_allow.push(ea.ms);
      s.editor_deny.push(ed.ms);
      s.floor.push(f.ms);
      s.cli_help.push(help.ms);
      s.node_bare.push(bare.ms);
    }
  } finally {
    await server.close();
    await host.dispose();
  }
  return s;
}

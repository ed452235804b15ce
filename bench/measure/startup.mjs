// Startup of 1 and 20 extensions: through the host, and the floor (the same
// processes spawned directly, each waited for until it says ready).
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ECHO_DIR } from '../config.mjs';
import { ZotHost } from '../peers.mjs';
import { now, scratch, spawnUntilReady } from '../util.mjs';

export function makeHome(count) {
  const home = scratch(`startup${count}`);
  const dirs = [];
  for (let i = 1; i <= count; i++) {
    const tag = String(i).padStart(2, '0');
    const dir = path.join(home, 'extensions', `echo-${tag}`);
    fs.mkdirSync(dir, { recursive: true });
    fs.copyFileSync(path.join(ECHO_DIR, 'index.mjs'), path.join(dir, 'index.mjs'));
    const args = ['index.mjs', '--name', `echo-${tag}`, '--prefix', `e${tag}_`];
    fs.writeFileSync(path.join(dir, 'extension.json'), JSON.stringify({ name: `echo-${tag}`, version: '1.0.0', exec: 'node', args, enabled: true }));
    dirs.push({ dir, args });
  }
  return { home, dirs };
}

export async function startupHost({ home }, count, project) {
  const host = new ZotHost({ cwd: project, zotHome: home, env: { ...process.env, ZOT_HOME: home }, discover: true });
  const t0 = now();
  await host.start();
  const ms = now() - t0;
  const states = host.extensions.map((r) => r.state);
  await host.dispose();
  if (states.length !== count || !states.every((s) => s === 'ready')) throw new Error(`startup of ${count}: states ${states.join(',')}`);
  return ms;
}

export function startupFloor({ dirs }) {
  return spawnUntilReady(dirs.map(({ dir, args }) => ({ file: process.execPath, args, cwd: dir })));
}

/**
 * Installing extensions into `$ZOT_HOME/extensions`, as `zot ext install`
 * does: a folder whose manifest reads well is copied under its folder name.
 * A replacement is copied beside the old one first and swapped in, so a
 * failed copy never leaves a half-installed extension. Pure Node.
 */
import { randomBytes } from 'node:crypto';
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { globalExtensionsDir, readManifest } from '../../host/index.js';

export type InstallCheck =
  | { ok: true; name: string; folder: string; target: string; exists: boolean }
  | { ok: false; reason: string };

/** Whether `src` can be installed into `zotHome`, and where it would go. */
export async function checkInstall(src: string, zotHome: string): Promise<InstallCheck> {
  const from = path.resolve(src);
  const st = await fsp.stat(from).catch(() => undefined);
  if (!st?.isDirectory()) return { ok: false, reason: `${from} is not a folder` };
  const m = readManifest(from);
  if (!m.ok) return { ok: false, reason: m.error };
  const folder = path.basename(from);
  if (folder.startsWith('.')) return { ok: false, reason: `the folder name "${folder}" starts with a dot; zot skips such folders` };
  const root = globalExtensionsDir(zotHome);
  const target = path.join(root, folder);
  const real = await fsp.realpath(from).catch(() => from);
  const realRoot = await fsp.realpath(root).catch(() => root);
  if (real === path.join(realRoot, folder)) return { ok: false, reason: `${from} is already installed (it is the installed folder)` };
  if (isInside(path.join(realRoot, folder), real) || isInside(real, realRoot)) return { ok: false, reason: `${from} and ${root} overlap` };
  const exists = (await fsp.lstat(target).catch(() => undefined)) !== undefined;
  return { ok: true, name: m.manifest.name, folder, target, exists };
}

/** Copies `src` to `target`, replacing what is there (the caller asked). */
export async function copyInto(src: string, target: string): Promise<void> {
  const parent = path.dirname(target);
  await fsp.mkdir(parent, { recursive: true });
  const tag = randomBytes(4).toString('hex');
  const staging = path.join(parent, `.${path.basename(target)}.installing-${tag}`);
  const old = path.join(parent, `.${path.basename(target)}.old-${tag}`);
  try {
    await fsp.cp(src, staging, { recursive: true, preserveTimestamps: true, filter: (p) => path.basename(p) !== '.git' });
    const had = (await fsp.lstat(target).catch(() => undefined)) !== undefined;
    if (had) await fsp.rename(target, old);
    await fsp.rename(staging, target);
    if (had) await fsp.rm(old, { recursive: true, force: true });
  } finally {
    await fsp.rm(staging, { recursive: true, force: true });
  }
}

export interface SamplesResult {
  installed: string[];
  /** Already there (by folder name); left as they are. */
  skipped: string[];
  failed: { folder: string; reason: string }[];
}

/** Copies every sample folder that is not installed yet. */
export async function installSamples(samplesDir: string, zotHome: string): Promise<SamplesResult> {
  const result: SamplesResult = { installed: [], skipped: [], failed: [] };
  const names = (await fsp.readdir(samplesDir, { withFileTypes: true }).catch(() => [])).filter((d) => d.isDirectory() && !d.name.startsWith('.')).map((d) => d.name).sort();
  for (const folder of names) {
    const check = await checkInstall(path.join(samplesDir, folder), zotHome);
    if (!check.ok) result.failed.push({ folder, reason: check.reason });
    else if (check.exists) result.skipped.push(folder);
    else {
      try {
        await copyInto(path.join(samplesDir, folder), check.target);
        result.installed.push(folder);
      } catch (err) {
        result.failed.push({ folder, reason: (err as Error).message });
      }
    }
  }
  return result;
}

function isInside(child: string, parent: string): boolean {
  const rel = path.relative(parent, child);
  return rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel);
}

/**
 * Finding extensions: explicit folders, then `<project>/.zot/extensions/*`
 * of each project folder in the workspace's order, then
 * `$ZOT_HOME/extensions/*`, each root's folders in name order. That order is
 * the load order, which also settles name clashes (docs/PROTOCOL.md 5a).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { readManifest, type Manifest } from './manifest.js';
import { globalExtensionsDir, projectExtensionsDir } from './paths.js';

export type ExtensionSource = 'explicit' | 'project' | 'global';

export interface FoundExtension {
  /** Manifest name, or the folder name when the manifest is unusable. */
  name: string;
  dir: string;
  source: ExtensionSource;
  /** The project folder whose `.zot/extensions` holds it (project ones only): its `cwd`. */
  projectDir?: string;
  /** Position in load order; lower wins a name. */
  rank: number;
  manifest?: Manifest;
  assetsOnly: boolean;
  /** Why it cannot load: a bad manifest, a missing folder. */
  error?: string;
  /** Set when another folder or manifest with the same name came first; this one is not loaded. */
  shadowedBy?: string;
  /** Held (not allowed to run), it claims no name: this folder, with the same name, is loaded instead. */
  yieldedTo?: string;
}

export interface DiscoveryOptions {
  /** What relative explicit paths resolve against. */
  projectDir: string;
  /** The project folders searched, in order; default `[projectDir]`, none when empty. */
  projectDirs?: readonly string[];
  zotHome: string;
  explicit?: string[];
  /** false: only the explicit folders (the CLI's --no-discover). */
  discover?: boolean;
  /** Folders that are held: listed, but they shadow nothing (so held workspace code cannot switch off a user's extension). */
  yielding?: ReadonlySet<string>;
}

export function discoverExtensions(opts: DiscoveryOptions): FoundExtension[] {
  const candidates: { dir: string; source: ExtensionSource; projectDir?: string; skipped?: string }[] = [];
  for (const dir of opts.explicit ?? []) candidates.push({ dir: path.resolve(opts.projectDir, dir), source: 'explicit' });
  if (opts.discover !== false) {
    for (const project of opts.projectDirs ?? [opts.projectDir]) {
      for (const c of childFolders(projectExtensionsDir(project))) candidates.push({ ...c, source: 'project', projectDir: project });
    }
    for (const c of childFolders(globalExtensionsDir(opts.zotHome))) candidates.push({ ...c, source: 'global' });
  }

  const found: FoundExtension[] = [];
  const byFolder = new Map<string, FoundExtension>();
  const byName = new Map<string, FoundExtension>();
  const seenDirs = new Set<string>();
  for (const { dir, source, projectDir, skipped } of candidates) {
    if (skipped) {
      found.push({ name: path.basename(dir), dir, source, ...(projectDir !== undefined && { projectDir }), rank: found.length, assetsOnly: false, error: skipped });
      continue;
    }
    const real = realPath(dir);
    if (seenDirs.has(real)) continue; // the same folder named twice (an explicit path inside a root, or two links to one folder)
    seenDirs.add(real);
    const folder = path.basename(dir);
    const entry: FoundExtension = { name: folder, dir, source, ...(projectDir !== undefined && { projectDir }), rank: found.length, assetsOnly: false };
    found.push(entry);

    if (!isDirectory(dir)) {
      entry.error = `extension folder ${dir} does not exist or is not a folder`;
      continue;
    }
    const yields = opts.yielding?.has(path.resolve(dir)) === true;
    const firstWithFolder = byFolder.get(folder);
    if (firstWithFolder) {
      entry.shadowedBy = firstWithFolder.dir;
      continue;
    }
    if (!yields) byFolder.set(folder, entry);

    const result = readManifest(dir);
    if (!result.ok) {
      entry.error = result.error;
      continue;
    }
    entry.name = result.manifest.name;
    entry.manifest = result.manifest;
    entry.assetsOnly = result.assetsOnly;
    const firstWithName = byName.get(entry.name);
    if (firstWithName) {
      entry.shadowedBy = firstWithName.dir;
      continue;
    }
    if (!yields) byName.set(entry.name, entry);
  }
  for (const e of found) {
    if (!opts.yielding?.has(path.resolve(e.dir)) || e.shadowedBy) continue;
    const other = byFolder.get(path.basename(e.dir)) ?? byName.get(e.name);
    if (other && other !== e) e.yieldedTo = other.dir;
  }
  return found;
}

/**
 * Sub-folders of a root in name order, following symlinks; hidden ones are
 * skipped. An entry that cannot be an extension folder but looks meant as one
 * (a name that is not UTF-8, a symlink loop or one to nothing) comes back
 * with why, so it is reported rather than silently missing.
 */
function childFolders(root: string): { dir: string; skipped?: string }[] {
  let names: Buffer[];
  try {
    names = fs.readdirSync(root, { encoding: 'buffer' });
  } catch {
    return [];
  }
  const out: { dir: string; skipped?: string }[] = [];
  for (const raw of names) {
    const n = raw.toString('utf8');
    if (n.startsWith('.')) continue;
    const dir = path.join(root, n);
    if (!Buffer.from(n, 'utf8').equals(raw)) out.push({ dir, skipped: `skipped a folder in ${root} whose name is not valid UTF-8 (${JSON.stringify(raw.toString('latin1'))}); rename it to load it` });
    else if (isDirectory(dir)) out.push({ dir });
    else {
      const why = brokenLink(dir);
      if (why) out.push({ dir, skipped: `skipped ${dir}: ${why}` });
    }
  }
  return out.sort((a, b) => (a.dir < b.dir ? -1 : a.dir > b.dir ? 1 : 0));
}

/** Why a symlink leads nowhere, or undefined for anything else (a plain file is not an extension). */
function brokenLink(p: string): string | undefined {
  try {
    if (!fs.lstatSync(p).isSymbolicLink()) return undefined;
    fs.statSync(p);
    return undefined;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    return code === 'ELOOP' ? 'it is a symlink loop' : code === 'ENOENT' ? 'it is a symlink to nothing' : `cannot follow its symlink (${code ?? (err as Error).message})`;
  }
}

function isDirectory(p: string): boolean {
  try {
    return fs.statSync(p).isDirectory();
  } catch {
    return false;
  }
}

function realPath(p: string): string {
  try {
    return fs.realpathSync(p);
  } catch {
    return path.resolve(p);
  }
}

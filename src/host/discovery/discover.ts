/**
 * Finding extensions: explicit folders, then `<project>/.zot/extensions/*`
 * of each project folder in the workspace's order, then
 * `$ZOT_HOME/extensions/*`, each root's folders in name order. That order is
 * the load order, which also settles name clashes (PROTOCOL 5a).
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
}

export function discoverExtensions(opts: DiscoveryOptions): FoundExtension[] {
  const candidates: { dir: string; source: ExtensionSource; projectDir?: string }[] = [];
  for (const dir of opts.explicit ?? []) candidates.push({ dir: path.resolve(opts.projectDir, dir), source: 'explicit' });
  if (opts.discover !== false) {
    for (const project of opts.projectDirs ?? [opts.projectDir]) {
      for (const dir of childFolders(projectExtensionsDir(project))) candidates.push({ dir, source: 'project', projectDir: project });
    }
    for (const dir of childFolders(globalExtensionsDir(opts.zotHome))) candidates.push({ dir, source: 'global' });
  }

  const found: FoundExtension[] = [];
  const byFolder = new Map<string, FoundExtension>();
  const byName = new Map<string, FoundExtension>();
  const seenDirs = new Set<string>();
  for (const { dir, source, projectDir } of candidates) {
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
    const firstWithFolder = byFolder.get(folder);
    if (firstWithFolder) {
      entry.shadowedBy = firstWithFolder.dir;
      continue;
    }
    byFolder.set(folder, entry);

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
    byName.set(entry.name, entry);
  }
  return found;
}

/** Sub-folders of a root in name order, following symlinks; hidden ones are skipped. */
function childFolders(root: string): string[] {
  let names: string[];
  try {
    names = fs.readdirSync(root);
  } catch {
    return [];
  }
  return names
    .filter((n) => !n.startsWith('.'))
    .sort()
    .map((n) => path.join(root, n))
    .filter(isDirectory);
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

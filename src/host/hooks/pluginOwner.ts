/**
 * How `zot-host plugin` knows a folder is a plugin it wrote, by what only it
 * writes: a random id in the plugin's marker file, recorded in the zot home
 * the plugin was written for with every file it wrote and that file's hash.
 * A manifest field can be in anyone's folder (a git work tree of a plugin
 * named zot-extensions); the record in the user's zot home cannot. A folder
 * of ours that holds a file the record does not list, or one changed since,
 * is not replaced either: that file was not written by zot-host.
 */
import { createHash, randomBytes } from 'node:crypto';
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';

/** The marker in the plugin's folder: `{ id, home }`. */
export const MARKER = '.zot-plugin.json';
/** Where a zot home keeps a record per plugin written for it: `<id>.json`. */
const RECORDS = 'agent-plugins';
/** Folders zot-host creates outside the plugin: none of them writable by group or others, whatever the umask. */
export const PRIVATE_DIR = 0o700;

/** What a zot home records of one plugin: its folder and the hash of every file written in it. */
interface PluginRecord { dir: string; files: Record<string, string> }

/** A plugin's identity: its id, and the zot home that records it. */
export interface PluginId { id: string; home: string }

export const newPluginId = (home: string): PluginId => ({ id: randomBytes(16).toString('hex'), home: path.resolve(home) });

const recordFile = (p: PluginId): string => path.join(p.home, RECORDS, `${p.id}.json`);

/** The marker's text. */
export const markerText = (p: PluginId): string => `${JSON.stringify({ id: p.id, home: p.home }, null, 2)}\n`;

/**
 * Records, in the plugin's zot home, the files now in `filled` (the plugin
 * made whole, before it takes its place at `dir`).
 */
export async function recordPlugin(p: PluginId, dir: string, filled: string): Promise<void> {
  const files: Record<string, string> = {};
  for (const [rel, hash] of await hashes(filled)) files[rel] = hash;
  const record: PluginRecord = { dir, files };
  await fsp.mkdir(path.dirname(recordFile(p)), { recursive: true, mode: PRIVATE_DIR });
  await fsp.writeFile(recordFile(p), `${JSON.stringify(record, null, 2)}\n`, { flag: 'wx', mode: 0o600 });
}

/** Forgets a plugin (it was replaced, or never took its place). */
export async function forgetPlugin(p: PluginId): Promise<void> {
  await fsp.rm(recordFile(p), { force: true });
}

/** Whether `dir` holds a plugin that zot-host wrote: its identity, or why not. */
export async function ownPlugin(dir: string): Promise<{ ours: PluginId } | { why: string }> {
  const p = await readMarker(dir);
  if (!p) return { why: `no ${MARKER} of zot-host's in it` };
  let record: PluginRecord;
  try {
    record = JSON.parse(await fsp.readFile(recordFile(p), 'utf8')) as PluginRecord;
    if (typeof record?.files !== 'object' || record.files === null) throw new Error('no files');
  } catch {
    return { why: `its ${MARKER} names a plugin that zot home ${p.home} has no record of` };
  }
  for (const [rel, hash] of await hashes(dir)) {
    if (!Object.hasOwn(record.files, rel)) return { why: `it holds ${rel}, which zot-host did not write` };
    if (record.files[rel] !== hash) return { why: `${rel} was changed after zot-host wrote it` };
  }
  return { ours: p };
}

/** The marker of `dir`, if it is a regular file that names an id and a zot home outside `dir`. */
async function readMarker(dir: string): Promise<PluginId | undefined> {
  const file = path.join(dir, MARKER);
  try {
    if (!(await fsp.lstat(file)).isFile()) return undefined;
    const m = JSON.parse(await fsp.readFile(file, 'utf8')) as { id?: unknown; home?: unknown } | null;
    if (typeof m?.id !== 'string' || !/^[0-9a-f]{32}$/.test(m.id) || typeof m.home !== 'string' || !path.isAbsolute(m.home)) return undefined;
    // A record inside the folder would be the folder vouching for itself.
    const rel = path.relative(path.resolve(dir), m.home);
    if (rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel))) return undefined;
    return { id: m.id, home: m.home };
  } catch {
    return undefined;
  }
}

/**
 * Every entry under `dir` (links not followed), relative path to a hash: of
 * a regular file its content's, of a folder 'folder', of anything else its
 * kind, which no record holds.
 */
async function hashes(dir: string, rel = ''): Promise<[string, string][]> {
  const out: [string, string][] = [];
  const entries = (await fsp.readdir(path.join(dir, rel), { withFileTypes: true })).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const entry of entries) {
    const name = rel === '' ? entry.name : `${rel}/${entry.name}`;
    if (entry.isDirectory()) out.push([name, 'folder'], ...(await hashes(dir, name)));
    else if (entry.isFile()) out.push([name, createHash('sha256').update(await fsp.readFile(path.join(dir, name))).digest('hex')]);
    else out.push([name, entry.isSymbolicLink() ? 'link' : 'other']);
  }
  return out;
}

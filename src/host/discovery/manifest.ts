/**
 * Reading and checking `extension.json`, and resolving what it runs.
 * Every problem is an error for that one extension, phrased to say what is
 * wrong and where.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { readConfigFields, type ConfigField } from './settings.js';

export interface Manifest {
  name: string;
  version?: string;
  description?: string;
  language?: string;
  exec?: string;
  args: string[];
  enabled: boolean;
  skills: string[];
  /** terva's settings (docs/TERVA.md 17.1); absent when it declares none. */
  config?: ConfigField[];
  /** What of its `config` was dropped and why: said when it starts, never a refusal. */
  configDropped?: string[];
}

export type ManifestResult = { ok: true; manifest: Manifest; assetsOnly: boolean } | { ok: false; error: string };

export const MANIFEST_FILE = 'extension.json';

/** A manifest is a few KiB; anything over this is refused unread. */
export const MAX_MANIFEST_BYTES = 1024 * 1024;

export function readManifest(dir: string): ManifestResult {
  const file = path.join(dir, MANIFEST_FILE);
  const read = readBounded(file, MAX_MANIFEST_BYTES);
  if (!read.ok) return { ok: false, error: read.code === 'ENOENT' ? `no ${MANIFEST_FILE} in ${dir}` : `cannot read ${file}: ${read.error}` };
  const text = read.text;
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (err) {
    return { ok: false, error: `${file} is not valid JSON: ${(err as Error).message}` };
  }
  return checkManifest(raw, dir, file);
}

export function checkManifest(raw: unknown, dir: string, file = path.join(dir, MANIFEST_FILE)): ManifestResult {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return { ok: false, error: `${file} must hold a JSON object` };
  const m = raw as Record<string, unknown>;
  const bad = (field: string, what: string): ManifestResult => ({ ok: false, error: `${file}: "${field}" ${what}` });

  if (typeof m.name !== 'string' || m.name.trim() === '') return bad('name', 'is required and must be a non-empty string');
  for (const field of ['version', 'description', 'language', 'exec'] as const) {
    if (m[field] !== undefined && m[field] !== null && typeof m[field] !== 'string') return bad(field, 'must be a string');
  }
  if (m.args !== undefined && m.args !== null && !(Array.isArray(m.args) && m.args.every((a) => typeof a === 'string'))) {
    return bad('args', 'must be a list of strings');
  }
  if (m.enabled !== undefined && m.enabled !== null && typeof m.enabled !== 'boolean') return bad('enabled', 'must be true or false');
  if (m.skills !== undefined && m.skills !== null && !(Array.isArray(m.skills) && m.skills.every((s) => typeof s === 'string'))) {
    return bad('skills', 'must be a list of paths');
  }
  const skills = (m.skills as string[] | undefined) ?? [];
  const root = path.resolve(dir);
  for (const s of skills) {
    const target = path.resolve(root, s);
    if (target !== root && !target.startsWith(root + path.sep)) return bad('skills', `path "${s}" escapes the extension folder`);
  }
  const exec = typeof m.exec === 'string' && m.exec.trim() !== '' ? m.exec.trim() : undefined;
  const assetsOnly = exec === undefined && (skills.length > 0 || shipsTheme(dir));
  if (exec === undefined && !assetsOnly) return bad('exec', 'is required (nothing to run, and no theme or skills shipped)');

  const manifest: Manifest = {
    name: m.name.trim(),
    args: (m.args as string[] | undefined) ?? [],
    enabled: m.enabled !== false,
    skills,
  };
  if (typeof m.version === 'string') manifest.version = m.version;
  if (typeof m.description === 'string') manifest.description = m.description;
  if (typeof m.language === 'string') manifest.language = m.language;
  if (exec !== undefined) manifest.exec = exec;
  const config = readConfigFields(m.config);
  if (config.fields.length) manifest.config = config.fields;
  if (config.dropped.length) manifest.configDropped = config.dropped;
  return { ok: true, manifest, assetsOnly };
}

/**
 * A regular file's text, at most `max` bytes. Checked before any read, in an
 * untrusted workspace too: a FIFO would block, a link to /dev/zero never ends.
 * Opened non-blocking and checked again on the descriptor, so a swap between
 * the check and the open changes nothing.
 */
function readBounded(file: string, max: number): { ok: true; text: string } | { ok: false; code?: string; error: string } {
  let fd: number;
  try {
    const st = fs.statSync(file);
    if (!st.isFile()) return { ok: false, error: `it is not a regular file (${fileKind(st)})` };
    if (st.size > max) return { ok: false, error: `it is ${st.size} bytes; a manifest may be at most ${max}` };
    fd = fs.openSync(file, fs.constants.O_RDONLY | (fs.constants.O_NONBLOCK ?? 0));
  } catch (err) {
    return { ok: false, code: (err as NodeJS.ErrnoException).code, error: (err as Error).message };
  }
  try {
    const st = fs.fstatSync(fd);
    if (!st.isFile()) return { ok: false, error: `it is not a regular file (${fileKind(st)})` };
    // Sized by the file (a zeroed buffer of the limit for each manifest costs more than the rest of
    // discovery); one byte more to see it grew since, and grown up to the limit while there is more.
    let buf = Buffer.allocUnsafe(Math.min(st.size, max) + 1);
    let n = 0;
    for (let got = -1; got !== 0 && n <= max;) {
      if (n === buf.length) {
        const grown = Buffer.allocUnsafe(Math.min(buf.length * 2, max + 1));
        buf.copy(grown, 0, 0, n);
        buf = grown;
      }
      got = fs.readSync(fd, buf, n, buf.length - n, null);
      n += got;
    }
    if (n > max) return { ok: false, error: `it is over ${max} bytes; a manifest may be at most ${max}` };
    return { ok: true, text: buf.toString('utf8', 0, n) };
  } catch (err) {
    return { ok: false, error: (err as Error).message };
  } finally {
    fs.closeSync(fd);
  }
}

function fileKind(st: fs.Stats): string {
  if (st.isDirectory()) return 'a folder';
  if (st.isFIFO()) return 'a FIFO';
  if (st.isCharacterDevice() || st.isBlockDevice()) return 'a device';
  if (st.isSocket()) return 'a socket';
  return 'not a file';
}

function shipsTheme(dir: string): boolean {
  return fs.existsSync(path.join(dir, 'theme.json')) || fs.existsSync(path.join(dir, 'themes', 'theme.json'));
}

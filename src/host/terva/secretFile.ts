/**
 * terva's secrets (docs/TERVA.md 16.12) for a host with no OS keychain (zot-host):
 * one JSON file per zot home, `<zot home>/secrets/secrets.json`, holding each
 * extension's keys under `ext:<manifest name>`.
 *
 * - The folder is made private (0700) and the file is written 0600, always
 *   whole: a temporary file in the same folder, then a rename over the old one.
 * - A folder or file that is a symbolic link, that belongs to another user, or
 *   that other users can read or write is refused with an error that says
 *   what is wrong and how to fix it; nothing is read from it or written to it.
 * - Each change happens under a lock file (created with O_EXCL; one older than
 *   the stale limit is broken), and the file is read again under that lock,
 *   so concurrent zot-host processes keep each other's writes. Reads need no
 *   lock: a rename replaces the file in one step.
 * - Within one process the operations run one at a time, in the order asked.
 *
 * Windows has no POSIX file modes: there the owner and mode checks are left
 * out (the folder sits in the user's own %LOCALAPPDATA% by default), and the
 * file is still written atomically under the same lock.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { SecretStore } from './services.js';

/** A lock file older than this is taken to be left by a process that died while holding it. */
export const SECRET_LOCK_STALE_MS = 10_000;
/** How long a change waits for another process's lock before it fails. */
export const SECRET_LOCK_WAIT_MS = 15_000;

/** Where a zot home's secrets live. */
export function secretFilePath(zotHome: string): string {
  return path.join(zotHome, 'secrets', 'secrets.json');
}

export interface SecretFileOptions {
  platform?: NodeJS.Platform;
  lockStaleMs?: number;
  lockWaitMs?: number;
}

/** Every extension's secrets: scope (`ext:<name>`) → key → value. */
type Scopes = Map<string, Map<string, string>>;

const scopeOf = (extension: string): string => `ext:${extension}`;
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
const modeText = (mode: number): string => `0${(mode & 0o777).toString(8)}`;
const codeOf = (err: unknown): string | undefined => (err as NodeJS.ErrnoException)?.code;

export class FileSecretStore implements SecretStore {
  readonly where: string;
  readonly dir: string;
  readonly file: string;
  private readonly lockFile: string;
  private readonly posix: boolean;
  private readonly staleMs: number;
  private readonly waitMs: number;
  private queue: Promise<unknown> = Promise.resolve();

  constructor(zotHome: string, options: SecretFileOptions = {}) {
    this.file = secretFilePath(zotHome);
    this.dir = path.dirname(this.file);
    this.lockFile = `${this.file}.lock`;
    this.where = `the file ${this.file}`;
    this.posix = (options.platform ?? process.platform) !== 'win32';
    this.staleMs = options.lockStaleMs ?? SECRET_LOCK_STALE_MS;
    this.waitMs = options.lockWaitMs ?? SECRET_LOCK_WAIT_MS;
  }

  get(extension: string, key: string): Promise<string | undefined> {
    return this.serial(() => this.read().get(scopeOf(extension))?.get(key));
  }

  keys(extension: string): Promise<string[]> {
    return this.serial(() => [...(this.read().get(scopeOf(extension))?.keys() ?? [])].sort());
  }

  set(extension: string, key: string, value: string): Promise<void> {
    return this.serial(() => this.change((all) => {
      const scope = scopeOf(extension);
      const mine = all.get(scope) ?? new Map<string, string>();
      mine.set(key, value);
      all.set(scope, mine);
      return true;
    })).then(() => undefined);
  }

  delete(extension: string, key: string): Promise<void> {
    return this.serial(() => this.change((all) => {
      const scope = scopeOf(extension);
      const mine = all.get(scope);
      if (!mine?.delete(key)) return false;
      if (mine.size === 0) all.delete(scope);
      return true;
    })).then(() => undefined);
  }

  forget(extension: string): Promise<number> {
    let count = 0;
    return this.serial(() => this.change((all) => {
      count = all.get(scopeOf(extension))?.size ?? 0;
      return all.delete(scopeOf(extension));
    })).then(() => count);
  }

  /** One operation at a time, in the order asked; one that fails does not stop the next. */
  private serial<T>(op: () => T | Promise<T>): Promise<T> {
    const next = this.queue.then(op, op);
    this.queue = next.catch(() => undefined);
    return next;
  }

  /** Reads the file under the lock, lets `edit` change it, and writes it back when it did. */
  private async change(edit: (all: Scopes) => boolean): Promise<void> {
    this.ensureDir();
    const token = await this.lock();
    try {
      const all = this.read();
      if (edit(all)) this.write(all);
    } finally {
      this.unlock(token);
    }
  }

  private refuse(what: string, where: string, why: string, fix?: string): never {
    throw new Error(`refusing the secret store ${what} ${where}: ${why}${fix ? `; ${fix}` : ''}`);
  }

  /** The folder, made when missing; refused unless it is a real folder of this user's that no one else can reach. */
  private ensureDir(): void {
    if (!this.checkDir()) {
      fs.mkdirSync(path.dirname(this.dir), { recursive: true });
      try {
        fs.mkdirSync(this.dir, { mode: 0o700 });
      } catch (err) {
        if (codeOf(err) !== 'EEXIST') throw err;
      }
      if (!this.checkDir()) this.refuse('folder', this.dir, 'it could not be made');
    }
  }

  /** false when the folder does not exist; throws when it may not be used. */
  private checkDir(): boolean {
    let st: fs.Stats;
    try {
      st = fs.lstatSync(this.dir);
    } catch (err) {
      if (codeOf(err) === 'ENOENT') return false;
      throw err;
    }
    if (st.isSymbolicLink()) this.refuse('folder', this.dir, 'it is a symbolic link', 'secrets are kept only in a real folder; remove the link');
    if (!st.isDirectory()) this.refuse('folder', this.dir, 'it is not a folder');
    this.checkOwnerAndMode('folder', this.dir, st, '700');
    return true;
  }

  private checkOwnerAndMode(what: string, where: string, st: fs.Stats, private_: string): void {
    // Windows: no POSIX owner or mode to check (see the header).
    if (!this.posix) return;
    const uid = process.getuid?.();
    if (uid !== undefined && st.uid !== uid) this.refuse(what, where, `it belongs to another user (uid ${st.uid})`);
    if (st.mode & 0o077) this.refuse(what, where, `other users can read or write it (mode ${modeText(st.mode)})`, `make it private with chmod ${private_} ${where}`);
  }

  /** Every scope in the file; none when there is no file (or no folder) yet. */
  private read(): Scopes {
    if (!this.checkDir()) return new Map();
    if (!this.posix) {
      // Without O_NOFOLLOW the link check is a look before the open.
      try {
        if (fs.lstatSync(this.file).isSymbolicLink()) this.refuse('file', this.file, 'it is a symbolic link', 'remove the link');
      } catch (err) {
        if (codeOf(err) === 'ENOENT') return new Map();
        throw err;
      }
    }
    let fd: number;
    try {
      fd = fs.openSync(this.file, fs.constants.O_RDONLY | (this.posix ? fs.constants.O_NOFOLLOW : 0));
    } catch (err) {
      if (codeOf(err) === 'ENOENT') return new Map();
      if (codeOf(err) === 'ELOOP') this.refuse('file', this.file, 'it is a symbolic link', 'remove the link');
      throw err;
    }
    let text: string;
    try {
      const st = fs.fstatSync(fd);
      if (!st.isFile()) this.refuse('file', this.file, 'it is not a regular file');
      this.checkOwnerAndMode('file', this.file, st, '600');
      text = fs.readFileSync(fd, 'utf8');
    } finally {
      fs.closeSync(fd);
    }
    return this.parse(text);
  }

  private parse(text: string): Scopes {
    const bad = (why: string): never => this.refuse('file', this.file, why, 'move it away to start an empty store (its secrets are then lost)');
    let doc: unknown;
    try {
      doc = JSON.parse(text);
    } catch (err) {
      return bad(`it is not valid JSON (${(err as Error).message})`);
    }
    const secrets = (doc as { secrets?: unknown } | null)?.secrets;
    if (typeof doc !== 'object' || doc === null || typeof secrets !== 'object' || secrets === null || Array.isArray(secrets)) return bad('it does not hold a "secrets" object');
    const all: Scopes = new Map();
    for (const [scope, keys] of Object.entries(secrets)) {
      if (typeof keys !== 'object' || keys === null || Array.isArray(keys)) return bad(`"${scope}" is not an object of strings`);
      const mine = new Map<string, string>();
      for (const [k, v] of Object.entries(keys as Record<string, unknown>)) {
        if (typeof v !== 'string') return bad(`"${scope}" holds a value that is not a string`);
        mine.set(k, v);
      }
      if (mine.size) all.set(scope, mine);
    }
    return all;
  }

  /** The whole store, written to a private temporary file and renamed over the old one. */
  private write(all: Scopes): void {
    const secrets = Object.fromEntries([...all].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([scope, keys]) => [scope, Object.fromEntries(keys)]));
    const text = `${JSON.stringify({ version: 1, secrets }, null, 2)}\n`;
    const tmp = `${this.file}.${process.pid}.${uniquePart()}.tmp`;
    const fd = fs.openSync(tmp, fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_EXCL | (this.posix ? fs.constants.O_NOFOLLOW : 0), 0o600);
    try {
      try {
        // The umask can only take bits away; this makes it exactly 0600.
        if (this.posix) fs.fchmodSync(fd, 0o600);
        fs.writeSync(fd, text);
        fs.fsyncSync(fd);
      } finally {
        fs.closeSync(fd);
      }
      this.renameOver(tmp, this.file);
    } catch (err) {
      fs.rmSync(tmp, { force: true });
      throw err;
    }
    if (this.posix) syncFolder(this.dir);
  }

  /** Windows refuses a rename over a file another process has open for a moment; try again briefly. */
  private renameOver(from: string, to: string): void {
    for (let attempt = 0; ; attempt++) {
      try {
        fs.renameSync(from, to);
        return;
      } catch (err) {
        const code = codeOf(err);
        if (this.posix || attempt >= 20 || (code !== 'EPERM' && code !== 'EACCES' && code !== 'EBUSY')) throw err;
        const until = Date.now() + 10;
        while (Date.now() < until) { /* a short wait without giving up the lock */ }
      }
    }
  }

  /** Takes the lock file; resolves with the token it holds. */
  private async lock(): Promise<string> {
    const token = `${process.pid} ${uniquePart()}`;
    const deadline = Date.now() + this.waitMs;
    for (;;) {
      try {
        const fd = fs.openSync(this.lockFile, fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_EXCL, 0o600);
        try {
          fs.writeSync(fd, `${token}\n`);
        } finally {
          fs.closeSync(fd);
        }
        return token;
      } catch (err) {
        if (codeOf(err) !== 'EEXIST') throw err;
      }
      let st: fs.Stats;
      try {
        st = fs.lstatSync(this.lockFile);
      } catch {
        continue;
      }
      if (Date.now() - st.mtimeMs > this.staleMs) {
        this.breakStale(st);
        continue;
      }
      if (Date.now() > deadline) {
        throw new Error(`the secret store is locked by another process (${this.lockFile}, taken ${Math.round((Date.now() - st.mtimeMs) / 1000)} s ago); if no zot-host is using ${this.file}, delete the lock file`);
      }
      await sleep(5 + Math.floor(Math.random() * 20));
    }
  }

  /** Moves a stale lock aside (only one process can move that file), and puts back one that turns out not to be it. */
  private breakStale(seen: fs.Stats): void {
    const aside = `${this.lockFile}.${process.pid}.${uniquePart()}.stale`;
    try {
      fs.renameSync(this.lockFile, aside);
    } catch {
      return;
    }
    try {
      if (fs.lstatSync(aside).ino !== seen.ino) fs.linkSync(aside, this.lockFile);
    } catch {
      // Another process took the lock meanwhile: its own file stands.
    }
    fs.rmSync(aside, { force: true });
  }

  /** Removes the lock file, unless another process broke it as stale and holds its own. */
  private unlock(token: string): void {
    try {
      if (fs.readFileSync(this.lockFile, 'utf8').trim() === token) fs.unlinkSync(this.lockFile);
    } catch {
      // Gone already.
    }
  }
}

let counter = 0;
/** A part for a file name no other process or call uses at the same time. */
function uniquePart(): string {
  return `${Date.now().toString(36)}${(counter++).toString(36)}${Math.random().toString(36).slice(2, 10)}`;
}

/** Makes the rename durable where the platform allows it. */
function syncFolder(dir: string): void {
  try {
    const fd = fs.openSync(dir, fs.constants.O_RDONLY);
    try {
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
  } catch {
    // Some file systems cannot sync a folder; the rename still happened.
  }
}

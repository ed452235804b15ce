/**
 * One extension process: spawned in its own tree with stdin and stdout for
 * frames, stderr into the log file and out as lines, and the stop ladder
 * (the polite step the caller gives, a grace, the polite kill, the forced
 * kill; a second stop skips to the forced kill).
 */
import { spawn, type ChildProcessByStdio } from 'node:child_process';
import type { Readable, Writable } from 'node:stream';
import { formatMs } from '../results/outcomes.js';
import { guard, release } from './exitGuard.js';
import { LogFile } from './logFile.js';
import { MARKER_VAR, newMarker, terminateMarked } from './marker.js';
import { commandLine, stopWords } from './platform.js';
import { killTree, terminateTree, treeAlive } from './treeKill.js';

/** The log's words for the steps of the stop ladder on this platform. */
const STOP_WORDS = stopWords(process.platform);

export interface SpawnSpec {
  file: string;
  args: string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
  logPath: string;
  /** The log file's start header. */
  header: string;
  shutdownGraceMs: number;
  killAfterMs: number;
}

export interface ProcessListener {
  stderrLine(line: string): void;
  /** A line the process layer writes about the process; it is in the log file too. */
  note(line: string): void;
  /** The process ended; `description` says how ("exited with code 3"). */
  exited(description: string): void;
}

export type StartResult = { ok: true; process: ExtensionProcess } | { ok: false; error: Promise<string> };

export class ExtensionProcess {
  /** How it ended, once it has. */
  exit: string | undefined;
  readonly exited: Promise<void>;
  private markExited!: () => void;
  private stopping: Promise<void> | undefined;
  private forced = false;
  private forceWaiters: (() => void)[] = [];

  private constructor(
    private readonly child: ChildProcessByStdio<Writable, Readable, Readable>,
    readonly pid: number,
    /** In its environment and its descendants': finds those that left its process group. */
    readonly marker: string,
    readonly log: LogFile,
    private readonly spec: SpawnSpec,
    private readonly listener: ProcessListener,
  ) {
    this.exited = new Promise<void>((r) => (this.markExited = r));
  }

  get stdin(): Writable {
    return this.child.stdin;
  }

  get stdout(): Readable {
    return this.child.stdout;
  }

  get stopRequested(): boolean {
    return this.stopping !== undefined;
  }

  static start(spec: SpawnSpec, listener: ProcessListener): StartResult {
    const { log, error } = LogFile.open(spec.logPath, spec.header);
    listener.note(error ? `cannot write its log at ${spec.logPath}: ${error}` : spec.header);
    const marker = newMarker();
    const env = { ...spec.env, [MARKER_VAR]: marker };
    const line = commandLine(spec.file, spec.args, process.platform, env);
    let child: ChildProcessByStdio<Writable, Readable, Readable>;
    try {
      child = spawn(line.file, line.args, {
        cwd: spec.cwd,
        env,
        detached: line.detached,
        windowsVerbatimArguments: line.verbatim,
        stdio: ['pipe', 'pipe', 'pipe'],
        windowsHide: true,
      });
    } catch (err) {
      log.endAfter(null);
      return { ok: false, error: Promise.resolve(`could not start ${spec.file}: ${(err as Error).message}`) };
    }
    if (child.pid === undefined) {
      log.endAfter(null);
      return { ok: false, error: new Promise((r) => child.once('error', (err) => r(`could not start ${spec.file}: ${err.message}`))) };
    }
    const proc = new ExtensionProcess(child, child.pid, marker, log, spec, listener);
    proc.wire();
    return { ok: true, process: proc };
  }

  /** A host line about this process, into the log file and to the listener. */
  note(line: string): void {
    this.log.hostLine(line);
    this.listener.note(line);
  }

  /**
   * The stop ladder; resolves when the whole tree is gone and the log file
   * is closed. `polite` asks the process to go (shutdown frame, end of
   * stdin). Called again while stopping, it kills the tree at once.
   */
  stop(polite: () => void): Promise<void> {
    if (this.stopping) {
      if (!this.forced && !this.exit) this.note('stopped again: killing its process tree now');
      this.force();
      return this.stopping;
    }
    this.stopping = this.ladder(polite);
    return this.stopping;
  }

  /** After a crash: end what it left running, and close the log once its stderr drained. */
  reap(): void {
    if (this.stopping) return;
    this.log.endAfter(this.child.stderr);
    void terminateTree(this.pid, this.spec.killAfterMs).then(() => terminateMarked(this.marker, this.spec.killAfterMs));
  }

  private async ladder(polite: () => void): Promise<void> {
    const { shutdownGraceMs, killAfterMs } = this.spec;
    if (!this.exit) {
      polite();
      if (!(await this.waitExit(shutdownGraceMs))) {
        if (!this.forced) {
          this.note(`did not exit within ${formatMs(shutdownGraceMs)} of shutdown; ${STOP_WORDS.polite}`);
          killTree(this.pid, false);
        }
        if (!(await this.waitExit(killAfterMs))) {
          if (!this.forced) this.note(STOP_WORDS.force);
          killTree(this.pid, true);
          await within(this.exited, 2000);
        }
      }
    }
    if (treeAlive(this.pid)) {
      this.note(`processes it started are still running; ending ${STOP_WORDS.tree}`);
      await terminateTree(this.pid, this.forced ? 0 : killAfterMs);
    }
    const escaped = await terminateMarked(this.marker, this.forced ? 0 : killAfterMs);
    if (escaped > 0) this.note(`ended ${escaped} process${escaped === 1 ? '' : 'es'} it started outside ${STOP_WORDS.tree}`);
    this.log.endAfter(this.child.stderr);
    // So a CLI that exits right after stopping loses no log line.
    await within(this.log.closed, 1000);
  }

  private force(): void {
    if (this.forced) return;
    this.forced = true;
    if (!this.exit) killTree(this.pid, true);
    for (const w of this.forceWaiters.splice(0)) w();
  }

  /** true once exited; false when `ms` passed or the stop was forced. */
  private waitExit(ms: number): Promise<boolean> {
    if (this.exit) return Promise.resolve(true);
    if (this.forced) return Promise.resolve(false);
    return new Promise((resolve) => {
      const t = setTimeout(() => resolve(false), ms);
      this.forceWaiters.push(() => {
        clearTimeout(t);
        resolve(!!this.exit);
      });
      void this.exited.then(() => {
        clearTimeout(t);
        resolve(true);
      });
    });
  }

  private wire(): void {
    guard(this.pid, this.marker);
    this.pipeStderr();
    this.note(`started process ${this.pid}`);
    this.child.on('exit', (code, signal) => {
      this.exit = signal ? `was killed by ${signal}` : `exited with code ${code}`;
      release(this.pid);
      this.note(`process ${this.pid} ${this.exit}`);
      this.markExited();
      this.listener.exited(this.exit);
    });
    this.child.on('error', () => undefined);
  }

  private pipeStderr(): void {
    let partial = '';
    const stderr = this.child.stderr;
    stderr.setEncoding('utf8');
    stderr.on('data', (chunk: string) => {
      this.log.write(chunk);
      const lines = (partial + chunk).split('\n');
      partial = lines.pop() ?? '';
      if (partial.length > 64 * 1024) {
        lines.push(partial);
        partial = '';
      }
      for (const l of lines) this.listener.stderrLine(l.replace(/\r$/, ''));
    });
    stderr.on('end', () => {
      if (partial) this.listener.stderrLine(partial);
    });
    stderr.on('error', () => undefined);
  }
}

/** Resolves true if `p` settles within `ms`. */
export function within(p: Promise<unknown>, ms: number): Promise<boolean> {
  return new Promise((resolve) => {
    const t = setTimeout(() => resolve(false), ms);
    void p.then(() => {
      clearTimeout(t);
      resolve(true);
    });
  });
}

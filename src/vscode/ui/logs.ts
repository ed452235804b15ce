/**
 * Log channels: one `Zot Extensions` channel for the host, and one
 * `Zot: <name>` channel per extension, created when it first has something to
 * say and never revealed on its own (as VS Code does for MCP servers). The
 * zot-compatible log file under `$ZOT_HOME/logs` is written by the host.
 */
import * as vscode from 'vscode';
import type { LogEvent } from '../../host/index.js';

/** Lines kept per channel for `recent()` (the test API reads them). */
const KEEP = 500;

type Level = 'info' | 'warn' | 'error';

class Channel {
  readonly lines: string[] = [];
  private channel: vscode.LogOutputChannel | undefined;
  constructor(readonly name: string) {}

  get output(): vscode.LogOutputChannel {
    return (this.channel ??= vscode.window.createOutputChannel(this.name, { log: true }));
  }

  write(level: Level, line: string): void {
    this.output[level](line);
    this.lines.push(`${level}: ${line}`);
    if (this.lines.length > KEEP) this.lines.splice(0, this.lines.length - KEEP);
  }

  dispose(): void {
    this.channel?.dispose();
  }
}

export class LogChannels implements vscode.Disposable {
  private readonly host = new Channel('Zot Extensions');
  private readonly perExtension = new Map<string, Channel>();

  /** A line for the host channel. */
  hostLog(line: string, level: Level = 'info'): void {
    this.host.write(level, line);
  }

  /** A line for one extension's channel. */
  extensionLog(name: string, line: string, level: Level = 'info'): void {
    this.channelOf(name).write(level, line);
  }

  /** Routes the host's `onLog`: stderr as info prefixed `[stderr]`, the host's own lines about it as info or warn. */
  onHostLog(e: LogEvent): void {
    if (e.kind === 'stderr') {
      if (e.line.trim() === '') return;
      this.extensionLog(e.extension, `[stderr] ${e.line}`);
    } else {
      // Severity is the host's own field; stderr text is never parsed for it.
      this.extensionLog(e.extension, e.line, e.level);
    }
  }

  show(name?: string): void {
    (name === undefined ? this.host : this.channelOf(name)).output.show(true);
  }

  /** Recent lines, by channel name. */
  recent(): Record<string, string[]> {
    const out: Record<string, string[]> = { [this.host.name]: [...this.host.lines] };
    for (const c of this.perExtension.values()) out[c.name] = [...c.lines];
    return out;
  }

  dispose(): void {
    this.host.dispose();
    for (const c of this.perExtension.values()) c.dispose();
    this.perExtension.clear();
  }

  private channelOf(name: string): Channel {
    let c = this.perExtension.get(name);
    if (!c) {
      c = new Channel(`Zot: ${name}`);
      this.perExtension.set(name, c);
    }
    return c;
  }
}

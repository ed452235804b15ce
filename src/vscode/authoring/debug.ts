/**
 * Zot: Debug Extension: restarts one extension with a debugger listening on a
 * free loopback port and attaches VS Code's debugger to it, so breakpoints in
 * its source work. Node: `--inspect=127.0.0.1:0` through NODE_OPTIONS, the
 * port read from its stderr ("Debugger listening on ws://…"). Python: debugpy,
 * started by a sitecustomize module put first on PYTHONPATH, which prints its
 * port the same way. Ending the debug session restarts the extension without
 * the debugger. The process is the same program as always, in its own
 * folder, with the same stdio: only the environment gains those variables.
 */
import { execFile } from 'node:child_process';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { stateOf, type ExtensionView, type LogEvent } from '../../host/index.js';
import type { HostManager } from '../core/hostManager.js';
import type { LogChannels } from '../ui/logs.js';
import { extensionOf } from './target.js';
import { t } from '../l10n.js';

/** How long the restarted extension has to say where its debugger listens. */
const PORT_TIMEOUT_MS = 15_000;
const NODE_LISTENING = /Debugger listening on ws:\/\/(127\.0\.0\.1|\[::1\]|localhost):(\d+)\//;
const PY_LISTENING = /zot-debugpy listening on ([\d.]+):(\d+)/;
const PY_FAILED = /zot-debugpy could not start: (.*)/;
/** Marks the debug sessions this module started, with the extension's name. */
const SESSION_KEY = '__zotExtension';

export type DebugKind = 'node' | 'python';

export interface DebugDeps { manager: HostManager; logs: LogChannels; extensionPath: string }

export interface DebugStarted { name: string; kind: DebugKind; port: number; session: string }

/** Which debugger an extension takes, from its manifest's language and exec. */
function debugKind(rt: Pick<ExtensionView, 'found'>): DebugKind | undefined {
  const m = rt.found.manifest;
  const exec = path.basename(m?.exec ?? '').toLowerCase().replace(/\.exe$/, '');
  const lang = (m?.language ?? '').toLowerCase();
  if (/^(node|nodejs)$/.test(exec) || ((lang === 'javascript' || lang === 'typescript' || lang === 'node') && !/^python/.test(exec))) return 'node';
  if (/^python[\d.]*$/.test(exec) || exec.endsWith('.py') || lang === 'python') return 'python';
  return undefined;
}

export function registerDebugExtension(d: DebugDeps): vscode.Disposable {
  /** Extensions under a debugger now, by name. */
  const debugging = new Set<string>();
  const ended = vscode.debug.onDidTerminateDebugSession((s) => {
    const name = (s.configuration as Record<string, unknown>)[SESSION_KEY];
    if (typeof name !== 'string' || !debugging.delete(name)) return;
    d.manager.setLaunchEnv(name, undefined);
    d.logs.extensionLog(name, 'debug session ended: restarting without the debugger');
    if (d.manager.view.get(name)?.startable) void d.manager.restartExtension(name).catch(() => undefined);
  });
  const command = vscode.commands.registerCommand('zot.debugExtension', async (a?: unknown): Promise<DebugStarted | undefined> => {
    const rt = await pick(d, a);
    if (!rt) return undefined;
    try {
      return await debugExtension(d, rt, debugging);
    } catch (err) {
      d.manager.setLaunchEnv(rt.name, undefined);
      debugging.delete(rt.name);
      const message = t('Debug {0}: {1}', rt.name, (err as Error).message);
      d.logs.extensionLog(rt.name, message, 'error');
      void vscode.window.showErrorMessage(message, t('Show Log')).then((c) => c && d.logs.show(rt.name));
      return undefined;
    }
  });
  return vscode.Disposable.from(ended, command);
}

async function pick(d: DebugDeps, a: unknown): Promise<ExtensionView | undefined> {
  const host = d.manager.view;
  const target = extensionOf(a, host);
  if (target.named !== false) {
    if (!target.rt) void vscode.window.showErrorMessage(t('No zot extension named "{0}".', target.named));
    return target.rt;
  }
  const candidates = host.extensions.filter((rt) => rt.startable && rt.status.kind !== 'held');
  if (candidates.length === 0) {
    void vscode.window.showInformationMessage(t('No zot extension can be debugged now: none is startable and allowed.'));
    return undefined;
  }
  const picked = await vscode.window.showQuickPick(
    candidates.map((rt) => ({ label: rt.name, description: debugKind(rt) ?? t('{0}: not Node or Python', rt.found.manifest?.exec ?? ''), detail: rt.dir, rt })),
    { placeHolder: t('Debug which zot extension? (it restarts with a debugger attached)') },
  );
  return picked?.rt;
}

async function debugExtension(d: DebugDeps, rt: ExtensionView, debugging: Set<string>): Promise<DebugStarted> {
  const host = d.manager.view;
  const name = rt.name;
  if (!rt.startable) throw new Error(t('it cannot be started ({0})', `${stateOf(rt)}${rt.error ? `: ${rt.error}` : ''}`));
  if (rt.status.kind === 'held') throw new Error(t('it is held: allow it first'));
  const kind = debugKind(rt);
  if (!kind) throw new Error(t('Debug Extension works for Node and Python extensions; this one runs "{0}"', rt.found.manifest?.exec ?? ''));
  if (debugging.has(name)) throw new Error(t('it is being debugged already'));
  const base = process.env;
  let env: NodeJS.ProcessEnv;
  let listening: RegExp;
  if (kind === 'node') {
    env = { NODE_OPTIONS: [base.NODE_OPTIONS, '--inspect=127.0.0.1:0'].filter(Boolean).join(' ') };
    listening = NODE_LISTENING;
  } else {
    const python = rt.found.manifest?.exec && /^python/i.test(path.basename(rt.found.manifest.exec)) ? rt.found.manifest.exec : 'python3';
    const missing = await debugpyMissing(python, rt.dir);
    if (missing) throw new Error(t('debugpy is not installed for {0} ({1}): install it with {2}, then try again', python, missing, `\`${python} -m pip install debugpy\``));
    if (!vscode.extensions.getExtension('ms-python.debugpy')) throw new Error(t('attaching to Python needs the Python Debugger extension (ms-python.debugpy) in VS Code: install it, then try again'));
    const site = path.join(d.extensionPath, 'media', 'debug', 'python');
    env = { PYTHONPATH: [site, base.PYTHONPATH].filter(Boolean).join(path.delimiter) };
    listening = PY_LISTENING;
  }
  debugging.add(name);
  d.manager.setLaunchEnv(name, env);
  d.logs.extensionLog(name, `restarting under the ${kind === 'node' ? 'Node inspector' : 'debugpy debugger'}`);
  const port = waitForPort(d, name, listening);
  await d.manager.restartExtension(name);
  // Every launch asks the workspace gate: code changed since it was allowed is held, never debugged.
  const now = host.get(name);
  if (now?.status.kind === 'held') {
    port.cancel();
    throw new Error(t('it is held: {0}', now.error ?? t('waiting for your permission')));
  }
  const found = await port.result;
  const config: vscode.DebugConfiguration = kind === 'node'
    ? { type: 'node', request: 'attach', name: `Zot: ${name}`, address: found.address, port: found.port, skipFiles: ['<node_internals>/**'], autoAttachChildProcesses: false, [SESSION_KEY]: name }
    : { type: 'debugpy', request: 'attach', name: `Zot: ${name}`, connect: { host: found.address, port: found.port }, justMyCode: true, [SESSION_KEY]: name };
  const folder = vscode.workspace.workspaceFolders?.find((f) => rt.dir.startsWith(f.uri.fsPath + path.sep));
  const started = await vscode.debug.startDebugging(folder, config);
  if (!started) throw new Error(t('VS Code did not start the "{0}" debugger (is its debugger extension enabled?)', config.type));
  d.logs.extensionLog(name, `debugger attached on ${found.address}:${found.port}`);
  return { name, kind, port: found.port, session: config.name };
}

/** The address and port the next launch's debugger prints on stderr. */
function waitForPort(d: DebugDeps, name: string, listening: RegExp): { result: Promise<{ address: string; port: number }>; cancel(): void } {
  let sub: vscode.Disposable | undefined;
  let timer: NodeJS.Timeout | undefined;
  const result = new Promise<{ address: string; port: number }>((resolve, reject) => {
    timer = setTimeout(() => {
      sub?.dispose();
      reject(new Error(`it did not say where its debugger listens within ${PORT_TIMEOUT_MS / 1000} s; see its log`));
    }, PORT_TIMEOUT_MS);
    sub = d.manager.onLog((e: LogEvent) => {
      if (e.extension !== name || e.kind !== 'stderr') return;
      const failed = PY_FAILED.exec(e.line);
      const m = failed ? undefined : listening.exec(e.line);
      if (!failed && !m) return;
      clearTimeout(timer);
      sub?.dispose();
      if (failed) reject(new Error(`debugpy could not start: ${failed[1]}`));
      else resolve({ address: m![1]!.replace(/^\[|\]$/g, '').replace('localhost', '127.0.0.1'), port: Number(m![2]) });
    });
  });
  return {
    result,
    cancel: () => {
      clearTimeout(timer);
      sub?.dispose();
    },
  };
}

/** Why `python -c "import debugpy"` fails, or undefined when it does not. */
function debugpyMissing(python: string, cwd: string): Promise<string | undefined> {
  return new Promise((resolve) => {
    execFile(python, ['-c', 'import debugpy'], { cwd, timeout: 10_000 }, (err, _out, stderr) => {
      if (!err) return resolve(undefined);
      resolve((stderr.trim().split('\n').pop() ?? err.message).slice(0, 200));
    });
  });
}

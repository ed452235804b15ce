// Shared test helpers: temporary extension folders, hosts with short timings
// that are always disposed, zot-host runs, and waiting on conditions.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { createRequire } from 'node:module';

/** @typedef {import('../out/types/host/index.js').FrameFromHost} FrameFromHost */
/**
 * An event or intercept as a test reads it off the wire: its name, and any field of any event (what a recording
 * fixture saw is checked field by field, so each field is read as unknown).
 * @typedef {{ type: 'event', event: string, [key: string]: unknown }} SeenEvent
 * @typedef {{ type: 'event_intercept', id: string, event: string, [key: string]: unknown }} SeenIntercept
 */
/**
 * A frame the fixture received, by its type.
 * @template {string} T
 * @typedef {T extends 'event' ? SeenEvent : T extends 'event_intercept' ? SeenIntercept : Extract<FrameFromHost, { type: T }>} Seen
 */
/** @typedef {{ type: string, [key: string]: unknown }} JsonFrame A frame as JSON: its type, and whatever else it holds. */
/** @typedef {{ name: string, dir: 'ext_to_host' | 'host_to_ext' | 'both', frame: JsonFrame }} TervaExample */

const require = createRequire(import.meta.url);
export const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
/** @type {typeof import('../out/types/host/index.js')} */
export const lib = require(path.join(ROOT, 'dist', 'host.js'));
export const BEHAVE = path.join(ROOT, 'test', 'fixtures', 'node', 'behave.js');
export const COMPAT = path.join(ROOT, 'test', 'fixtures', 'compat');
/** The terva extension written from docs/TERVA.md alone (test/fixtures/terva/index.js). */
export const TERVA = path.join(ROOT, 'test', 'fixtures', 'terva', 'index.js');
/**
 * One example of every frame of terva's, `{name, dir, frame}` (docs/TERVA.md section 21), as the fixture sends them.
 * @type {TervaExample[]}
 */
export const TERVA_EXAMPLES = fs.readFileSync(path.join(ROOT, 'test', 'fixtures', 'terva', 'examples.jsonl'), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));
export const CLI = path.join(ROOT, 'dist', 'cli.js');
/** zot-host's hook verb alone (dist/hook.js), what the hook commands zot writes run; the rest it loads from dist/cli.js. */
export const HOOK_JS = path.join(ROOT, 'dist', 'hook.js');
/** The zot extension written from docs/ZOT.md alone, as zot's Go SDK behaves (see its header). */
export const LEDGER = path.join(ROOT, 'test', 'fixtures', 'zot', 'ledger.js');
/** docs/ZOT.md's examples, one frame each: `{ dir: 'e2h' | 'h2e', frame, note }`. */
export const ZOT_EXAMPLES = /** @type {{ dir: 'e2h' | 'h2e', frame: { type: string, [key: string]: unknown }, note: string }[]} */ (fs.readFileSync(path.join(ROOT, 'test', 'fixtures', 'zot', 'examples.jsonl'), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l)));

/**
 * Writes an extension folder whose program is the zot fixture (LEDGER) with this config.
 * @param {string} root
 * @param {string} name
 * @param {Record<string, unknown>} [cfg]
 */
export function makeZotExt(root, name, cfg = {}) {
  const dir = path.join(root, name);
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'extension.json'), JSON.stringify({ name, version: '2.1.0', exec: 'node', args: [LEDGER, JSON.stringify({ name, ...cfg })] }));
  return dir;
}

/**
 * Bundles modules of `src/<folder>` (names relative to it, e.g. 'trust/consent')
 * into `outdir` with esbuild and loads them, keyed by base name: for unit tests
 * of modules the product bundles into a larger file. Each module has its own
 * type, read from src/ (test/bundled.d.ts names the modules tests bundle).
 * `together`: one bundle for all of them, so a module they share is one
 * instance (the translator l10n.ts holds, as the product has it), not a copy each.
 * @template {string} F
 * @template {string} N
 * @param {string} outdir
 * @param {F} folder
 * @param {N[]} names
 * @param {{ external?: string[], together?: boolean }} [options]
 * @returns {Promise<import('./bundled').Bundled<F, N>>}
 */
export async function bundleSources(outdir, folder, names, { external = [], together = false } = {}) {
  const { build } = await import('esbuild');
  if (together) {
    fs.mkdirSync(outdir, { recursive: true });
    const entry = path.join(outdir, 'together.ts');
    fs.writeFileSync(entry, names.map((n) => `export * as ${path.basename(n)} from ${JSON.stringify(path.join(ROOT, 'src', folder, `${n}.ts`))};\n`).join(''));
    await build({ entryPoints: [entry], outfile: path.join(outdir, 'together.js'), bundle: true, platform: 'node', format: 'cjs', target: 'node20', external, logLevel: 'warning' });
    return require(path.join(outdir, 'together.js'));
  }
  await build({
    entryPoints: Object.fromEntries(names.map((n) => [path.basename(n), path.join(ROOT, 'src', folder, `${n}.ts`)])),
    outdir, bundle: true, platform: 'node', format: 'cjs', target: 'node20', external, logLevel: 'warning',
  });
  return /** @type {import('./bundled').Bundled<F, N>} */ (Object.fromEntries(names.map((n) => [path.basename(n), require(path.join(outdir, `${path.basename(n)}.js`))])));
}

/**
 * A stand-in of the VS Code API for bundles made with `external: ['vscode']`
 * into `dir`: `source` (CommonJS) is written as the package `vscode` beside
 * them, where their `require('vscode')` finds it; returns what it exports.
 * @param {string} dir
 * @param {string} source
 * @returns {any} the stand-in, as the test reads it (each test types its own)
 */
export function vscodeStandIn(dir, source) {
  const at = path.join(dir, 'node_modules', 'vscode');
  fs.mkdirSync(at, { recursive: true });
  fs.writeFileSync(path.join(at, 'index.js'), source);
  return require(at);
}

export function tmpdir(prefix = 'zot-test-') {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

/**
 * Writes an extension folder whose program is the scriptable fixture.
 * @param {string} root
 * @param {string} folder
 * @param {{ name?: string, [key: string]: unknown }} [cfg] the fixture's config (test/fixtures/node/behave.js)
 * @param {Record<string, unknown>} [manifest] fields over the manifest's
 */
export function makeExt(root, folder, cfg = {}, manifest = {}) {
  const dir = path.join(root, folder);
  fs.mkdirSync(dir, { recursive: true });
  const m = { name: cfg.name ?? folder, version: '1.0.0', exec: 'node', args: [BEHAVE, JSON.stringify({ name: cfg.name ?? folder, ...cfg })], ...manifest };
  fs.writeFileSync(path.join(dir, 'extension.json'), JSON.stringify(m, null, 2));
  return dir;
}

/**
 * Writes an extension folder whose program is the terva fixture with this config (see its header).
 * @param {string} root
 * @param {string} name
 * @param {Record<string, unknown>} [cfg]
 */
export function makeTervaExt(root, name, cfg = {}) {
  const dir = path.join(root, name);
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'extension.json'), JSON.stringify({ name, version: '0.4.2', exec: 'node', args: [TERVA, JSON.stringify({ name, ...cfg })] }));
  return dir;
}

export const FAST = {
  helloTimeoutMs: 3000,
  readyGraceMs: 2000,
  shutdownGraceMs: 500,
  killAfterMs: 300,
  restartBaseDelayMs: 50,
  restartMaxDelayMs: 200,
};

/**
 * An environment that makes a Node process write the built-in modules it
 * loaded when it exits (a script preloaded through NODE_OPTIONS), and their
 * reading: `loaded()`, the set of names, once that process has ended.
 */
export function builtinsLoadedBy() {
  const dir = tmpdir('zot-modules-');
  const list = path.join(dir, 'modules.json');
  const preload = path.join(dir, 'preload.cjs');
  fs.writeFileSync(preload, `process.on('exit', () => require('fs').writeFileSync(${JSON.stringify(list)}, JSON.stringify({ builtins: process.moduleLoadList, files: Object.keys(require.cache) })));\n`);
  /** @returns {{ builtins: string[], files: string[] }} */
  const read = () => JSON.parse(fs.readFileSync(list, 'utf8'));
  return {
    env: { NODE_OPTIONS: `--require ${JSON.stringify(preload)}` },
    loaded: () => new Set(read().builtins.filter((m) => m.startsWith('NativeModule ')).map((m) => m.slice('NativeModule '.length))),
    /** The files of dist/ it required. */
    bundles: () => read().files.filter((f) => path.dirname(f) === path.join(ROOT, 'dist')).map((f) => path.basename(f)).sort(),
  };
}

/**
 * Runs zot-host (the built dist/cli.js, or `program`: dist/hook.js) to its end with `args`, its zot home
 * `home` (a fresh one when not given) and `env` over this environment.
 * @param {string[]} args
 * @param {{ home?: string, cwd?: string, env?: Record<string, string | undefined>, program?: string }} [options]
 * @returns {Promise<{ code: number | null, stdout: string, stderr: string }>}
 */
export function runCli(args, { home = tmpdir('zot-home-'), cwd, env = {}, program = CLI } = {}) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [program, ...args], { cwd, env: { ...process.env, ZOT_HOME: home, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/**
 * Starts `zot-host mcp --http` with `args` (its zot home a fresh one), killed when the test ends;
 * resolves once it printed its line, with that line parsed.
 * @param {import('node:test').TestContext} t
 * @param {string[]} args
 */
export async function serveMcpHttp(t, args) {
  const child = spawn(process.execPath, [CLI, 'mcp', '--http', ...args], { env: { ...process.env, ZOT_HOME: tmpdir('zot-home-') }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  /** @type {Promise<{ code: number | null, signal: NodeJS.Signals | null }>} */
  const exited = new Promise((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
  t.after(() => child.exitCode === null && child.kill('SIGKILL'));
  const line = await waitFor('the line with url and token', () => stdout.includes('\n') && stdout, 10_000);
  /** @type {{ url: string, token: string }} */
  const info = JSON.parse(line);
  return { child, info, stdout: () => stdout, stderr: () => stderr, exited };
}

/** @typedef {NonNullable<import('../out/types/host/index.js').HostOptions['gate']>} Gate Whether an extension may start. */
/** @typedef {import('../out/types/host/index.js').InterceptResult} InterceptResult */

/**
 * An event without the fields every event carries (`session_id`, `cwd`, `sequence`: see test/host/events.test.mjs),
 * for tests about an event's own payload.
 * @template {object} F
 * @param {F | undefined} f
 */
export function ownFields(f) {
  if (!f) return f;
  const { session_id: _s, cwd: _c, sequence: _n, ...own } = /** @type {F & { session_id?: unknown, cwd?: unknown, sequence?: unknown }} */ (f);
  return own;
}

/**
 * What an intercept let through, failing the test when it was blocked.
 * @template {import('../out/types/host/index.js').InterceptableEvent} K
 * @param {import('../out/types/host/index.js').InterceptResult<K>} verdict
 * @returns {import('../out/types/host/index.js').InterceptMap[K]}
 */
export function passed(verdict) {
  assert.equal(verdict.blocked, false, `blocked: ${JSON.stringify(verdict)}`);
  return verdict.payload;
}

/**
 * @typedef {import('../out/types/host/index.js').ZotHost & {
 *   logs: import('../out/types/host/index.js').LogEvent[],
 *   stderrOf(name: string): string[],
 *   received<T extends FrameFromHost['type'] = FrameFromHost['type']>(name: string, type?: T): Seen<T>[],
 * }} TestHost A host that keeps its log, with the fixture's record of what it received (the frames of `type`, or all).
 */

/**
 * A host over the given folders, disposed when the test ends.
 * @param {import('node:test').TestContext} t
 * @param {string[]} extensionPaths
 * @param {Partial<import('../out/types/host/index.js').HostOptions> & { noStart?: boolean, timing?: Partial<import('../out/types/host/index.js').Timing> }} [opts]
 * @returns {Promise<TestHost>}
 */
export async function startHost(t, extensionPaths, opts = {}) {
  const zotHome = opts.zotHome ?? tmpdir('zot-home-');
  const host = new lib.ZotHost({ cwd: opts.cwd ?? zotHome, zotHome, extensionPaths, discover: opts.discover ?? false, ...opts, timing: { ...FAST, ...opts.timing } });
  /** @type {import('../out/types/host/index.js').LogEvent[]} */
  const logs = [];
  host.onLog((e) => logs.push(e));
  /** @type {(name: string) => string[]} */
  const stderrOf = (name) => logs.filter((e) => e.extension === name && e.kind === 'stderr').map((e) => e.line);
  const test = Object.assign(host, {
    logs,
    stderrOf,
    /**
     * @template {FrameFromHost['type']} [T=FrameFromHost['type']]
     * @param {string} name
     * @param {T} [type]
     * @returns {Seen<T>[]}
     */
    received: (name, type) => stderrOf(name).filter((l) => l.startsWith('RECV ')).map((l) => /** @type {Seen<T>} */ (JSON.parse(l.slice(5)))).filter((f) => !type || f.type === type),
  });
  t.after(() => host.dispose());
  if (opts.noStart !== true) await host.start();
  return test;
}

/** Polls fn every `everyMs` until it returns a truthy value, which it returns; fails naming `what` after `ms` (test/kit.cjs). */
export const { waitFor, sleep } = /** @type {typeof import('./kit.cjs')} */ (require('./kit.cjs'));

/**
 * Whether a process is alive and not a zombie.
 * @param {number} pid
 */
export function alive(pid) {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
}

/** @typedef {import('../out/types/host/index.js').HostUI} HostUI */
/** @typedef {import('../out/types/host/index.js').ExtensionRef} ExtensionRef */
/** @typedef {import('../out/types/host/index.js').PanelHandle} PanelHandle */
/** @typedef {import('../out/types/host/index.js').PanelContent & Pick<PanelHandle, 'uid' | 'id' | 'forToolCall'> & { extension: string }} RecordedPanel A panel as the UI recorded it: its fields, its extension by name. */
/**
 * The arguments each call of the UI is recorded with.
 * @typedef {{
 *   notify: [ext: string, level: import('../out/types/host/index.js').NotifyLevel, message: string],
 *   clearNotes: [ext: string],
 *   submit: [ext: string, text: string],
 *   insert: [ext: string, text: string],
 *   display: [ext: string, text: string],
 *   openPanel: [uid: string, panel: RecordedPanel],
 *   renderPanel: [uid: string, panel: RecordedPanel],
 *   closePanel: [uid: string],
 * }} UICalls
 */
/**
 * One recorded call, by kind.
 * @template {keyof UICalls} [K=keyof UICalls]
 * @typedef {{ [P in K]: { kind: P, args: UICalls[P] } }[K]} UICall
 */

/**
 * A UI that records every call, for asserting what the host asked of it.
 * @implements {HostUI}
 */
export class RecordingUI {
  interactive = true;
  /** @type {UICall[]} */
  calls = [];
  /** @type {Map<string, PanelHandle> | undefined} */
  handles;
  /** @param {Partial<HostUI>} [overrides] */
  constructor(overrides = {}) {
    Object.assign(this, overrides);
  }
  /**
   * @template {keyof UICalls} K
   * @param {K} kind
   * @param {UICalls[K]} args
   */
  record(kind, ...args) {
    this.calls.push(/** @type {UICall} */ ({ kind, args }));
  }
  /** @param {ExtensionRef} ext @param {import('../out/types/host/index.js').NotifyLevel} level @param {string} message */
  notify(ext, level, message) { this.record('notify', ext.name, level, message); }
  /** @param {ExtensionRef} ext */
  clearNotes(ext) { this.record('clearNotes', ext.name); }
  /** @param {ExtensionRef} ext @param {string} text */
  submit(ext, text) { this.record('submit', ext.name, text); }
  /** @param {ExtensionRef} ext @param {string} text */
  insert(ext, text) { this.record('insert', ext.name, text); }
  /** @param {ExtensionRef} ext @param {string} text */
  display(ext, text) { this.record('display', ext.name, text); }
  /** @param {PanelHandle} p */
  openPanel(p) { (this.handles ??= new Map()).set(p.uid, p); this.record('openPanel', p.uid, { ...p, extension: p.extension.name }); }
  /** @param {PanelHandle} p */
  renderPanel(p) { this.record('renderPanel', p.uid, { ...p, extension: p.extension.name }); }
  /** @param {PanelHandle} p */
  closePanel(p) { this.record('closePanel', p.uid); }
  /**
   * @template {keyof UICalls} K
   * @param {K} kind
   * @returns {UICall<K>[]}
   */
  of(kind) { return /** @type {UICall<K>[]} */ (this.calls.filter((c) => c.kind === kind)); }
  /**
   * The live handle of a panel the UI was given, to answer through; fails the test when it was given none.
   * @param {string} uid
   */
  panel(uid) {
    const handle = this.handles?.get(uid);
    assert.ok(handle, `no panel ${uid} was opened`);
    return handle;
  }
}

/**
 * The text of an outcome's first content block, failing when that block is not text.
 * @param {{ content: import('../out/types/protocol/index.js').ContentBlock[] }} outcome
 */
export function firstText(outcome) {
  const block = outcome.content[0];
  if (block?.type !== 'text') throw new assert.AssertionError({ message: `the first block is ${block ? `a ${block.type} block` : 'missing'}, not text`, actual: block, expected: 'a text block' });
  return block.text;
}

/**
 * The result of a check that was meant to fail (`ok: false`), narrowed to that arm; fails the test when it passed.
 * @template {{ ok: boolean }} T
 * @param {T} result
 * @returns {Extract<T, { ok: false }>}
 */
export function failed(result) {
  assert.equal(result.ok, false, `expected a failure, got ${JSON.stringify(result)}`);
  return /** @type {Extract<T, { ok: false }>} */ (result);
}

/**
 * The result of a check that was meant to pass (`ok: true`), narrowed to that arm; fails the test, saying why, when it did not.
 * @template {{ ok: boolean }} T
 * @param {T} result
 * @returns {Extract<T, { ok: true }>}
 */
export function succeeded(result) {
  assert.equal(result.ok, true, `expected success, got ${JSON.stringify(result)}`);
  return /** @type {Extract<T, { ok: true }>} */ (result);
}

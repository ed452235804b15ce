#!/usr/bin/env node
// Installs, once per machine, what runs a real VS Code here: Node 24 and
// code-server (which bundles the VS Code server and web workbench), and for
// the tests a Chromium to open it headless (see VSCODE-TESTING.md) and Go,
// which builds the Go fixture extension (test/fixtures/go).
//
// Everything goes into a cache folder outside the clone, the way a user's
// machine keeps such things, so a second clone or a second run reuses it:
//   $ZOT_VSCODE_TEST_CACHE, else $XDG_CACHE_HOME/zot-extensions, else
//   ~/.cache/zot-extensions (~/Library/Caches/zot-extensions on macOS).
// A marker file written last records a complete install; a lock keeps two
// runs (two clones, two test processes) from installing at once. An install
// made under `npm run` (npm test's own first step on a fresh machine) is
// recorded in receipts.json, so the test of a fresh install under npm run
// (test/setup/env.test.mjs) reads what happened instead of installing all of
// it a second time.
//
// Usage:  node scripts/vscode-test-env.mjs [--no-browser] [--no-go] [--oldest]
//         --oldest also installs the oldest VS Code the extension claims
//         (package.json's engines.vscode), on the Node its code-server needs
// Import: import { ensureEnv } from './scripts/vscode-test-env.mjs'
//         const { node24Bin, codeServerBin, chromium } = await ensureEnv({ browser: true });
//         const { nodeBin, codeServerBin } = (await ensureEnv({ oldest: true })).oldest;
//         import { ensureGo } from './scripts/vscode-test-env.mjs'
//         const goBin = await ensureGo();   // Go alone, for the host tests

import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

// Pinned: npm silently picks an older code-server whose `engines` matches the
// running Node if the version is left open. 4.139.1 bundles VS Code 1.139.1.
export const CODE_SERVER_VERSION = '4.139.1';
// code-server 4.139.1's install script refuses any Node but 24.
export const NODE_MAJOR = 24;
// The oldest VS Code package.json's engines.vscode admits, as code-server builds
// it: 4.133.0 bundles VS Code 1.133.0 and runs on Node 24 like the current one.
// Older code-server builds cannot be installed from the npm registry alone:
// 4.108 and before fetch a dependency from GitHub, 4.110 to 4.117 download
// ripgrep from GitHub while installing.
export const OLDEST = { codeServer: '4.133.0', vscode: '1.133.0', nodeMajor: 24 };
// The oldest maintained Node (Node 20's life ended in April 2026), the floor package.json's engines.node
// names: `npm test` runs every test on it (scripts/test.mjs), whatever Node runs npm.
export const NODE_FLOOR = 22;

/**
 * The floor Node's binary in the cache (installed by ensureEnv with `go`, as the tests' other tools).
 * @param {NodeJS.ProcessEnv} [env]
 */
export function floorNodeBin(env = process.env) {
  return path.join(cacheRoot(env), `node${NODE_FLOOR}`, 'node_modules', 'node', 'node_modules', `node-${process.platform}-${process.arch}`, 'bin', 'node');
}

/** A failure the user can act on: printed as one line, without a stack. */
export class EnvError extends Error {}

/** @typedef {(msg: string) => void} Log */
/** @typedef {{ codeServer: string, nodeMajor: number }} BuildName A build: its code-server and the major of its Node. */
/** @typedef {ReturnType<typeof buildPaths>} Build */
/** @typedef {Record<string, { npm: string, at: string }>} Receipts */
/** @typedef {{ name: string, debian: string, why: string }} SystemPackage */

/**
 * The machine-wide cache folder (outside any clone).
 * @param {NodeJS.ProcessEnv} [env]
 */
export function cacheRoot(env = process.env) {
  if (env.ZOT_VSCODE_TEST_CACHE) return path.resolve(env.ZOT_VSCODE_TEST_CACHE);
  if (env.XDG_CACHE_HOME) return path.join(env.XDG_CACHE_HOME, 'zot-extensions');
  if (process.platform === 'darwin') return path.join(os.homedir(), 'Library', 'Caches', 'zot-extensions');
  return path.join(os.homedir(), '.cache', 'zot-extensions');
}

/**
 * Where one build lives in the cache: its Node (the `node` npm package ships
 * the binary and its headers in a per-platform package; that folder is also
 * what node-gyp needs as `nodedir`), its code-server (whose bin is a JS file
 * with a `#!/usr/bin/env node` shebang: run it as `nodeBin codeServerBin ...`
 * so it never picks up the system Node) and the marker of a complete install.
 * @param {string} root
 * @param {BuildName} build
 * @param {string} markerName
 */
function buildPaths(root, { codeServer, nodeMajor }, markerName) {
  const nodeHome = path.join(root, `node${nodeMajor}`, 'node_modules', 'node', 'node_modules', `node-${process.platform}-${process.arch}`);
  const codeServerPrefix = path.join(root, `code-server-${codeServer}`);
  return {
    codeServer,
    nodeMajor,
    nodeHome,
    nodeBin: path.join(nodeHome, 'bin', 'node'),
    codeServerPrefix,
    codeServerBin: path.join(codeServerPrefix, 'node_modules', 'code-server', 'out', 'node', 'entry.js'),
    marker: path.join(root, markerName),
  };
}

/** @param {NodeJS.ProcessEnv} [env] */
const currentPaths = (env) => buildPaths(cacheRoot(env), { codeServer: CODE_SERVER_VERSION, nodeMajor: NODE_MAJOR }, 'env.json');

/**
 * Absolute paths of the environment's tools (whether installed or not).
 * @param {NodeJS.ProcessEnv} [env]
 */
export function envPaths(env = process.env) {
  const current = currentPaths(env);
  return {
    cacheDir: cacheRoot(env),
    node24Home: current.nodeHome,
    node24Bin: current.nodeBin,
    codeServerPrefix: current.codeServerPrefix,
    codeServerBin: current.codeServerBin,
    chromium: findChromium(env),
    go: findGo(env),
    marker: current.marker,
  };
}

/**
 * The same for the oldest build: its own Node and code-server beside the current ones.
 * @param {NodeJS.ProcessEnv} [env]
 */
export function oldestPaths(env = process.env) {
  return buildPaths(cacheRoot(env), OLDEST, `env-${OLDEST.codeServer}.json`);
}

/**
 * The receipts of installs into an empty folder under `npm run`, by build.
 * @param {NodeJS.ProcessEnv} [env]
 */
export function receiptsPath(env = process.env) {
  return path.join(cacheRoot(env), 'receipts.json');
}

/**
 * The key of a build's receipt.
 * @type {(build: BuildName) => string}
 */
export const receiptKey = (build) => `code-server ${build.codeServer} on Node ${build.nodeMajor}`;

/**
 * The receipts in the cache: `{ [receiptKey]: { npm, at } }`; none when the file is missing or unreadable.
 * @param {NodeJS.ProcessEnv} [env]
 * @returns {Receipts}
 */
export function readReceipts(env = process.env) {
  try {
    /** @type {unknown} */
    const r = JSON.parse(readFileSync(receiptsPath(env), 'utf8'));
    return r && typeof r === 'object' && !Array.isArray(r) ? /** @type {Receipts} */ (r) : {};
  } catch {
    return {};
  }
}

/**
 * Records that these builds were installed into an empty folder under an
 * outer `npm run` (whose npm_* variables the inner installs must not
 * inherit), by the npm named in its user agent. Called under the install
 * lock, or by the test that checked such an install.
 * @param {BuildName[]} builds
 * @param {string} npmAgent
 * @param {NodeJS.ProcessEnv} [env]
 */
export async function recordReceipts(builds, npmAgent, env = process.env) {
  const receipts = readReceipts(env);
  for (const b of builds) receipts[receiptKey(b)] = { npm: npmAgent, at: new Date().toISOString() };
  await mkdir(cacheRoot(env), { recursive: true });
  await writeFile(receiptsPath(env), JSON.stringify(receipts, null, 2) + '\n');
}

/** @type {Partial<Record<NodeJS.Platform, string[]>>} */
const CHROMIUM_CANDIDATES = {
  linux: ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome', '/usr/bin/google-chrome-stable'],
  darwin: ['/Applications/Chromium.app/Contents/MacOS/Chromium', '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome'],
};

/**
 * The browser the tests drive: $ZOT_CHROMIUM, else the first one installed.
 * @param {NodeJS.ProcessEnv} env
 */
function findChromium(env) {
  if (env.ZOT_CHROMIUM) return env.ZOT_CHROMIUM;
  const candidates = CHROMIUM_CANDIDATES[process.platform] ?? [];
  return candidates.find((file) => existsSync(file)) ?? candidates[0] ?? 'chromium';
}

/**
 * The `go` command: on PATH, else where Debian's golang-go or the upstream tarball puts it; undefined when absent.
 * @param {NodeJS.ProcessEnv} [env]
 */
export function findGo(env = process.env) {
  const onPath = (env.PATH ?? '').split(path.delimiter).filter(Boolean).map((dir) => path.join(dir, 'go'));
  return [...onPath, '/usr/lib/go/bin/go', '/usr/local/go/bin/go'].find((file) => existsSync(file));
}

/**
 * The `wine` on PATH, if any: the Windows tests run zot-host under it.
 * @param {NodeJS.ProcessEnv} [env]
 */
export function findWine(env = process.env) {
  const onPath = (env.PATH ?? '').split(path.delimiter).filter(Boolean).map((dir) => path.join(dir, 'wine'));
  return onPath.find((file) => existsSync(file));
}

/**
 * The environment for an npm run inside this one: nothing of the outer npm
 * run's own configuration (npm reads every `npm_config_*` variable as its
 * configuration, and install scripts read `npm_config_user_agent`, which
 * names the outer Node), with `extra` on top.
 * @param {Record<string, string>} [extra]
 * @param {NodeJS.ProcessEnv} [base]
 */
export function innerNpmEnv(extra = {}, base = process.env) {
  /** @type {NodeJS.ProcessEnv} */
  const env = {};
  for (const [key, value] of Object.entries(base)) {
    if (/^npm_/i.test(key) || key === 'INIT_CWD' || key === 'NODE') continue;
    env[key] = value;
  }
  return { ...env, ...extra };
}

/** @type {Log} */
const defaultLog = (msg) => console.log(`[vscode-test-env] ${msg}`);

/**
 * Installs whatever is missing and returns the paths from envPaths().
 * Idempotent; the cached case spawns nothing.
 * @param {{ browser?: boolean, go?: boolean, oldest?: boolean, log?: (msg: string) => void }} [options]
 *   browser: also make sure a Chromium is there (the tests need one; the demo does not).
 *   go: also make sure the host tests' own tools are there (Go builds a fixture extension; debugpy
 *   debugs a Python one; Wine runs zot-host's Windows paths; the floor Node, NODE_FLOOR, runs
 *   every test); the demo needs none of them.
 *   oldest: also the OLDEST build, whose paths (oldestPaths()) are then returned as `oldest`.
 * @returns {Promise<ReturnType<typeof envPaths> & { oldest?: ReturnType<typeof oldestPaths> }>}
 */
export async function ensureEnv({ browser = true, go = false, oldest = false, log = defaultLog } = {}) {
  const paths = envPaths();
  const builds = [currentPaths(), ...(oldest ? [oldestPaths()] : [])];
  /** @param {ReturnType<typeof envPaths>} p */
  const withOldest = (p) => (oldest ? { ...p, oldest: oldestPaths() } : p);
  const floorReady = () => !go || existsSync(floorNodeBin());
  if (builds.every(isComplete) && floorReady() && systemMissing({ browser, go }).length === 0) {
    return withOldest(paths);
  }
  await ensureSystemPackages({ browser, go }, log);
  if (!floorReady()) {
    await mkdir(paths.cacheDir, { recursive: true });
    await withLock(path.join(paths.cacheDir, 'install.lock'), log, async () => {
      if (floorReady()) return;
      const version = await ensureNode({ nodeMajor: NODE_FLOOR, nodeBin: floorNodeBin() }, paths.cacheDir, log);
      log(`installed Node ${version}, the floor every test runs on, into ${paths.cacheDir}`);
    });
  }
  for (const build of builds.filter((b) => !isComplete(b))) {
    await mkdir(paths.cacheDir, { recursive: true });
    await withLock(path.join(paths.cacheDir, 'install.lock'), log, async () => {
      if (isComplete(build)) return; // another run finished it while we waited
      const started = Date.now();
      const nodeVersion = await ensureNode(build, paths.cacheDir, log);
      await installCodeServer(build, log);
      await writeFile(build.marker, JSON.stringify({ codeServer: build.codeServer, nodeMajor: build.nodeMajor, node: nodeVersion, installedAt: new Date().toISOString() }, null, 2) + '\n');
      // Under `npm run` (its user agent set), the install just made is the one a newcomer's `npm test` makes.
      if (process.env.npm_config_user_agent) await recordReceipts([build], process.env.npm_config_user_agent);
      log(`installed code-server ${build.codeServer} and Node ${nodeVersion} into ${paths.cacheDir} in ${((Date.now() - started) / 1000).toFixed(0)} s`);
    });
  }
  return withOldest(envPaths());
}

/** @param {Build} build */
function isComplete(build) {
  /** @type {{ codeServer?: unknown, nodeMajor?: unknown } | null | undefined} */
  let marker;
  try {
    marker = JSON.parse(readFileSync(build.marker, 'utf8'));
  } catch {
    return false;
  }
  return marker?.codeServer === build.codeServer && marker?.nodeMajor === build.nodeMajor && existsSync(build.nodeBin) && existsSync(build.codeServerBin);
}

/**
 * Go alone, installed like the other system packages when it is missing:
 * the host tests build the Go fixture extension with it. Returns the `go`
 * command; throws an EnvError saying how to install it where it cannot be.
 * @param {{ log?: Log }} [options]
 */
export async function ensureGo({ log = defaultLog } = {}) {
  await ensureSystemPackages({ browser: false, go: true, codeServer: false }, log);
  return findGo();
}

/**
 * System packages that are missing, as { name, why, debian }.
 * code-server's `kerberos` module compiles against the Kerberos headers on
 * Linux (its prebuilt download is unreachable on machines without general
 * network); macOS has them in the system.
 * @satisfies {Record<string, SystemPackage>}
 */
export const SYSTEM_PACKAGES = {
  go: { name: 'Go', debian: 'golang-go', why: 'the tests build the Go fixture extension with it' },
  debugpy: { name: 'debugpy', debian: 'python3-debugpy', why: 'the tests debug a Python extension with it' },
  wine: { name: 'Wine', debian: 'wine wine64', why: 'the tests run zot-host\'s Windows paths under it' },
  kerberos: { name: 'Kerberos headers', debian: 'libkrb5-dev', why: "code-server's kerberos module compiles against them" },
  chromium: { name: 'Chromium', debian: 'chromium', why: 'the end-to-end tests open VS Code in it, headless' },
};

/**
 * @param {{ browser: boolean, go?: boolean, codeServer?: boolean }} wanted
 * @returns {SystemPackage[]}
 */
export function systemMissing({ browser, go = false, codeServer = true }) {
  /** @type {SystemPackage[]} */
  const missing = [];
  if (go && !findGo()) missing.push(SYSTEM_PACKAGES.go);
  // The debug test starts a Python extension under debugpy; only Linux has a
  // system package for it (elsewhere the test says it is skipped and why).
  if (go && process.platform === 'linux' && existsSync('/usr/bin/apt-get') && !existsSync('/usr/lib/python3/dist-packages/debugpy/__init__.py')) {
    missing.push(SYSTEM_PACKAGES.debugpy);
  }
  // Windows is tested under Wine where Debian's packages have it (elsewhere the test says it is skipped and why).
  if (go && process.platform === 'linux' && existsSync('/usr/bin/apt-get') && !findWine()) missing.push(SYSTEM_PACKAGES.wine);
  if (codeServer && process.platform === 'linux' && !['/usr/include/krb5.h', '/usr/include/gssapi/gssapi.h'].every((file) => existsSync(file))) {
    missing.push(SYSTEM_PACKAGES.kerberos);
  }
  if (browser && process.env.ZOT_CHROMIUM && !existsSync(process.env.ZOT_CHROMIUM)) {
    throw new EnvError(`ZOT_CHROMIUM names ${process.env.ZOT_CHROMIUM}, which does not exist: point it at a Chromium-based browser, or unset it`);
  }
  if (browser && !existsSync(findChromium(process.env))) {
    missing.push(SYSTEM_PACKAGES.chromium);
  }
  return missing;
}

/**
 * What to do about missing system packages: install them with apt-get (root on
 * a Debian-like Linux), or the message that says how to. Pure, for the tests.
 * @param {SystemPackage[]} missing
 * @param {{ platform?: NodeJS.Platform, aptGet?: boolean, uid?: number }} [machine]
 */
export function installPlan(missing, { platform = process.platform, aptGet = existsSync('/usr/bin/apt-get'), uid = process.getuid?.() } = {}) {
  const list = missing.map((m) => `${m.name} (${m.why})`).join('; ');
  const debian = missing.map((m) => m.debian).join(' ');
  if (platform !== 'linux' || !aptGet) {
    const hint = (missing.some((m) => m.name === 'Chromium') ? ' Install Chromium or Google Chrome, or set ZOT_CHROMIUM to a Chromium-based browser.' : '')
      + (missing.some((m) => m.name === 'Go') ? ' Install Go 1.19 or later (https://go.dev/dl/) and put `go` on PATH.' : '');
    return { error: `missing: ${list}.${hint} On Debian or Ubuntu: apt-get install ${debian}` };
  }
  if (uid !== 0) return { error: `missing: ${list}. Install ${missing.length > 1 ? 'them' : 'it'} with: sudo apt-get update && sudo apt-get install -y ${debian}` };
  return { aptGet: missing.flatMap((m) => m.debian.split(' ')), list };
}

/**
 * @param {Parameters<typeof systemMissing>[0]} wanted
 * @param {Log} log
 */
async function ensureSystemPackages(wanted, log) {
  const missing = systemMissing(wanted);
  if (missing.length === 0) return;
  const plan = installPlan(missing);
  if (plan.error !== undefined) throw new EnvError(plan.error);
  const { list } = plan;
  const debian = plan.aptGet.join(' ');
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  log(`apt-get install ${debian} (${list})`);
  await run('apt-get', ['update', '-q'], { env }, 'apt-get update');
  await run('apt-get', ['install', '-y', '-q', '--no-install-recommends', ...plan.aptGet], { env }, `apt-get install ${debian}`);
  const still = systemMissing(wanted);
  if (still.length) throw new EnvError(`apt-get finished but ${still.map((m) => m.name).join(', ')} still missing`);
}

/**
 * @param {Pick<Build, "nodeMajor" | "nodeBin">} build
 * @param {string} cacheDir
 * @param {Log} log
 */
async function ensureNode(build, cacheDir, log) {
  const major = build.nodeMajor;
  let version = existsSync(build.nodeBin) ? await capture(build.nodeBin, ['--version']) : '';
  if (!version.startsWith(`v${major}.`)) {
    const prefix = path.join(cacheDir, `node${major}`);
    log(`npm install node@${major} into ${prefix}`);
    await run('npm', ['install', '--prefix', prefix, '--no-audit', '--no-fund', '--no-save', `node@${major}`], { env: innerNpmEnv() }, `npm install node@${major}`);
    version = await capture(build.nodeBin, ['--version']);
    if (!version.startsWith(`v${major}.`)) throw new EnvError(`${build.nodeBin} reports ${version}, expected v${major}.x`);
  }
  return version;
}

/**
 * @param {Build} build
 * @param {Log} log
 */
async function installCodeServer(build, log) {
  // No marker, so whatever is there may be a broken install (an interrupted
  // native build): npm would call it up to date and skip the install scripts.
  await rm(build.codeServerPrefix, { recursive: true, force: true });
  log(`npm install code-server@${build.codeServer} into ${build.codeServerPrefix} (on Node ${build.nodeMajor}; compiles native modules, about two minutes)`);
  const env = innerNpmEnv({
    // `npm` is a `#!/usr/bin/env node` script: this Node first on PATH makes npm,
    // the install scripts and node-gyp all run on it.
    PATH: `${path.dirname(build.nodeBin)}${path.delimiter}${process.env.PATH ?? ''}`,
    // node-gyp would otherwise try to download headers (unreachable here), or
    // take a user's nodedir meant for another Node.
    npm_config_nodedir: build.nodeHome,
    // code-server 4.133.0's install script stops when run as root under npm without it (4.139.1's
    // no longer asks); npm 11 warns that it does not know the setting and passes it on anyway.
    npm_config_unsafe_perm: 'true',
  });
  await run('npm', ['install', '--prefix', build.codeServerPrefix, '--no-audit', '--no-fund', '--no-save', `code-server@${build.codeServer}`], { env }, `npm install code-server@${build.codeServer}`);
  // Smoke-check that it runs on its Node. Even `--version` writes a default
  // config.yaml and a log folder, so point it at a throwaway home.
  const scratch = await mkdtemp(path.join(os.tmpdir(), 'code-server-version-'));
  try {
    const xdg = { XDG_CONFIG_HOME: scratch, XDG_DATA_HOME: scratch, XDG_CACHE_HOME: scratch, XDG_STATE_HOME: scratch };
    const output = await capture(build.nodeBin, [build.codeServerBin, '--version'], { ...process.env, ...xdg });
    // The last line reads "4.139.1 <commit> with Code 1.139.1".
    const version = output.split('\n').at(-1) ?? '';
    if (!version.startsWith(`${build.codeServer} `)) throw new EnvError(`code-server --version printed "${output}", expected ${build.codeServer}`);
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

/**
 * Runs `body` holding a lock folder; waits while a live process holds it.
 * @template T
 * @param {string} lockDir
 * @param {Log} log
 * @param {() => Promise<T>} body
 * @returns {Promise<T>}
 */
async function withLock(lockDir, log, body) {
  const owner = path.join(lockDir, 'pid');
  let waited = false;
  for (;;) {
    try {
      await mkdir(lockDir);
      await writeFile(owner, String(process.pid));
      break;
    } catch (error) {
      if (/** @type {NodeJS.ErrnoException} */ (error).code !== 'EEXIST') throw error;
      const pid = Number(await readFile(owner, 'utf8').catch(() => ''));
      if (pid && !alive(pid)) {
        await rm(lockDir, { recursive: true, force: true });
        continue;
      }
      if (!waited) log(`waiting for another install (pid ${pid || '?'}) to finish`);
      waited = true;
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
  }
  try {
    return await body();
  } finally {
    await rm(lockDir, { recursive: true, force: true });
  }
}

/** @param {number} pid */
function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return /** @type {NodeJS.ErrnoException} */ (error).code === 'EPERM';
  }
}

/**
 * Runs a command with inherited stdio; rejects with `what failed` on a non-zero exit.
 * @param {string} command
 * @param {string[]} args
 * @param {import('node:child_process').SpawnOptions} options
 * @param {string} what
 * @returns {Promise<void>}
 */
function run(command, args, options, what) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: 'inherit', ...options });
    child.on('error', (error) => reject(new EnvError(`${what} could not start: ${error.message}`)));
    child.on('exit', (code, signal) => {
      if (code === 0) resolve();
      else reject(new EnvError(`${what} failed (${signal ?? `exit ${code}`}); its output is above`));
    });
  });
}

/**
 * Runs a command and returns its trimmed stdout; rejects on a non-zero exit.
 * @param {string} command
 * @param {string[]} args
 * @param {NodeJS.ProcessEnv} [env]
 * @returns {Promise<string>}
 */
function capture(command, args, env = process.env) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'inherit'], env });
    let out = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    child.on('error', (error) => reject(new EnvError(`${command} could not start: ${error.message}`)));
    child.on('exit', (code) => (code === 0 ? resolve(out.trim()) : reject(new EnvError(`${command} ${args.join(' ')} exited ${code}`))));
  });
}

/**
 * One line for any failure: the message for an expected one, a stack only for a bug.
 * @param {unknown} error
 */
export function describeFailure(error) {
  return error instanceof EnvError ? error.message : (/** @type {{ stack?: string } | null | undefined} */ (error)?.stack ?? String(error));
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const started = Date.now();
  const browser = !process.argv.includes('--no-browser');
  const go = !process.argv.includes('--no-go');
  const oldest = process.argv.includes('--oldest');
  ensureEnv({ browser, go, oldest }).then(
    (paths) => console.log(`[vscode-test-env] ready in ${((Date.now() - started) / 1000).toFixed(1)} s: code-server ${CODE_SERVER_VERSION}${oldest ? ` and ${OLDEST.codeServer}` : ''} in ${paths.cacheDir}${browser ? `, browser ${paths.chromium}` : ''}`),
    (error) => {
      console.error(`[vscode-test-env] failed: ${describeFailure(error)}`);
      process.exit(1);
    },
  );
}

#!/usr/bin/env node
// Installs, once, the environment that runs extension tests inside a real
// VS Code on machines that reach only npm and Debian apt (see
// /work/shared/VSCODE-TESTING.md): Node 24, code-server (which bundles the
// VS Code server and web workbench) and Debian's Chromium.
//
// Everything npm installs goes into <repo>/.vscode-test/ (git-ignored). A
// marker file records what was installed, so a second run only checks a few
// paths and returns at once.
//
// Usage:  node scripts/vscode-test-env.mjs
// Import: import { ensureEnv } from './scripts/vscode-test-env.mjs'
//         const { node24Bin, codeServerBin, chromium } = await ensureEnv();

import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

// Pinned: npm silently picks an older code-server whose `engines` matches the
// running Node if the version is left open. 4.139.1 bundles VS Code 1.139.1.
export const CODE_SERVER_VERSION = '4.139.1';
// code-server 4.139.1's install script refuses any Node but 24.
export const NODE_MAJOR = 24;

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const cacheDir = path.join(repoRoot, '.vscode-test');
const node24Prefix = path.join(cacheDir, 'node24');
const codeServerPrefix = path.join(cacheDir, 'code-server');
const markerFile = path.join(cacheDir, 'env.json');

// The `node` npm package ships the binary and its headers in a per-platform
// package; that folder is also what node-gyp needs as `nodedir`.
const node24Home = path.join(node24Prefix, 'node_modules', 'node', 'node_modules', `node-${process.platform}-${process.arch}`);
const CHROMIUM = '/usr/bin/chromium';
// Headers the `kerberos` dependency of code-server compiles against (its
// prebuilt binary download is unreachable from here).
const KRB5_HEADERS = ['/usr/include/krb5.h', '/usr/include/gssapi/gssapi.h'];

/** Absolute paths of the environment's tools (whether installed or not). */
export function envPaths() {
  return {
    node24Bin: path.join(node24Home, 'bin', 'node'),
    // code-server's bin is a JS file with a `#!/usr/bin/env node` shebang; run
    // it as `node24Bin codeServerBin ...` so it never picks up the system Node.
    codeServerBin: path.join(codeServerPrefix, 'node_modules', 'code-server', 'out', 'node', 'entry.js'),
    chromium: CHROMIUM,
  };
}

/**
 * Installs whatever is missing and returns the paths from envPaths().
 * Idempotent; the cached case does no process spawning at all.
 * @param {{ log?: (msg: string) => void }} [options]
 */
export async function ensureEnv({ log = (msg) => console.log(`[vscode-test-env] ${msg}`) } = {}) {
  const paths = envPaths();
  const wanted = { codeServer: CODE_SERVER_VERSION, nodeMajor: NODE_MAJOR };
  // The marker is written last, so it proves a complete install.
  const marker = await readFile(markerFile, 'utf8').then(JSON.parse, () => null);
  const cached =
    marker?.codeServer === wanted.codeServer &&
    marker?.nodeMajor === wanted.nodeMajor &&
    existsSync(paths.node24Bin) &&
    existsSync(paths.codeServerBin);

  if (cached && aptMissing().length === 0) {
    log(`cached: code-server ${marker.codeServer}, Node ${marker.node} in ${cacheDir}`);
    return paths;
  }

  await ensureAptPackages(log);
  if (!cached) {
    await mkdir(cacheDir, { recursive: true });
    const nodeVersion = await ensureNode24(paths.node24Bin, log);
    await installCodeServer(paths, log);
    await writeFile(markerFile, JSON.stringify({ ...wanted, node: nodeVersion, installedAt: new Date().toISOString() }, null, 2) + '\n');
  }
  log(`ready: code-server ${CODE_SERVER_VERSION} in ${cacheDir}`);
  return paths;
}

/** Debian packages whose files are missing. */
function aptMissing() {
  const missing = [];
  if (!existsSync(CHROMIUM)) missing.push('chromium');
  if (!KRB5_HEADERS.every((file) => existsSync(file))) missing.push('libkrb5-dev');
  return missing;
}

async function ensureAptPackages(log) {
  const missing = aptMissing();
  if (missing.length === 0) return;
  if (process.getuid?.() !== 0) {
    throw new Error(`missing Debian packages ${missing.join(', ')}; install them as root: apt-get update && apt-get install -y ${missing.join(' ')}`);
  }
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  log('apt-get update');
  await run('apt-get', ['update'], { env });
  log(`apt-get install -y ${missing.join(' ')}`);
  await run('apt-get', ['install', '-y', '--no-install-recommends', ...missing], { env });
  const still = aptMissing();
  if (still.length) throw new Error(`apt-get finished but files of ${still.join(', ')} are still missing`);
}

async function ensureNode24(node24Bin, log) {
  let version = existsSync(node24Bin) ? await capture(node24Bin, ['--version']) : '';
  if (!version.startsWith(`v${NODE_MAJOR}.`)) {
    log(`npm install --prefix ${path.relative(repoRoot, node24Prefix)} node@${NODE_MAJOR}`);
    await run('npm', ['install', '--prefix', node24Prefix, '--no-audit', '--no-fund', `node@${NODE_MAJOR}`]);
    version = await capture(node24Bin, ['--version']);
    if (!version.startsWith(`v${NODE_MAJOR}.`)) throw new Error(`${node24Bin} reports ${version}, expected v${NODE_MAJOR}.x`);
  }
  log(`Node ${version} at ${path.relative(repoRoot, node24Bin)}`);
  return version;
}

async function installCodeServer(paths, log) {
  // No marker, so whatever is there may be a broken install (an interrupted
  // native build): npm would call it up to date and skip the install scripts.
  await rm(codeServerPrefix, { recursive: true, force: true });
  log(`npm install --prefix ${path.relative(repoRoot, codeServerPrefix)} code-server@${CODE_SERVER_VERSION} (with Node 24; compiles native modules, takes minutes)`);
  const env = {
    ...process.env,
    // `npm` is a `#!/usr/bin/env node` script: Node 24 first on PATH makes npm,
    // the install scripts and node-gyp all run on it.
    PATH: `${path.dirname(paths.node24Bin)}${path.delimiter}${process.env.PATH}`,
    // node-gyp would otherwise try to download headers (unreachable here).
    npm_config_nodedir: node24Home,
  };
  await run('npm', ['install', '--prefix', codeServerPrefix, '--no-audit', '--no-fund', `code-server@${CODE_SERVER_VERSION}`], { env });
  // Smoke-check that it runs on Node 24. Even `--version` writes a default
  // config.yaml and a log folder, so point it at a throwaway home.
  const scratch = await mkdtemp(path.join(os.tmpdir(), 'code-server-version-'));
  try {
    const xdg = { XDG_CONFIG_HOME: scratch, XDG_DATA_HOME: scratch, XDG_CACHE_HOME: scratch, XDG_STATE_HOME: scratch };
    const output = await capture(paths.node24Bin, [paths.codeServerBin, '--version'], { ...process.env, ...xdg });
    // The last line reads "4.139.1 <commit> with Code 1.139.1".
    const version = output.split('\n').at(-1);
    if (!version.startsWith(`${CODE_SERVER_VERSION} `)) throw new Error(`code-server --version printed "${output}", expected ${CODE_SERVER_VERSION}`);
    log(`code-server ${version}`);
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

/** Runs a command with inherited stdio; rejects on a non-zero exit. */
function run(command, args, options = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: 'inherit', ...options });
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      if (code === 0) resolve();
      else reject(new Error(`${command} ${args.join(' ')} failed (${signal ?? `exit ${code}`})`));
    });
  });
}

/** Runs a command and returns its trimmed stdout; rejects on a non-zero exit. */
function capture(command, args, env = process.env) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'inherit'], env });
    let out = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve(out.trim()) : reject(new Error(`${command} ${args.join(' ')} exited ${code}`))));
  });
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const started = Date.now();
  ensureEnv().then(
    () => console.log(`[vscode-test-env] done in ${((Date.now() - started) / 1000).toFixed(1)} s`),
    (error) => {
      console.error(`[vscode-test-env] FAILED: ${error.message}`);
      process.exit(1);
    },
  );
}

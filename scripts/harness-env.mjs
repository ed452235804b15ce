// Installs, once per machine, the agent CLIs the harness tests drive
// (test/harness/*, ../shared/HARNESSES.md), each from npm at a pinned
// version, into the same cache as code-server (scripts/vscode-test-env.mjs
// cacheRoot): <cache>/harness-<name>-<version>/. Each is installed into a
// folder of its own beside that one and renamed into place when complete,
// so a folder there is a whole install and two runs at once never mix theirs.
//
// Import: import { ensureHarness } from './scripts/harness-env.mjs'
//         const { bin } = await ensureHarness('claude-code');
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { cacheRoot, innerNpmEnv } from './vscode-test-env.mjs';

/**
 * The harnesses: their npm package, pinned (HARNESSES.md was tried on these), the platforms it
 * has a build for (its optionalDependencies), and its program in the install.
 * @typedef {{ npm: string, version: string, platforms: string[], bin: string[] }} Harness
 */
export const HARNESSES = /** @type {const} */ ({
  'claude-code': {
    npm: '@anthropic-ai/claude-code', version: '2.1.328',
    platforms: ['linux-x64', 'linux-arm64', 'darwin-x64', 'darwin-arm64', 'win32-x64', 'win32-arm64'],
    bin: ['node_modules', '@anthropic-ai', 'claude-code', 'bin', 'claude.exe'],
  },
  // Its program is a loader (run it with Node) that starts the native build for this platform;
  // on its first run that unpacks about 235 MB into $XDG_CACHE_HOME/copilot (harnessPaths' xdgCache keeps it).
  copilot: {
    npm: '@github/copilot', version: '1.0.102',
    platforms: ['linux-x64', 'linux-arm64', 'darwin-x64', 'darwin-arm64', 'win32-x64', 'win32-arm64'],
    bin: ['node_modules', '@github', 'copilot', 'npm-loader.js'],
  },
  // Its program is a loader (run it with Node) that starts the native build (musl, static) for this platform.
  codex: {
    npm: '@openai/codex', version: '0.169.0',
    platforms: ['linux-x64', 'linux-arm64', 'darwin-x64', 'darwin-arm64', 'win32-x64', 'win32-arm64'],
    bin: ['node_modules', '@openai', 'codex', 'bin', 'codex.js'],
  },
});

/** @typedef {keyof typeof HARNESSES} HarnessName */

/**
 * Whether the harness has a build for this machine; if not, why not (the line a test skips with).
 * @param {HarnessName} name
 * @returns {string | undefined}
 */
export function unsupported(name) {
  const h = HARNESSES[name];
  const here = `${process.platform}-${process.arch}`;
  return /** @type {readonly string[]} */ (h.platforms).includes(here) ? undefined : `${h.npm}@${h.version} has no build for ${here} (it has ${h.platforms.join(', ')})`;
}

/**
 * Where the harness is (whether installed or not).
 * @param {HarnessName} name
 * @param {NodeJS.ProcessEnv} [env]
 */
export function harnessPaths(name, env = process.env) {
  const h = HARNESSES[name];
  const prefix = path.join(cacheRoot(env), `harness-${name}-${h.version}`);
  // A cache folder of its own that its runs share (what a harness unpacks on its first run), beside the install.
  return { prefix, bin: path.join(prefix, ...h.bin), xdgCache: `${prefix}.xdg-cache` };
}

/**
 * Installs the harness unless it is there; resolves with its paths and the seconds the install took (0 when cached).
 * @param {HarnessName} name
 * @param {{ log?: (line: string) => void }} [options]
 */
export async function ensureHarness(name, { log = (line) => console.log(`[harness-env] ${line}`) } = {}) {
  const h = HARNESSES[name];
  const paths = harnessPaths(name);
  if (existsSync(paths.bin)) return { ...paths, seconds: 0 };
  const started = Date.now();
  const temp = `${paths.prefix}.${process.pid}.${Date.now()}.tmp`;
  await mkdir(temp, { recursive: true });
  try {
    await writeFile(path.join(temp, 'package.json'), '{ "private": true }\n');
    log(`installing ${h.npm}@${h.version} into ${paths.prefix}`);
    await npm(['install', '--no-audit', '--no-fund', '--no-save', '--loglevel=error', `${h.npm}@${h.version}`], temp);
    if (!existsSync(path.join(temp, ...h.bin))) throw new Error(`npm installed ${h.npm}@${h.version}, but ${path.join(...h.bin)} is not in it (its install script did not run?)`);
    await rename(temp, paths.prefix).catch(async (e) => {
      // Another run put its whole install there first: that one is used.
      if (!existsSync(paths.bin)) throw e;
    });
  } finally {
    await rm(temp, { recursive: true, force: true });
  }
  const seconds = (Date.now() - started) / 1000;
  log(`installed ${h.npm}@${h.version} in ${seconds.toFixed(0)} s`);
  return { ...paths, seconds };
}

/**
 * Runs npm in `cwd`, with nothing of an outer npm run's configuration.
 * @param {string[]} args
 * @param {string} cwd
 */
function npm(args, cwd) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.platform === 'win32' ? 'npm.cmd' : 'npm', args, { cwd, env: innerNpmEnv(), stdio: ['ignore', 'pipe', 'pipe'], shell: process.platform === 'win32' });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(undefined) : reject(new Error(`npm ${args.join(' ')} failed (exit ${code}):\n${output.slice(-2000)}`))));
  });
}

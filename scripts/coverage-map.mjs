// Which unit test loads each src module: the map behind the mutation pass's
// `--coverage-map` and test/build/unit-coverage.test.mjs. "Unit tests" are
// the folders the mutation pass runs (protocol, host, fidelity, vscode-unit,
// cli, mcp). A test loads a module when a bundle it loads holds it, found by
// building each bundle with esbuild's metafile (nothing is written):
//   - dist/host.js: every test through test/helpers.mjs, which loads it;
//   - dist/cli.js: a test that runs zot-host (CLI, runCli or cli.js named);
//   - dist/mcp.js: a test that names mcp.js, or runs zot-host mcp;
//   - bundleSources(dir, 'folder', ['name', ...]): the modules named and all
//     they import, for that test file alone.
// A module no unit test loads is reached by an end-to-end suite, if at all;
// CONTRIBUTING.md lists each with the suite that holds it.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const UNIT_FOLDERS = ['test/protocol', 'test/host', 'test/fidelity', 'test/vscode-unit', 'test/cli', 'test/mcp'];

/** The product's bundles a test can load, by the entry each is built from (esbuild.mjs). */
const PRODUCT = { 'dist/host.js': 'src/host/index.ts', 'dist/cli.js': 'src/cli.ts', 'dist/hook.js': 'src/hook.ts', 'dist/mcp.js': 'src/mcp/entry.ts' };

/** Every test file of the unit folders, relative to the repository. */
export function unitTestFiles(root = ROOT) {
  return UNIT_FOLDERS.flatMap((d) => readdirSync(path.join(root, d)).filter((f) => f.endsWith('.test.mjs')).sort().map((f) => `${d}/${f}`));
}

/** Every src module (TypeScript, not declarations), relative to the repository. */
export function srcModules(root = ROOT) {
  /** @type {string[]} */
  const out = [];
  const walk = (/** @type {string} */ dir) => {
    for (const e of readdirSync(path.join(root, dir), { withFileTypes: true })) {
      const rel = `${dir}/${e.name}`;
      if (e.isDirectory()) walk(rel);
      else if (e.name.endsWith('.ts') && !e.name.endsWith('.d.ts')) out.push(rel);
    }
  };
  walk('src');
  return out.sort();
}

/**
 * The bundles a test file loads: product bundles by name, and the entries of its bundleSources calls.
 * @param {string} text the test file's source
 * @returns {{ product: string[], entries: string[] }}
 */
export function bundlesOf(text) {
  const product = [];
  if (/from '\.\.\/helpers\.mjs'|dist', 'host\.js'|dist\/host\.js/.test(text)) product.push('dist/host.js');
  // dist/hook.js loads dist/cli.js beside it when no window answers.
  if (/\bHOOK_JS\b|dist', 'hook\.js'|dist\/hook\.js/.test(text)) product.push('dist/hook.js');
  if (/\bCLI\b|\brunCli\(|dist', 'cli\.js'|dist\/cli\.js/.test(text) || product.includes('dist/hook.js')) product.push('dist/cli.js');
  // zot-host's mcp verb loads dist/mcp.js beside it.
  if (/dist', 'mcp\.js'|dist\/mcp\.js/.test(text) || (product.includes('dist/cli.js') && /'mcp'/.test(text))) product.push('dist/mcp.js');
  const entries = [];
  for (const call of text.matchAll(/bundleSources\([\s\S]*?'([\w/.-]+)',\s*\[([^\]]*)\]/g)) {
    for (const name of call[2].matchAll(/'([^']+)'/g)) entries.push(`src/${call[1]}/${name[1]}.ts`);
  }
  return { product, entries };
}

/**
 * The src modules each bundle holds, by its entry: one esbuild run for all of
 * them (nothing written), each entry its own output.
 * @param {string[]} entries
 * @param {string} root
 * @returns {Promise<Map<string, string[]>>}
 */
async function inputsOf(entries, root) {
  const { build } = await import('esbuild');
  const r = await build({ absWorkingDir: root, entryPoints: entries.map((e) => ({ in: e, out: e.replace(/\.ts$/, '') })), bundle: true, write: false, metafile: true, outdir: 'out-coverage-map', platform: 'node', format: 'cjs', external: ['vscode'], logLevel: 'silent' });
  /** @type {Map<string, string[]>} */
  const out = new Map();
  for (const o of Object.values(r.metafile.outputs)) if (o.entryPoint) out.set(o.entryPoint, Object.keys(o.inputs).filter((i) => i.startsWith('src/')));
  return out;
}

/**
 * Whether a module leaves anything at run time (a module of types only has no behaviour to load).
 * @param {string} file
 * @param {string} root
 */
async function hasCode(file, root) {
  const { transform } = await import('esbuild');
  return (await transform(readFileSync(path.join(root, file), 'utf8'), { loader: 'ts', format: 'esm' })).code.trim() !== '';
}

/**
 * For each src module with code, what loads it in a unit test: a product
 * bundle's name (dist/host.js…, loaded by many) or a test file that bundles it.
 * `tests` names, per test file, the product bundles it loads.
 * @param {string} [root]
 * @returns {Promise<{ modules: Map<string, string[]>, tests: Map<string, string[]> }>}
 */
export async function coverageMap(root = ROOT) {
  /** @type {Map<string, Set<string>>} */
  const map = new Map();
  for (const m of srcModules(root)) if (await hasCode(m, root)) map.set(m, new Set());
  const files = unitTestFiles(root).map((file) => ({ file, ...bundlesOf(readFileSync(path.join(root, file), 'utf8')) }));
  const entries = [...new Set([...Object.values(PRODUCT), ...files.flatMap((f) => f.entries)])];
  const inputs = await inputsOf(entries, root);
  const add = (/** @type {string} */ entry, /** @type {string} */ by) => {
    const held = inputs.get(entry);
    if (!held) throw new Error(`coverage map: ${entry} (bundled by ${by}) was not built`);
    for (const m of held) map.get(m)?.add(by);
  };
  for (const [bundle, entry] of Object.entries(PRODUCT)) if (files.some((f) => f.product.includes(bundle))) add(entry, bundle);
  for (const f of files) for (const entry of f.entries) add(entry, f.file);
  return { modules: new Map([...map].map(([m, by]) => [m, [...by].sort()])), tests: new Map(files.map((f) => [f.file, f.product])) };
}

/**
 * Whether test file `test` loads `file` (a src module, or a page script under media/ the test reads).
 * @param {{ modules: Map<string, string[]>, tests: Map<string, string[]> }} map
 * @param {string} test
 * @param {string} file
 * @param {string} [root]
 */
export function loads(map, test, file, root = ROOT) {
  if (!file.startsWith('src/')) return readFileSync(path.join(root, test), 'utf8').includes(path.basename(file));
  const by = map.modules.get(file) ?? [];
  return by.includes(test) || (map.tests.get(test) ?? []).some((b) => by.includes(b));
}

/**
 * CONTRIBUTING.md's list of modules no unit test loads, between its two markers:
 * lines `- <modules> — held by <tests>`; a module is a backticked `src/….ts`,
 * or a bare `name.ts` in the last backticked folder (`src/…/`) before it; the
 * tests are the backticked `test/e2e/…` after "held by".
 * @param {string} readme
 * @returns {Map<string, string[]>} each module listed → the end-to-end tests named for it
 */
export function readmeUnloaded(readme) {
  const start = readme.indexOf('<!-- modules no unit test loads -->');
  const end = readme.indexOf('<!-- end of modules no unit test loads -->');
  if (start < 0 || end < start) throw new Error('CONTRIBUTING.md: the list of modules no unit test loads is not marked');
  /** @type {Map<string, string[]>} */
  const out = new Map();
  for (const line of readme.slice(start, end).split('\n')) {
    const m = /^\s*- (.*) — held by (.*)$/.exec(line);
    if (!m) continue;
    const tests = [...m[2].matchAll(/`(test\/e2e\/[^`]+)`/g)].map((x) => x[1]);
    let folder = '';
    for (const [, item] of m[1].matchAll(/`([^`]+)`/g)) {
      if (item.endsWith('/')) folder = item;
      else out.set(item.startsWith('src/') ? item : `${folder}${item}`, tests);
    }
  }
  return out;
}

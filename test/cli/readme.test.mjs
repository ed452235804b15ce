// docs/CLI.md and CONTRIBUTING.md against what they describe: the usage block
// is what --help prints, every script and path they name exists, and the test
// scripts are bounded as CONTRIBUTING.md says.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { allDocs, doc, section } from '../docs.mjs';
import { CLI, ROOT } from '../helpers.mjs';

const scripts = /** @type {{ scripts: Record<string, string> }} */ (JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'))).scripts;

test('the zot-host usage block of docs/CLI.md is what zot-host --help prints', () => {
  const help = spawnSync(process.execPath, [CLI, '--help'], { encoding: 'utf8' });
  assert.equal(help.status, 0);
  const block = /```\n(usage:\n[\s\S]*?)```/.exec(section('docs/CLI.md', 'Usage'))?.[1];
  assert.ok(block, 'the section has the usage block');
  assert.equal(block, help.stdout.slice(help.stdout.indexOf('usage:')));
  for (const verb of ['init', 'doctor', 'tool', 'command', 'mcp', 'watch']) assert.match(block, new RegExp(`zot-host ${verb} `));
  for (const flag of ['--cwd', '--home', '--ext', '--no-discover', '--provider', '--model', '--trace', '--trace=messages', '--json', '--timeout', '--http', '--port', '--language', '--name']) {
    assert.ok(block.includes(flag), `the usage names ${flag}`);
  }
});

test('every npm script the documents name is in package.json', () => {
  const named = new Set([...allDocs().map(doc).join('\n').matchAll(/npm (?:run ([a-z0-9-]+(?::[a-z0-9-]+)?)|(start|test)\b)/g)].map((m) => m[1] ?? m[2]));
  for (const n of ['build', 'watch', 'test:host', 'test:e2e', 'test:desktop', 'screenshots', 'bench', 'package', 'package:test', 'soak']) assert.ok(named.has(n), `the documents name npm run ${n}`);
  for (const n of named) assert.ok(n in scripts, `npm run ${n} is not a script of package.json`);
});

test('every path CONTRIBUTING.md names exists', () => {
  const dev = doc('CONTRIBUTING.md');
  const layout = /```\n([\s\S]*?)```/.exec(dev)?.[1];
  assert.ok(layout, 'the section has the layout block');
  const paths = [
    ...[...layout.matchAll(/^(\S+\/)\s/gm)].map((m) => m[1]),
    ...[...dev.matchAll(/`((?:src|scripts|test|bench)\/[^`\s]+)`/g)].map((m) => m[1]),
    ...[...layout.matchAll(/(run\.mjs|peers\.mjs|measure\/|report\.mjs)/g)].map((m) => `bench/${m[1]}`),
  ];
  assert.ok(paths.length >= 15, `found ${paths.length} paths`);
  for (const p of paths) assert.ok(fs.existsSync(path.join(ROOT, p)), `${p} does not exist`);
  // The CLI is a folder of modules, each one the layout names.
  const modules = /src\/cli\/\s+zot-host: (.+)/.exec(layout)?.[1];
  assert.ok(modules, 'the layout names the CLI\'s modules');
  // A folder is named with its slash (running/).
  const names = modules.trim().split(', ');
  for (const m of names) assert.ok(fs.existsSync(path.join(ROOT, 'src', 'cli', m.endsWith('/') ? m : `${m}.ts`)), `src/cli/${m}${m.endsWith('/') ? '' : '.ts'}`);
  assert.deepEqual(fs.readdirSync(path.join(ROOT, 'src', 'cli'), { withFileTypes: true }).map((f) => (f.isDirectory() ? `${f.name}/` : f.name.replace(/\.ts$/, ''))).sort(), names.sort());
});

test('the test scripts run what CONTRIBUTING.md says, each test bounded', () => {
  assert.match(scripts.build, /^node scripts\/check-layers\.mjs && node scripts\/check-exports\.mjs && npm run typecheck && node esbuild\.mjs$/, 'build: the layer check, the export check, the type check, the bundle');
  assert.equal(scripts.watch, 'node esbuild.mjs --watch');
  assert.deepEqual(scripts['test:host'].match(/test\/\S+\*\.test\.mjs/g), ['test/build/*.test.mjs', 'test/protocol/*.test.mjs', 'test/host/*.test.mjs', 'test/fidelity/*.test.mjs', 'test/vscode-unit/*.test.mjs', 'test/cli/*.test.mjs', 'test/mcp/*.test.mjs']);
  assert.deepEqual(scripts['test:e2e'].match(/test\/\S+\*\.test\.mjs/g), ['test/e2e/*.test.mjs']);
  // npm test's runner bounds each lane's files and each test as the scripts do.
  assert.match(scripts.test, /node scripts\/test\.mjs$/);
  const runner = fs.readFileSync(path.join(ROOT, 'scripts', 'test.mjs'), 'utf8');
  assert.match(runner, /`--test-timeout=\$\{lane\.fileTimeoutMs\}`.*'--import', '\.\/test\/per-test-timeout\.mjs'/);
  for (const name of ['test:host', 'test:e2e', 'screenshots']) {
    assert.match(scripts[name], /node --test --test-timeout=\d+ .*--import \.\/test\/per-test-timeout\.mjs/, `${name} bounds each test`);
  }
  assert.match(scripts.screenshots, /ZOT_UPDATE_SCREENSHOTS=1 .*test\/e2e\/vscode\.test\.mjs test\/e2e\/agent\.test\.mjs/);
  // Neither the benchmark nor the mutation pass is part of npm test.
  assert.doesNotMatch(scripts.test, /bench|mutate/);
  assert.match(scripts.package, /scripts\/check-bundle\.mjs dist\/extension\.js/, 'package refuses a bundle with the test API');
  assert.match(scripts['package:test'], /--test-instruments.*-o dist\/zot-extensions-test\.vsix/);
});

test('a virtual workspace is declared unsupported, as docs/RUNNING.md says', () => {
  const pkg = /** @type {{ capabilities: { virtualWorkspaces: { supported: boolean } } }} */ (JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')));
  assert.equal(pkg.capabilities.virtualWorkspaces.supported, false);
  assert.match(section('docs/RUNNING.md', 'Load order'), /virtual workspace \(no files on disk\) is not supported/);
});

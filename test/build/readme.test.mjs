// What the README says about the extension's manifest, checked against
// package.json so neither drifts: the settings table (every setting, its true
// default), the command titles it names, the view's inline actions, the
// VS Code version and where the extension runs, the samples it ships.
import { lanes } from '../../scripts/test.mjs';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { CODE_SERVER_VERSION, OLDEST } from '../../scripts/vscode-test-env.mjs';
import { allDocs, doc } from '../docs.mjs';

/**
 * What is read here of package.json.
 * @typedef {{
 *   engines: { node: string, vscode: string },
 *   extensionKind: string[],
 *   scripts: Record<string, string>,
 *   contributes: {
 *     configuration: { properties: Record<string, { default?: unknown }> },
 *     commands: { command: string, title: string, category?: string }[],
 *     menus: Record<string, { command: string, when: string, group: string }[]>,
 *   },
 * }} Manifest
 */

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const readme = readFileSync(path.join(repoRoot, 'README.md'), 'utf8');
/** @type {Manifest} */
const pkg = JSON.parse(readFileSync(path.join(repoRoot, 'package.json'), 'utf8'));

/**
 * The match of `re` in `text`, failing the test when there is none.
 * @param {RegExp} re
 * @param {string} text
 */
function matched(re, text) {
  const m = re.exec(text);
  assert.ok(m, `${re} matches ${JSON.stringify(text.slice(0, 200))}`);
  return m;
}

/**
 * The text of a `## ` section, up to the next one.
 * @param {string} title
 */
function section(title) {
  const start = readme.indexOf(`\n## ${title}\n`);
  assert.ok(start >= 0, `README has a "## ${title}" section`);
  const end = readme.indexOf('\n## ', start + 1);
  return readme.slice(start, end < 0 ? undefined : end);
}

/**
 * A default as the README's table writes it.
 * @param {unknown} value
 */
function shown(value) {
  if (value === '') return 'empty';
  if (typeof value === 'number') return String(value);
  return `\`${JSON.stringify(value).replace(/^"|"$/g, '')}\``;
}

test('the settings table lists every setting of package.json with its default, and nothing else', () => {
  const rows = section('Settings').split('\n').filter((l) => /^\| `zot\./.test(l))
    .map((l) => l.split('|').slice(1, -1).map((c) => c.trim()));
  const table = Object.fromEntries(rows.map(([name, def]) => [name.replace(/`/g, ''), def]));
  const properties = pkg.contributes.configuration.properties;
  assert.deepEqual(Object.keys(table).sort(), Object.keys(properties).sort());
  for (const [name, spec] of Object.entries(properties)) assert.equal(table[name], shown(spec.default), `${name}'s default`);
});

test('every command the README and the docs name is a command of package.json, by its title', () => {
  // Titles are %keys% of package.nls.json, the English the palette shows.
  /** @type {Record<string, string>} */
  const nls = JSON.parse(readFileSync(path.join(repoRoot, 'package.nls.json'), 'utf8'));
  const titles = new Set(pkg.contributes.commands.map((c) => `${c.category}: ${nls[matched(/^%(.+)%$/, c.title)[1]]}`));
  // *Zot: Title* anywhere (a title may wrap), except the output channels' *Zot: <name>*.
  const named = [...allDocs().map(doc).join('\n').matchAll(/\*Zot: ([^*<]+)\*/g)].map((m) => `Zot: ${m[1].replace(/\s+/g, ' ')}`);
  // The command palette list under "Using it" names them without the category; "A / B / C Extension" is three.
  const palette = matched(/- \*\*Command palette\*\*[\s\S]*?\n- \*\*/, section('Using it'))[0];
  for (const [, title] of palette.matchAll(/(?<!\*)\*([^*]+?)\*(?!\*)/g)) {
    if (title === 'Zot') continue;
    const parts = title.replace(/\s+/g, ' ').split(' / ');
    const last = parts[parts.length - 1].split(' ');
    for (const p of parts) named.push(`Zot: ${p.includes(' ') ? p : `${p} ${last.slice(1).join(' ')}`}`);
  }
  assert.ok(named.length >= 15, `found ${named.length} command names`);
  assert.deepEqual(named.filter((n) => !titles.has(n)), []);
});

test('the view\'s inline actions are the ones the README lists, keyed to what the tree offers', () => {
  const inline = pkg.contributes.menus['view/item/context'].filter((m) => m.group.startsWith('inline') && /viewItem =~/.test(m.when));
  const byCommand = Object.fromEntries(inline.map((m) => [m.command, matched(/viewItem =~ \/;(\w+);\//, m.when)[1]]));
  assert.deepEqual(byCommand, {
    'zot.allowExtension': 'allow',
    'zot.startExtension': 'start',
    'zot.stopExtension': 'stop',
    'zot.restartExtension': 'restart',
    'zot.showLog': 'log',
    'zot.revealExtensionFolder': 'folder',
  });
  // The tree item's contextValue carries those keys (src/vscode/views/tree.ts).
  const tree = readFileSync(path.join(repoRoot, 'src', 'vscode', 'views', 'tree.ts'), 'utf8');
  assert.match(tree, /contextValue = `zotExtension;\$\{[^`]+\};log;folder;`/);
  assert.match(section('Using it'), /inline actions allow \(when held\), start,\s+stop, restart, show the log and reveal the folder/);
  // The context menu of an extension's row adds these three.
  const menu = pkg.contributes.menus['view/item/context'].filter((m) => !m.group.startsWith('inline') && /viewItem =~/.test(m.when)).map((m) => m.command);
  for (const c of ['zot.openManifest', 'zot.watchExtension', 'zot.debugExtension']) assert.ok(menu.includes(c), `${c} in the context menu`);
  assert.match(section('Using it'), /the context menu adds \*Open Extension Manifest\*,\s+\*Watch Extension\* and \*Debug Extension\*/);
});

test('the prerequisite Node.js version CONTRIBUTING.md gives is the one package.json declares', () => {
  const [, major] = matched(/^>=(\d+)$/, pkg.engines.node);
  assert.match(doc('CONTRIBUTING.md'), new RegExp(`Prerequisites: Node\\.js ${major} or later with npm`));
});

test('Install: the VS Code version, where the extension runs, and the samples', () => {
  const install = section('Install');
  const [, major, minor] = matched(/^\^(\d+)\.(\d+)\.0$/, pkg.engines.vscode);
  assert.match(install, new RegExp(`VS Code ${major}\\.${minor} or later`));
  // The tested range: the oldest build the e2e suite runs (test/e2e/oldest.test.mjs) and the current one.
  assert.match(install.replace(/\s+/g, ' '), new RegExp(`Tested on VS Code ${OLDEST.vscode.replace(/\./g, '\\.')}, the oldest it admits, and ${CODE_SERVER_VERSION.replace(/^4\./, '1.').replace(/\./g, '\\.')}`));
  assert.deepEqual(pkg.extensionKind, ['workspace']);
  assert.match(install, /`extensionKind`\s+workspace/);
  assert.deepEqual(readdirSync(path.join(repoRoot, 'samples')).sort(), ['ask-user', 'todo', 'word-count']);
  /** @type {{ exec: string, args?: string[] }} */
  const py = JSON.parse(readFileSync(path.join(repoRoot, 'samples', 'word-count', 'extension.json'), 'utf8'));
  assert.match(`${py.exec} ${(py.args ?? []).join(' ')}`, /python|\.py\b/);
  assert.match(readme.split('\n## ')[0], /three sample zot extensions/);
});

test('the README opens with the title, one product sentence, the two commands, then the screenshot', () => {
  const head = readme.split('\n## ')[0];
  const block = matched(/^```sh\n([\s\S]*?)^```$/m, head);
  assert.deepEqual(block[1].split('\n').filter(Boolean).map((l) => l.replace(/\s+#.*$/, '')), ['npm start', 'npm test']);
  // Before the commands: the title, the product sentence and the line that says what the commands are for.
  const before = head.slice(0, block.index).trim().split(/\n\s*\n/);
  assert.equal(before.length, 3, `title, sentence, label: ${JSON.stringify(before)}`);
  assert.match(before[0], /^# Zot Extensions for VS Code$/);
  assert.equal(before[1].replace(/\s+/g, ' ').match(/[.!?](\s|$)/g)?.length, 1, 'one sentence');
  assert.match(head.slice(block.index + block[0].length).trimStart(), /^!\[[^\]]+\]\(media\/screenshots\/[^)]+\.png\)/);
});

test('the two commands: npm test runs every test folder after installing what is missing; npm start installs too', () => {
  const folders = readdirSync(path.join(repoRoot, 'test'), { withFileTypes: true })
    .filter((d) => d.isDirectory() && readdirSync(path.join(repoRoot, 'test', d.name)).some((f) => f.endsWith('.test.mjs')))
    .map((d) => d.name);
  for (const f of ['protocol', 'host', 'cli', 'e2e']) assert.ok(folders.includes(f), `test/${f}`);
  const run = pkg.scripts.test;
  // Its runner's lanes hold every test file of every folder (scripts/test.mjs).
  const laned = lanes('all').flatMap((l) => l.files);
  for (const f of folders) {
    for (const file of readdirSync(path.join(repoRoot, 'test', f)).filter((n) => n.endsWith('.test.mjs'))) assert.ok(laned.includes(`test/${f}/${file}`), `npm test runs test/${f}/${file}`);
  }
  assert.equal(new Set(laned).size, laned.length, 'no file runs twice');
  // The packages first (pretest), then Node 24, code-server and the system packages, then the tests.
  assert.equal(pkg.scripts.pretest, 'node scripts/ensure-packages.mjs');
  assert.ok(run.indexOf('node scripts/vscode-test-env.mjs') >= 0 && run.indexOf('node scripts/vscode-test-env.mjs') < run.indexOf('node scripts/test.mjs'), run);
  const start = readFileSync(path.join(repoRoot, 'scripts', 'start.mjs'), 'utf8');
  assert.equal(pkg.scripts.start, 'node scripts/start.mjs');
  assert.match(start, /if \(!ensurePackages\(\)\) process.exit\(1\);/);
  assert.match(start, /await ensureEnv\(\{ browser: false/);
});

test('npm start -- --help lists its options and exits 0; an unknown option is refused', () => {
  /** @param {...string} args */
  const start = (...args) => spawnSync(process.execPath, [path.join(repoRoot, 'scripts', 'start.mjs'), ...args], { encoding: 'utf8', timeout: 30_000 });
  const help = start('--help');
  assert.equal(help.status, 0, help.stderr);
  for (const option of ['--port', '--password', '--vsix', '--dir']) assert.match(help.stdout, new RegExp(`^  ${option} `, 'm'));
  const bad = start('--nope');
  assert.equal(bad.status, 2, bad.stderr);
  assert.match(bad.stderr, /unknown option --nope \(see --help\)/);
});

test('the VSIX ships exactly the screenshots the README shows (its details page), and the bundles it needs', () => {
  const r = spawnSync(path.join(repoRoot, 'node_modules', '.bin', 'vsce'), ['ls', '--no-dependencies'], { cwd: repoRoot, encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  const files = r.stdout.split('\n').map((l) => l.trim()).filter(Boolean);
  const shipped = files.filter((f) => f.startsWith('media/screenshots/')).sort();
  const shownInReadme = [...new Set([...readme.matchAll(/\]\((media\/screenshots\/[^)]+)\)/g)].map((m) => m[1]))].sort();
  assert.deepEqual(shipped, shownInReadme);
  for (const f of ['dist/extension.js', 'dist/cli.js', 'dist/hook.js', 'dist/mcp.js', 'README.md', 'CHANGELOG.md', 'LICENSE', 'package.json']) assert.ok(files.includes(f), `${f} is in the VSIX`);
  for (const f of files) assert.doesNotMatch(f, /\.map$|\.ts$|^tsconfig|^src\/|^test\/|^bench\/|^docs\/|^CONTRIBUTING\.md$|^dist\/host\.js$|node_modules/, `${f} is not for users`);
  // The details page shows the README from the VSIX, whose relative links vsce leaves as they are: each
  // reaches a file the VSIX ships, or is a page of the source named by its path, so a reader there knows where it is.
  const links = [...readme.replace(/^```[\s\S]*?^```/gm, '').matchAll(/(!?)\[([^\]]*)\]\(([^)#\s]+)(?:#[^)]*)?\)/g)].filter((m) => !/^[a-z]+:/i.test(m[3]));
  assert.ok(links.length >= 10, `found ${links.length} relative links`);
  for (const [, image, text, target] of links) {
    if (files.includes(target)) continue;
    assert.ok(!image && /^(docs\/[^/]+\.md|CONTRIBUTING\.md)$/.test(target), `${target}: neither in the VSIX nor a page of the source`);
    assert.equal(text, target, `the link to ${target} is named by its path`);
  }
});

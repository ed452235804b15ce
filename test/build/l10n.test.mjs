// Every user-facing string of the extension can be translated, and German is
// complete: the code's messages (each `t('…')` in src/vscode) are the keys of
// l10n/bundle.l10n.json and of its German bundle; the manifest's titles and
// descriptions are %keys% of package.nls.json, each with a German text. The
// German UI itself is shown in a real VS Code by test/e2e/l10n.test.mjs.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { bundleSources } from '../helpers.mjs';

/**
 * What is read here of package.json.
 * @typedef {{ displayName: string, description: string, l10n: string, contributes: { views: Record<string, { name: string }[]>, [key: string]: unknown } }} Manifest
 */

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
/** @param {...string} p */
const read = (...p) => readFileSync(path.join(repoRoot, ...p), 'utf8');
/** @param {...string} p */
const json = (...p) => JSON.parse(read(...p));

/** @param {string} dir */
function sources(dir) {
  return readdirSync(path.join(repoRoot, dir), { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith('.ts'))
    .map((e) => path.join(e.parentPath ?? e.path, e.name));
}

/** Each `t(` call of the VS Code layer: its file and its first argument's literal, or null when it is not one. */
function calls() {
  /** @type {{ file: string, message: string | null }[]} */
  const out = [];
  for (const file of sources('src/vscode').filter((f) => !f.endsWith(`${path.sep}l10n.ts`))) {
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(/(?<![\w.$])t\(\s*(?:'((?:[^'\\\n]|\\.)*)'|"((?:[^"\\\n]|\\.)*)"|([^)\s]))/g)) {
      const literal = m[1] ?? m[2];
      out.push({ file: path.relative(repoRoot, file), message: literal === undefined ? null : literal.replace(/\\(.)/g, '$1') });
    }
  }
  return out;
}

/** @param {string} s */
const placeholders = (s) => [...new Set(s.match(/\{\d+\}/g) ?? [])].sort();
/** German words that are the same as the English ones. */
const SAME_IN_GERMAN = new Set(['Global', 'Panel', 'global ($ZOT_HOME/extensions)']);

test('every message of the code is a literal, and the English bundle holds exactly those', () => {
  const all = calls();
  assert.ok(all.length > 150, `found ${all.length} t() calls`);
  assert.deepEqual(all.filter((c) => c.message === null).map((c) => c.file), [], 't() with something other than a string literal cannot be collected for translation');
  const messages = [...new Set(all.map((c) => c.message))].sort();
  /** @type {Record<string, string>} */
  const english = json('l10n', 'bundle.l10n.json');
  assert.deepEqual(Object.keys(english).sort(), messages);
  for (const [k, v] of Object.entries(english)) assert.equal(v, k);
});

test('the German bundle translates every message, with the same placeholders', () => {
  const english = Object.keys(json('l10n', 'bundle.l10n.json'));
  /** @type {Record<string, string>} */
  const german = json('l10n', 'bundle.l10n.de.json');
  assert.deepEqual(Object.keys(german).sort(), [...english].sort());
  for (const [en, de] of Object.entries(german)) {
    assert.deepEqual(placeholders(de), placeholders(en), `placeholders of ${JSON.stringify(en)}`);
    assert.ok(de.trim(), `a German text for ${JSON.stringify(en)}`);
    if (!SAME_IN_GERMAN.has(en)) assert.notEqual(de, en, `${JSON.stringify(en)} is translated`);
    // Markdown the chat renders keeps its code spans.
    assert.equal((de.match(/`/g) ?? []).length, (en.match(/`/g) ?? []).length, `backticks of ${JSON.stringify(en)}`);
  }
});

/**
 * Every string of contributes a user reads, by path.
 * @param {Manifest} manifest
 */
function shownStrings(manifest) {
  /** @type {[string, string][]} */
  const out = [];
  /** @type {(node: unknown, where: string, key: string) => void} */
  const visit = (node, where, key) => {
    if (Array.isArray(node)) node.forEach((v, i) => visit(v, `${where}[${i}]`, key));
    else if (node && typeof node === 'object') for (const [k, v] of Object.entries(node)) visit(v, `${where}.${k}`, k);
    else if (typeof node === 'string' && /^(title|description|markdownDescription|enumDescriptions|contents|label|altText)$/.test(key)) out.push([where, node]);
  };
  out.push(['displayName', manifest.displayName], ['description', manifest.description]);
  visit(manifest.contributes, 'contributes', '');
  for (const [container, views] of Object.entries(manifest.contributes.views)) views.forEach((v, i) => out.push([`contributes.views.${container}[${i}].name`, v.name]));
  // Names that stay as they are: the Zot category and container, the chat participant's handle.
  return out.filter(([where]) => !/\.category$|viewsContainers|configuration\.title$/.test(where));
}

test('the manifest shows only %keys% of package.nls.json, and German has each of them', () => {
  /** @type {Manifest} */
  const manifest = json('package.json');
  /** @type {Record<string, string>} */
  const nls = json('package.nls.json');
  /** @type {Record<string, string>} */
  const de = json('package.nls.de.json');
  const shown = shownStrings(manifest);
  assert.ok(shown.length >= 55, `found ${shown.length} strings`);
  /** @type {string[]} */
  const keys = [];
  for (const [where, value] of shown) {
    const m = /^%(.+)%$/.exec(value);
    assert.ok(m, `${where} is a %key%, not the text ${JSON.stringify(value)}`);
    assert.ok(m[1] in nls, `${where}: ${m[1]} is in package.nls.json`);
    keys.push(m[1]);
  }
  assert.deepEqual(Object.keys(nls).sort(), [...new Set(keys)].sort(), 'package.nls.json has no key the manifest does not use');
  assert.deepEqual(Object.keys(de).sort(), Object.keys(nls).sort());
  for (const [k, en] of Object.entries(nls)) {
    assert.notEqual(de[k], en, `${k} is translated`);
    // Links in welcome views and walkthroughs run the same commands in both languages.
    assert.deepEqual([...de[k].matchAll(/\]\((command:[^)]+)\)/g)].map((x) => x[1]), [...en.matchAll(/\]\((command:[^)]+)\)/g)].map((x) => x[1]), `${k}'s command links`);
    assert.equal((de[k].match(/`/g) ?? []).length, (en.match(/`/g) ?? []).length, `${k}'s code spans`);
  }
  assert.equal(manifest.l10n, './l10n');
});

/** @type {string} */
let scratch;
/** @type {import('../bundled').BundledSources['vscode/l10n']} */
let l10n;
before(async () => {
  scratch = mkdtempSync(path.join(os.tmpdir(), 'zot-l10n-'));
  ({ l10n } = await bundleSources(scratch, 'vscode', ['l10n']));
});
after(() => rmSync(scratch, { recursive: true, force: true }));

test('outside the editor t() is the English message with its arguments, as vscode.l10n.t fills them in', () => {
  assert.equal(l10n.t('Reloaded: {0} of {1} extension(s) running.', 2, 3), 'Reloaded: 2 of 3 extension(s) running.');
  assert.equal(l10n.t('Created the zot extension "{0}" in {1}.', 'a', '/x'), 'Created the zot extension "a" in /x.');
  assert.equal(l10n.t('{0} and {0}', 'x'), 'x and x');
  assert.equal(l10n.t('{1} missing', 'x'), '{1} missing');
  assert.equal(l10n.t('Stopped.'), 'Stopped.');
  // activate() hands over VS Code's translator; every later call goes through it.
  /** @type {[string, unknown[]][]} */
  const seen = [];
  l10n.useTranslator((m, ...a) => { seen.push([m, a]); return `<${m}>`; });
  assert.equal(l10n.t('Run'), '<Run>');
  assert.equal(l10n.t('{0} running', 4), '<{0} running>');
  assert.deepEqual(seen, [['Run', []], ['{0} running', [4]]]);
});

// The README, CONTRIBUTING.md and docs/ link to each other by relative links;
// each must reach a file that exists and, with a #fragment, a heading that
// page has (GitHub's anchors). Every src/ and test/ path they name must exist,
// so a claim's test cannot be moved or renamed away from the page that cites it.
import assert from 'node:assert/strict';
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { allDocs, doc, ROOT } from '../docs.mjs';

/**
 * A document's text without its fenced code blocks and inline code, where
 * brackets and hashes are not links or headings.
 * @param {string} text
 */
function prose(text) {
  return text.replace(/^```[\s\S]*?^```/gm, '').replace(/`[^`\n]*`/g, '``');
}

/**
 * The anchors GitHub gives a page's headings: lower case, punctuation dropped
 * (but - and _), spaces as -, a repeat suffixed -1, -2…
 * @param {string} text
 */
export function anchors(text) {
  /** @type {Map<string, number>} */
  const seen = new Map();
  const out = new Set();
  for (const [, title] of text.replace(/^```[\s\S]*?^```/gm, '').matchAll(/^#{1,6} (.+?)\s*#*$/gm)) {
    const base = title.replace(/\[([^\]]*)\]\([^)]*\)/g, '$1').toLowerCase().replace(/[^\p{L}\p{M}\p{N}\p{Pc}\- ]/gu, '').replace(/ /g, '-');
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n ? `${base}-${n}` : base);
  }
  return out;
}

test('GitHub\'s anchors, as computed here', () => {
  assert.deepEqual([...anchors('# Security\n## `zot-host mcp --http`: the MCP server over HTTP\n## terva\n```\n# not a heading\n```\n## Limits\n## Limits\n## zot\'s newer wire')],
    ['security', 'zot-host-mcp---http-the-mcp-server-over-http', 'terva', 'limits', 'limits-1', 'zots-newer-wire']);
});

test('every relative link of the README, CONTRIBUTING.md and docs/ reaches a file, and a heading where it names one', () => {
  const broken = [];
  let checked = 0;
  for (const file of allDocs()) {
    for (const [, target] of prose(doc(file)).matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
      if (/^[a-z]+:/i.test(target)) continue;
      checked++;
      const [rel, fragment] = target.split('#');
      const to = rel ? path.normalize(path.join(path.dirname(file), rel)) : file;
      if (to.startsWith('..') || !existsSync(path.join(ROOT, to))) { broken.push(`${file}: ${target} (no ${to})`); continue; }
      if (fragment !== undefined && !(to.endsWith('.md') && statSync(path.join(ROOT, to)).isFile() && anchors(doc(to)).has(fragment))) broken.push(`${file}: ${target} (${to} has no heading #${fragment})`);
    }
  }
  assert.deepEqual(broken, []);
  assert.ok(checked >= 40, `found ${checked} relative links`);
});

test('every src/ and test/ path the documents name exists', () => {
  const missing = [];
  let named = 0;
  for (const file of allDocs()) {
    for (const [, p] of doc(file).matchAll(/(?<![\w/.\-@"])((?:src|test)\/[\w./-]+\.(?:ts|mjs|cjs|md|json|py|go|sh))\b/g)) {
      named++;
      if (!existsSync(path.join(ROOT, p))) missing.push(`${file}: ${p}`);
    }
  }
  assert.deepEqual(missing, []);
  assert.ok(named >= 100, `found ${named} paths`);
});

test('one word per concept: the docs say terva, and name "the zot family" (zot and terva) once, in docs/FIDELITY.md', () => {
  const uses = [];
  for (const file of allDocs()) {
    // Paths are the code's names, not the docs' words.
    const text = doc(file).replace(/[\w./-]*family[\w./-]*\.(?:ts|mjs|cjs)|src\/vscode\/family\//gi, '');
    for (const m of text.matchAll(/[^\n]*\bfamily\b[^\n]*/gi)) uses.push(`${file}: ${m[0].trim()}`);
  }
  assert.equal(uses.filter((u) => /the zot family/.test(u)).length, 1, uses.join('\n'));
  assert.deepEqual(uses.filter((u) => !u.startsWith('docs/FIDELITY.md: ')), []);
});

// The project's documents as the tests read them: the README (what a user and
// the VSIX's details page read), CONTRIBUTING.md and the pages of docs/. A test
// that holds a claim reads the page the claim is on, by a heading it names.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/**
 * The text of a document, by its path from the repository root (`README.md`, `docs/CLI.md`).
 * @param {string} file
 */
export function doc(file) {
  return readFileSync(path.join(ROOT, file), 'utf8');
}

/** Every document the project writes for its readers: the README, CONTRIBUTING.md, and docs/*.md. */
export function allDocs() {
  return ['README.md', 'CONTRIBUTING.md', ...readdirSync(path.join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).sort().map((f) => `docs/${f}`)];
}

/**
 * The text of one section of a document: from its heading (`## title`, or any
 * level) up to the next heading of the same level or above, failing the test
 * when the document has no such heading.
 * @param {string} file
 * @param {string} title
 */
export function section(file, title) {
  const text = doc(file);
  const m = new RegExp(`^(#+) ${title.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`, 'm').exec(text);
  assert.ok(m, `${file} has a "${title}" heading`);
  const rest = text.slice(m.index + m[0].length);
  const next = new RegExp(`^#{1,${m[1].length}} `, 'm').exec(rest);
  return m[0] + (next ? rest.slice(0, next.index) : rest);
}

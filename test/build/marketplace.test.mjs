// The VSIX `npm run package` makes, read as the marketplaces read it, without
// publishing: VS Code's Marketplace through vsce (which validates the manifest
// as it packages) and Open VSX, which VS Code forks and code-server install
// from, through what `ovsx publish` checks before it uploads (publisher, name,
// version, and a license: the `license` field or a LICENSE file) and what its
// registry shows on the extension's page.
/// <reference path="./vsce-zip.d.ts" />
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { extensionVsix } from '../e2e/vsix.mjs';

const require = createRequire(import.meta.url);
const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const { readZip, readVSIXPackage } = require('@vscode/vsce/out/zip.js');

// The Marketplace's categories (Open VSX takes the same names); an unknown one is dropped from the page.
const CATEGORIES = new Set(['Azure', 'Data Science', 'Debuggers', 'Education', 'Extension Packs', 'Formatters', 'Keymaps', 'Language Packs', 'Linters', 'Machine Learning', 'Notebooks', 'Programming Languages', 'SCM Providers', 'Snippets', 'Testing', 'Themes', 'Visualization', 'AI', 'Chat', 'Other']);

/**
 * What is read here of package.json.
 * @typedef {{ publisher: string, name: string, version: string, keywords: string[], categories: string[], engines: { vscode: string }, galleryBanner: { color: string, theme: string } }} Manifest
 */

/**
 * The PNG's width and height, from its IHDR chunk.
 * @param {Buffer} bytes
 */
function pngSize(bytes) {
  assert.equal(bytes.subarray(0, 8).toString('hex'), '89504e470d0a1a0a', 'a PNG file');
  return [bytes.readUInt32BE(16), bytes.readUInt32BE(20)];
}

/** @type {Promise<string> | undefined} */
let vsix;
async function packaged() {
  vsix ??= extensionVsix(mkdtempSync(path.join(os.tmpdir(), 'zot-marketplace-')));
  return vsix;
}

// The first test packages the VSIX (an npm run in a copy of the tree): on a loaded 2-core machine that takes longer than a test's usual bound.
test('the VSIX has what a marketplace page needs: names in English, icon, banner, categories, keywords, license, changelog', { timeout: 120_000 }, async () => {
  const file = await packaged();
  const { manifest, xmlManifest } = await readVSIXPackage(file);
  /** @type {Manifest} */
  const source = JSON.parse(readFileSync(path.join(repoRoot, 'package.json'), 'utf8'));
  /** @type {Record<string, string>} */
  const nls = JSON.parse(readFileSync(path.join(repoRoot, 'package.nls.json'), 'utf8'));
  // What `ovsx publish` refuses without: publisher, name, version; and a license.
  for (const field of ['publisher', 'name', 'version']) assert.ok(manifest[field], `${field} is set`);
  assert.equal(manifest.license, 'MIT');
  const meta = xmlManifest.PackageManifest.Metadata[0];
  const identity = meta.Identity[0].$;
  assert.deepEqual([identity.Publisher, identity.Id, identity.Version], [source.publisher, source.name, source.version]);
  // The page shows the English names, not the keys package.nls.json resolves.
  assert.equal(meta.DisplayName[0], nls.displayName);
  assert.equal(meta.Description[0]._, nls.description);
  assert.equal(meta.Tags[0].split(',').filter((t) => source.keywords.includes(t)).length, source.keywords.length, 'every keyword is a tag');
  assert.ok(source.keywords.length >= 3 && source.keywords.length <= 30, 'three to thirty keywords (the Marketplace takes thirty)');
  assert.ok(source.categories.length > 0 && source.categories.every((c) => CATEGORIES.has(c)), `known categories: ${source.categories}`);
  assert.equal(meta.Categories[0], source.categories.join(','));
  assert.match(meta.GalleryFlags[0], /Public/);
  const props = Object.fromEntries(meta.Properties[0].Property.map((p) => [p.$.Id, p.$.Value]));
  assert.equal(props['Microsoft.VisualStudio.Code.Engine'], source.engines.vscode);
  assert.equal(props['Microsoft.VisualStudio.Services.Branding.Color'], source.galleryBanner.color);
  assert.equal(props['Microsoft.VisualStudio.Services.Branding.Theme'], source.galleryBanner.theme);
  // The files the page links: icon (a PNG of at least 128 × 128: the marketplaces refuse SVG icons), license, changelog, readme.
  const assets = Object.fromEntries(xmlManifest.PackageManifest.Assets[0].Asset.map((a) => [a.$.Type, a.$.Path]));
  const files = await readZip(file, () => true);
  // vsce's reader keys the entries by their lower-cased names.
  /** @param {string} p */
  const at = (p) => files.get(p.toLowerCase());
  /** @param {string} p */
  const bytesOf = (p) => {
    const bytes = at(p);
    assert.ok(bytes, `${p} is in the VSIX`);
    return bytes;
  };
  for (const type of ['Microsoft.VisualStudio.Services.Icons.Default', 'Microsoft.VisualStudio.Services.Content.License', 'Microsoft.VisualStudio.Services.Content.Changelog', 'Microsoft.VisualStudio.Services.Content.Details']) {
    assert.ok(assets[type], `${type} is an asset`);
    assert.ok(at(assets[type]), `${assets[type]} is in the VSIX`);
  }
  const [w, h] = pngSize(bytesOf(assets['Microsoft.VisualStudio.Services.Icons.Default']));
  assert.ok(w >= 128 && w === h, `a square icon of at least 128 px (${w} × ${h})`);
  assert.match(bytesOf(assets['Microsoft.VisualStudio.Services.Content.License']).toString('utf8'), /^MIT License/);
  // The changelog has an entry for the version it ships.
  assert.match(bytesOf(assets['Microsoft.VisualStudio.Services.Content.Changelog']).toString('utf8'), new RegExp(`^## ${source.version.replace(/\./g, '\\.')}\\b`, 'm'));
  // The page says what the extension collects: nothing.
  assert.match(bytesOf(assets['Microsoft.VisualStudio.Services.Content.Details']).toString('utf8'), /^No telemetry: neither the extension nor `zot-host` collects or sends anything\./m);
});

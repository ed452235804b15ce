// The storm bound of the folder watch (src/host/discovery/folderWatch.ts)
// over a real folder: a reaction that writes into the folder it watches,
// as an extension writing its state at every start does, is paused after the
// same number of reactions whether a restart takes 20 ms or ten times the
// storm window; edits a person makes with pauses between them never are.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { lib, sleep, tmpdir, waitFor } from '../helpers.mjs';

/**
 * A watcher over a fresh folder whose reaction takes `reactMs` and (when `echo`) writes into the folder halfway.
 * @param {import('node:test').TestContext} t
 * @param {{ reactMs: number, echo: boolean, max?: number, windowMs?: number }} options
 */
function watchFolder(t, { reactMs, echo, max = 4, windowMs = 200 }) {
  const dir = tmpdir('zot-folder-watch-');
  /** @type {string[][]} */
  const reports = [];
  /** @type {string[]} */
  const errors = [];
  const watcher = new lib.FolderWatcher(
    async (name, files) => {
      reports.push(files);
      // Like an extension that writes its state halfway through a start.
      await sleep(reactMs / 2);
      if (echo) fs.writeFileSync(path.join(dir, 'state.json'), String(reports.length));
      await sleep(reactMs / 2);
    },
    (name, message) => errors.push(message),
    20,
    { max, windowMs },
  );
  t.after(() => watcher.dispose());
  assert.equal(watcher.add({ name: 'writer', dir }), true);
  return { dir, reports, errors, watcher };
}

for (const reactMs of [20, 2_000]) {
  test(`a reaction that writes into its own folder is paused after 4 in a row when it takes ${reactMs} ms (window 200 ms)`, async (t) => {
    const w = watchFolder(t, { reactMs, echo: true });
    fs.writeFileSync(path.join(w.dir, 'code.js'), '// edited\n');
    await waitFor('the pause', () => w.errors.some((e) => e.startsWith('watch paused')), 30_000);
    assert.equal(w.reports.length, 4, JSON.stringify(w.reports));
    assert.deepEqual(w.reports[0], ['code.js']);
    assert.deepEqual(w.reports.slice(1), [['state.json'], ['state.json'], ['state.json']]);
    assert.match(w.errors[0], /^watch paused: its folder changed 4 times in a row while restarting it or within 0\.2 s after \(last: state\.json\)/);
    await waitFor('the resume', () => w.errors.some((e) => e.startsWith('watch resumed')), 10_000);
    assert.equal(w.reports.length, 4, 'nothing was reported while paused');
    // The next edit after the quiet period counts from one again.
    fs.writeFileSync(path.join(w.dir, 'code.js'), '// edited again\n');
    await waitFor('a report after the resume', () => w.reports.length === 5, 10_000);
    assert.deepEqual(w.reports[4], ['code.js']);
  });
}

test('edits with a quiet spell after each restart are each reported, however many', async (t) => {
  const w = watchFolder(t, { reactMs: 20, echo: false, max: 2, windowMs: 150 });
  for (let i = 1; i <= 5; i++) {
    fs.writeFileSync(path.join(w.dir, 'code.js'), `// edit ${i}\n`);
    await waitFor(`edit ${i} reported`, () => w.reports.length === i, 10_000);
    await sleep(400);
  }
  assert.deepEqual(w.errors, []);
});

test('a pause lasts while the folder stays busy: each change starts the quiet period again, and it ends only a whole window after the last', async (t) => {
  // A window of 1.5 s: on a loaded machine two of the writes below were once 600 ms apart, a quiet window
  // (rightly a resume) where the test meant none.
  const w = watchFolder(t, { reactMs: 20, echo: true, max: 2, windowMs: 1_500 });
  fs.writeFileSync(path.join(w.dir, 'code.js'), '// edited\n');
  await waitFor('the pause', () => w.errors.some((e) => e.startsWith('watch paused')), 10_000);
  const reports = w.reports.length;
  // Busy for two windows: a write every 100 ms (a loaded machine may stall a few of them, never a window's worth).
  let last = Date.now();
  for (const end = Date.now() + 3_000; Date.now() < end;) {
    fs.writeFileSync(path.join(w.dir, 'state.json'), String(Date.now()));
    last = Date.now();
    await sleep(100);
  }
  assert.ok(!w.errors.some((e) => e.startsWith('watch resumed')), `resumed while the folder was still busy: ${w.errors.join(' | ')}`);
  await waitFor('the resume', () => w.errors.some((e) => e.startsWith('watch resumed')), 5_000);
  const quiet = Date.now() - last;
  assert.ok(quiet >= 1_500 - 20, `resumed ${quiet} ms after the last change, under the window`);
  assert.equal(w.reports.length, reports, 'nothing was reported while paused');
});

test('at most 1,000 folders of an extension are watched: past that it says so once, and changes in the watched ones are still reported', { skip: process.platform !== 'linux' && 'a watch per folder is Linux\'s way' }, async (t) => {
  const dir = tmpdir('zot-folder-watch-many-');
  for (let i = 0; i < 1_010; i++) fs.mkdirSync(path.join(dir, `d${String(i).padStart(4, '0')}`));
  /** @type {string[][]} */
  const reports = [];
  /** @type {string[]} */
  const errors = [];
  const watcher = new lib.FolderWatcher((_name, files) => void reports.push(files), (_name, message) => errors.push(message), 20);
  t.after(() => watcher.dispose());
  assert.equal(watcher.add({ name: 'wide', dir }), true);
  assert.deepEqual(errors, [`watching only 1000 folders of ${dir}; changes in the others are not seen`]);
  fs.mkdirSync(path.join(dir, 'd0000', 'more'));
  fs.writeFileSync(path.join(dir, 'index.js'), '// edited\n');
  await waitFor('the change reported', () => reports.some((r) => r.includes('index.js')), 5_000);
  assert.equal(errors.length, 1, 'said once');
});

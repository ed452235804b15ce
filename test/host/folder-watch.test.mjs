// The storm bound of the folder watch (src/host/extension/folderWatch.ts)
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

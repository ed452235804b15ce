// Unit tests of host modules the host library does not export (the folder
// watch's debounce and filters, the bound on panels an extension opens by
// itself), bundled from src/host with esbuild.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { bundleSources } from '../helpers.mjs';

/** @type {string} */
let scratch;
/** @type {typeof import('../../src/host/discovery/folderWatch')} */
let folderWatch;
/** @type {typeof import('../../src/host/ui/panelBudget')} */
let panelBudget;

before(async () => {
  scratch = mkdtempSync(path.join(os.tmpdir(), 'zot-host-pure-'));
  ({ folderWatch, panelBudget } = await bundleSources(path.join(scratch, 'out'), 'host', ['discovery/folderWatch', 'ui/panelBudget']));
});

after(() => rmSync(scratch, { recursive: true, force: true }));

describe('folder watch', () => {
  test('300 ms after the last change; node_modules, .git, __pycache__ and editors\' swap files do not count', () => {
    assert.equal(folderWatch.WATCH_DEBOUNCE_MS, 300);
    for (const p of ['node_modules/left-pad/index.js', '.git/HEAD', 'lib/__pycache__/a.cpython-312.pyc', '.index.mjs.swp', 'index.mjs~', '#index.mjs#', '4913']) {
      assert.equal(folderWatch.isIgnoredChange(p), true, p);
    }
    for (const p of ['index.mjs', 'lib/tool.py', 'extension.json', 'README.md']) assert.equal(folderWatch.isIgnoredChange(p), false, p);
  });

  test('every ignored folder, at any depth, beside a file of the same name that counts', () => {
    // pip installing into the extension's .venv or venv, a type checker's or test runner's cache: none restarts it.
    for (const dir of ['node_modules', '.git', '__pycache__', '.venv', 'venv', '.mypy_cache', '.pytest_cache']) {
      assert.equal(folderWatch.isIgnoredChange(`${dir}/lib/python3.12/site-packages/x.py`), true, dir);
      assert.equal(folderWatch.isIgnoredChange(`sub/${dir}/x.py`), true, `sub/${dir}`);
      assert.equal(folderWatch.isIgnoredChange(`${dir}-tools/x.py`), false, `${dir}-tools is the extension's own`);
      assert.equal(folderWatch.isIgnoredChange(`lib/${dir}.py`), false, `a file named ${dir}.py is the extension's own`);
    }
  });
});

describe('the bound on panels an extension opens by itself', () => {
  test('a refusal is said once per flood: quiet while it lasts, said again for a flood after one was admitted', () => {
    const now = 0;
    const budget = new panelBudget.PanelBudget(8, 20, 10_000, () => now);
    for (let open = 0; open < 8; open++) assert.deepEqual(budget.admit('x', open), { ok: true }, `panel ${open + 1}`);
    const first = budget.admit('x', 8);
    assert.equal(first.ok, false);
    assert.match(first.say ?? '', /^open_panel refused: it already has 8 panels open that no tool call asked for \(at most 8\); further ones are refused without a word until it is under the bound again$/);
    assert.deepEqual(budget.admit('x', 8), { ok: false }, 'the same flood: quiet');
    assert.deepEqual(budget.admit('y', 0), { ok: true }, 'another extension has its own bound');
    // Two closed: one more is admitted, and the next flood is said again.
    assert.deepEqual(budget.admit('x', 6), { ok: true });
    assert.deepEqual(budget.admit('x', 7), { ok: true });
    const second = budget.admit('x', 8);
    assert.equal(second.ok, false);
    assert.match(second.say ?? '', /^open_panel refused: it already has 8 panels open/, 'a new flood is said');
  });
});

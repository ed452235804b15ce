// terva's workspace_changed as the host computes it (src/host/turn/
// workspaceChanges.ts, workspaceFiles.ts), bundled from src: the net change
// per path of a watcher's events, .git and excluded paths left out, paths
// relative with "/" and sorted, the bound past which a run sends nothing,
// VS Code's watcherExclude globs, the disk's last word, and git's ignores.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { bundleSources } from '../helpers.mjs';

/** @type {string} */
let scratch;
/** @type {typeof import('../../src/host/turn/workspaceChanges')} */
let wc;
/** @type {typeof import('../../src/host/turn/workspaceFiles')} */
let wf;

before(async () => {
  scratch = mkdtempSync(path.join(os.tmpdir(), 'zot-workspace-changes-'));
  ({ workspaceChanges: wc, workspaceFiles: wf } = await bundleSources(path.join(scratch, 'out'), 'host', ['turn/workspaceChanges', 'turn/workspaceFiles']));
});
after(() => rmSync(scratch, { recursive: true, force: true }));

const ROOT = '/srv/code/billing-api';
/**
 * @param {import('../../src/host/turn/workspaceChanges').WatchKind} kind
 * @param {string} rel
 */
const ev = (kind, rel) => ({ kind, path: rel.startsWith('/') ? rel : `${ROOT}/${rel}` });
/**
 * The list of a run that stayed within the bound, failing the test when it sent nothing.
 * @param {import('../../src/host/turn/workspaceChanges').NetChangeResult} r
 */
const filesOf = (r) => {
  assert.ok('files' in r, `skipped: ${JSON.stringify(r)}`);
  return r.files;
};

describe('the net change of a run', () => {
  test('per path: created then deleted is nothing, deleted then created is modified, created then changed is added, changed then deleted is deleted', () => {
    const r = wc.netChanges(ROOT, [
      ev('created', 'tmp.txt'), ev('deleted', 'tmp.txt'),
      ev('deleted', 'swap.txt'), ev('created', 'swap.txt'),
      ev('created', 'new.txt'), ev('changed', 'new.txt'), ev('changed', 'new.txt'),
      ev('changed', 'gone.txt'), ev('deleted', 'gone.txt'),
      ev('changed', 'edit.txt'),
      ev('deleted', 'old.txt'),
      ev('created', 'back.txt'), ev('deleted', 'back.txt'), ev('created', 'back.txt'),
      ev('deleted', 'twice.txt'), ev('created', 'twice.txt'), ev('deleted', 'twice.txt'),
    ]);
    assert.deepEqual(r, { files: [
      { path: 'back.txt', change: 'added' },
      { path: 'edit.txt', change: 'modified' },
      { path: 'gone.txt', change: 'deleted' },
      { path: 'new.txt', change: 'added' },
      { path: 'old.txt', change: 'deleted' },
      { path: 'swap.txt', change: 'modified' },
      { path: 'twice.txt', change: 'deleted' },
    ] });
  });

  test('paths are relative with "/", sorted by their bytes; .git, the root itself and paths outside it are left out', () => {
    const r = wc.netChanges(ROOT, [
      ev('created', 'src/b.ts'), ev('created', 'src/a.ts'), ev('created', 'B.md'), ev('created', 'a.md'), ev('changed', 'ä.txt'), ev('changed', 'z.txt'),
      ev('changed', '.git/index'), ev('created', '.git/objects/ab/cdef'), ev('created', 'vendor/lib/.git/HEAD'), ev('changed', '.gitignore'),
      ev('changed', ROOT), ev('created', '/srv/code/other/x.txt'), ev('created', '/srv/code/billing-api-2/y.txt'),
    ]);
    assert.deepEqual(filesOf(r).map((f) => f.path), ['.gitignore', 'B.md', 'a.md', 'src/a.ts', 'src/b.ts', 'z.txt', 'ä.txt']);
  });

  test('Windows paths: backslashes become "/", a drive letter\'s case does not matter', () => {
    const r = wc.netChanges('C:\\work\\app', [{ kind: 'created', path: 'c:\\work\\app\\src\\main.ts' }, { kind: 'changed', path: 'C:\\work\\app\\.git\\index' }, { kind: 'created', path: 'D:\\elsewhere\\x' }], { pathApi: path.win32 });
    assert.deepEqual(r, { files: [{ path: 'src/main.ts', change: 'added' }] });
  });

  test('what the predicate names is left out, and does not count toward the bound', () => {
    const ignored = (/** @type {string} */ rel) => rel.startsWith('node_modules/');
    const events = [];
    for (let i = 0; i < 50; i++) events.push(ev('created', `node_modules/pkg/f${i}.js`));
    events.push(ev('changed', 'package.json'));
    assert.deepEqual(wc.netChanges(ROOT, events, { ignored, max: 10 }), { files: [{ path: 'package.json', change: 'modified' }] });
  });

  test('past the bound the run sends nothing and says so once; up to it the list is whole', () => {
    /** @type {string[]} */
    const said = [];
    const net = new wc.NetChanges(ROOT, { max: 3, onOverflow: (m) => said.push(m) });
    for (const p of ['a', 'b', 'c', 'a', 'b']) net.record('created', `${ROOT}/${p}`);
    assert.deepEqual(filesOf(net.result()).map((f) => f.path), ['a', 'b', 'c']);
    for (const p of ['d', 'e', 'f', 'a']) net.record('changed', `${ROOT}/${p}`);
    assert.equal(net.overflowed, true);
    assert.deepEqual(net.result(), { skipped: said[0] });
    assert.equal(said.length, 1);
    assert.match(said[0], /more than 3 paths changed in this run; no event is sent/);
    assert.equal(wc.MAX_WORKSPACE_CHANGES, 5000);
  });

  test('a run that changed nothing has an empty list', () => {
    assert.deepEqual(wc.netChanges(ROOT, [ev('created', 'x'), ev('deleted', 'x')]), { files: [] });
  });
});

describe('files.watcherExclude', () => {
  test('VS Code\'s default globs, with the folder itself and below', () => {
    const m = wc.excludeMatcher({ '**/.git/objects/**': true, '**/.git/subtree-cache/**': true, '**/node_modules/*/**': true, '**/.hg/store/**': true });
    const abs = (/** @type {string} */ rel) => `${ROOT}/${rel}`;
    for (const rel of ['node_modules/left-pad/index.js', 'node_modules/left-pad', 'web/node_modules/@scope/pkg/a/b.js', '.hg/store/data', 'sub/.git/objects/ab']) assert.equal(m(rel, abs(rel)), true, rel);
    for (const rel of ['node_modules', 'src/index.ts', 'node_modulesx/a/b', 'package.json']) assert.equal(m(rel, abs(rel)), false, rel);
  });

  test('*, ?, {a,b} and [...] stay within one name; false switches a glob off; absolute globs match the whole path', () => {
    const m = wc.excludeMatcher({ '*.log': true, 'build/**': true, 'out?/x': true, '**/*.{tmp,bak}': true, 'cache[0-9]/**': true, 'dist/**': false, '/srv/code/billing-api/secret/**': true });
    const yes = ['a.log', 'build', 'build/a/b.js', 'out1/x', 'deep/er/f.tmp', 'g.bak', 'cache3/z', 'secret/key'];
    const no = ['sub/a.log', 'buildx/a', 'out12/x', 'f.tmpl', 'cachex/z', 'dist/a.js', 'src/a.ts'];
    for (const rel of yes) assert.equal(m(rel, `${ROOT}/${rel}`), true, rel);
    for (const rel of no) assert.equal(m(rel, `${ROOT}/${rel}`), false, rel);
    assert.equal(wc.excludeMatcher(undefined)('a', '/a'), false);
    assert.equal(wc.excludeMatcher({ 'a.(b)+c': true })('a.(b)+c', '/x'), true, 'regular expression characters are plain');
  });
});

describe('the disk and git have the last word', () => {
  test('a path is listed as the disk has it now; folders are left out', async () => {
    const root = mkdtempSync(path.join(scratch, 'disk-'));
    mkdirSync(path.join(root, 'made'));
    writeFileSync(path.join(root, 'made', 'f.txt'), 'x');
    writeFileSync(path.join(root, 'kept.txt'), 'x');
    const out = await wf.settleOnDisk(root, [
      { path: 'made', change: 'added' }, { path: 'made/f.txt', change: 'added' },
      { path: 'kept.txt', change: 'deleted' }, { path: 'lost.txt', change: 'modified' },
      { path: 'never.txt', change: 'added' }, { path: 'gone.txt', change: 'deleted' },
    ]);
    assert.deepEqual(out, [{ path: 'made/f.txt', change: 'added' }, { path: 'kept.txt', change: 'modified' }, { path: 'lost.txt', change: 'deleted' }, { path: 'gone.txt', change: 'deleted' }]);
  });

  test('git check-ignore leaves out what .gitignore, nested ones included, ignores; a tracked file stays; outside a repository nothing is left out', async (t) => {
    try {
      execFileSync('git', ['--version']);
    } catch {
      return t.skip('git is not installed');
    }
    const repo = mkdtempSync(path.join(scratch, 'repo-'));
    const git = (/** @type {string[]} */ ...args) => execFileSync('git', args, { cwd: repo, env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1', HOME: repo } });
    git('init', '-q');
    writeFileSync(path.join(repo, '.gitignore'), '*.log\nbuild/\n');
    mkdirSync(path.join(repo, 'sub'));
    writeFileSync(path.join(repo, 'sub', '.gitignore'), 'local.txt\n');
    writeFileSync(path.join(repo, 'tracked.log'), 'x');
    git('add', '-f', 'tracked.log');
    const rels = ['a.log', 'build/out.js', 'sub/local.txt', 'sub/kept.txt', 'tracked.log', ':(exclude)x.txt', ':!y.log', 'weird name\nwith newline.log'];
    assert.deepEqual([...(await wf.gitIgnored(repo, rels))].sort(), [':!y.log', 'a.log', 'build/out.js', 'sub/local.txt', 'weird name\nwith newline.log']);
    const plain = mkdtempSync(path.join(os.tmpdir(), 'zot-not-a-repo-'));
    t.after(() => rmSync(plain, { recursive: true, force: true }));
    writeFileSync(path.join(plain, '.gitignore'), '*.log\n');
    assert.equal((await wf.gitIgnored(plain, ['a.log'])).size, 0);
    assert.equal((await wf.gitIgnored(repo, ['a.log'], { PATH: 'relative/bin' })).size, 0, 'git only from PATH\'s absolute entries');
  });
});

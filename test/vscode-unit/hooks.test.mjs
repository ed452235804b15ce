// The agent hook file zot writes for VS Code (src/vscode/hooks/hookFile.ts),
// in plain Node: its exact text (no secret in it), how zot recognises its own
// file, a workspace copy written only inside the workspace and kept out of
// git (real repositories: a sub-folder, a worktree). The command it holds is
// then run for real: the hook answers as zot-host hook does.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { before, test } from 'node:test';
import { bundleSources, COMPAT, HOOK_JS, tmpdir } from '../helpers.mjs';

/** @type {typeof import('../../src/vscode/hooks/hookFile')} */
let m;
before(async () => {
  ({ hookFile: m } = await bundleSources(tmpdir('zot-hookfile-'), 'vscode/hooks', ['hookFile']));
});

const inputs = { runtime: '/opt/VS Code/code', hook: "/ext/it's/dist/hook.js", zotHome: '/home/u/.zot', windows: '/gs/hook-windows' };

test('the hook file: PreToolUse and UserPromptSubmit run zot-host with VS Code\'s runtime and the windows folder, no token; never a project\'s own extensions', () => {
  /** @type {unknown} */
  const file = JSON.parse(m.hookFileText(inputs));
  const env = { ELECTRON_RUN_AS_NODE: '1', ZOT_HOOK_WINDOWS: '/gs/hook-windows' };
  assert.deepEqual(file, { hooks: {
    PreToolUse: [{ type: 'command', command: `'/opt/VS Code/code' '/ext/it'\\''s/dist/hook.js' hook PreToolUse --no-project --home '/home/u/.zot'`, env, timeout: 15 }],
    UserPromptSubmit: [{ type: 'command', command: `'/opt/VS Code/code' '/ext/it'\\''s/dist/hook.js' hook UserPromptSubmit --no-project --home '/home/u/.zot'`, env, timeout: 15 }],
  } });
});

test('zot knows its own file, and no other', async () => {
  const dir = tmpdir('zot-hookfile-');
  const ours = path.join(dir, 'ours.json');
  fs.writeFileSync(ours, m.hookFileText(inputs));
  assert.ok(await m.readOurs(ours));
  for (const [what, text] of [['someone else\'s hooks', '{"hooks":{"PreToolUse":[{"type":"command","command":"./guard.sh"}]}}'], ['not JSON', '{'], ['no hooks', '{}']]) {
    fs.writeFileSync(path.join(dir, 'other.json'), text);
    assert.equal(await m.readOurs(path.join(dir, 'other.json')), undefined, what);
  }
  assert.equal(await m.readOurs(path.join(dir, 'missing.json')), undefined);
});

/** @type {(cwd: string, ...a: string[]) => string} */
const git = (cwd, ...a) => {
  const r = spawnSync('git', ['-C', cwd, '-c', 'user.name=t', '-c', 'user.email=t@t', ...a], { encoding: 'utf8' });
  assert.equal(r.status, 0, `git ${a.join(' ')}: ${r.stderr}`);
  return r.stdout;
};

test('a workspace\'s hook file is listed in the repository\'s own exclude file, once, and not in a folder that is no repository', async () => {
  const repo = tmpdir('zot-hookrepo-');
  git(repo, 'init', '-q');
  fs.writeFileSync(path.join(repo, '.git', 'info', 'exclude'), '# git ls-files --others --exclude-from=.git/info/exclude\n*.log');
  const file = path.join(repo, '.github', 'hooks', m.HOOK_FILE_NAME);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, '{}');
  await m.keepOutOfGit(file);
  await m.keepOutOfGit(file);
  assert.equal(fs.readFileSync(path.join(repo, '.git', 'info', 'exclude'), 'utf8'),
    '# git ls-files --others --exclude-from=.git/info/exclude\n*.log\n# the zot agent hook file names this machine\'s paths\n/.github/hooks/zot-extensions.json\n');
  fs.writeFileSync(path.join(repo, 'kept.txt'), 'x');
  assert.deepEqual(git(repo, 'ls-files', '--others', '--exclude-standard').trim().split('\n'), ['kept.txt']);
  const plain = tmpdir('zot-hookplain-');
  fs.mkdirSync(path.join(plain, '.github', 'hooks'), { recursive: true });
  await m.keepOutOfGit(path.join(plain, '.github', 'hooks', m.HOOK_FILE_NAME));
  assert.ok(!fs.existsSync(path.join(plain, '.git')), 'no repository is made');
});

test('a workspace that is a sub-folder of a repository, or a worktree, keeps its hook file out of git too', async () => {
  const repo = tmpdir('zot-hookrepo-');
  git(repo, 'init', '-q');
  fs.writeFileSync(path.join(repo, 'README'), 'x');
  git(repo, 'add', 'README');
  git(repo, 'commit', '-qm', 'one');
  // The workspace is packages/app: its .github/hooks is not at the repository's top.
  const sub = path.join(repo, 'packages', 'app', '.github', 'hooks', m.HOOK_FILE_NAME);
  fs.mkdirSync(path.dirname(sub), { recursive: true });
  fs.writeFileSync(sub, '{}');
  await m.keepOutOfGit(sub);
  assert.equal(git(repo, 'status', '--porcelain', '--untracked-files=all'), '', 'the sub-folder\'s hook file is not among what git would add');
  // A worktree: .git is a file there, and the exclude file is the main repository's.
  const tree = path.join(tmpdir('zot-hookwt-'), 'wt');
  git(repo, 'worktree', 'add', '-q', tree);
  const wt = path.join(tree, '.github', 'hooks', m.HOOK_FILE_NAME);
  fs.mkdirSync(path.dirname(wt), { recursive: true });
  fs.writeFileSync(wt, '{}');
  await m.keepOutOfGit(wt);
  assert.equal(git(tree, 'status', '--porcelain', '--untracked-files=all'), '', 'the worktree\'s hook file is not among what git would add');
});

test('a workspace\'s hook file is written inside the workspace only: a link in its place is replaced, a linked folder on the way refused', async () => {
  const root = tmpdir('zot-hookws-');
  const outside = tmpdir('zot-hookout-');
  const bashrc = path.join(outside, '.bashrc');
  fs.writeFileSync(bashrc, 'export PATH=$PATH\n');
  const file = path.join(root, '.github', 'hooks', m.HOOK_FILE_NAME);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.symlinkSync(bashrc, file);
  await m.writeConfined(root, file, m.hookFileText(inputs));
  assert.equal(fs.readFileSync(bashrc, 'utf8'), 'export PATH=$PATH\n', 'the link\'s target is untouched');
  assert.ok(fs.lstatSync(file).isFile());
  assert.equal(fs.statSync(file).mode & 0o777, 0o600);
  assert.ok(await m.readOurs(file));
  assert.deepEqual(fs.readdirSync(path.dirname(file)), [m.HOOK_FILE_NAME], 'no temporary file left');
  // .github/hooks a link to a folder elsewhere: refused, and nothing written there.
  fs.rmSync(path.join(root, '.github'), { recursive: true });
  fs.mkdirSync(path.join(root, '.github'));
  fs.symlinkSync(outside, path.join(root, '.github', 'hooks'));
  await assert.rejects(m.writeConfined(root, path.join(root, '.github', 'hooks', m.HOOK_FILE_NAME), '{}'), /\.github\/hooks is a symbolic link; the hook file is not written through it/);
  assert.deepEqual(fs.readdirSync(outside), ['.bashrc']);
  // Missing folders are made.
  const fresh = tmpdir('zot-hookws-');
  await m.writeConfined(fresh, path.join(fresh, '.github', 'hooks', m.HOOK_FILE_NAME), '{}');
  assert.equal(fs.readFileSync(path.join(fresh, '.github', 'hooks', m.HOOK_FILE_NAME), 'utf8'), '{}');
});

test('the command in the file runs: zot-host hook answers with the global guard', () => {
  const home = tmpdir('zot-home-');
  fs.cpSync(path.join(COMPAT, 'guard'), path.join(home, 'extensions', 'guard'), { recursive: true });
  /** @type {import('../../src/vscode/hooks/hookFile').HookFile} */
  const file = JSON.parse(m.hookFileText({ ...inputs, runtime: process.execPath, hook: HOOK_JS, zotHome: home, windows: tmpdir('zot-windows-') }));
  const hook = file.hooks.PreToolUse[0];
  const r = spawnSync('sh', ['-c', hook.command], { input: JSON.stringify({ hook_event_name: 'PreToolUse', tool_name: 'run_in_terminal', tool_input: { command: 'rm -rf build' }, cwd: tmpdir() }), env: { ...process.env, ...hook.env }, encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  assert.deepEqual(JSON.parse(r.stdout), { hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'refusing to run rm -rf (rm -rf build)' } });
});

// The agent hook file zot writes for VS Code (src/vscode/hooks/hookFile.ts),
// in plain Node: its exact text, how zot recognises its own file and token,
// and a workspace copy kept out of git. The command it holds is then run for
// real: the hook answers as zot-host hook does.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { before, test } from 'node:test';
import { bundleSources, CLI, COMPAT, tmpdir } from '../helpers.mjs';

let m;
before(async () => {
  ({ hookFile: m } = await bundleSources(tmpdir('zot-hookfile-'), 'vscode/hooks', ['hookFile']));
});

const inputs = { runtime: '/opt/VS Code/code', cli: "/ext/it's/dist/cli.js", zotHome: '/home/u/.zot', token: 't'.repeat(43), windows: '/gs/hook-windows' };

test('the hook file: PreToolUse and UserPromptSubmit run zot-host with VS Code\'s runtime, the token and the window list; never a project\'s own extensions', () => {
  const file = JSON.parse(m.hookFileText(inputs));
  const env = { ELECTRON_RUN_AS_NODE: '1', ZOT_HOOK_TOKEN: inputs.token, ZOT_HOOK_WINDOWS: '/gs/hook-windows' };
  assert.deepEqual(file, { hooks: {
    PreToolUse: [{ type: 'command', command: `'/opt/VS Code/code' '/ext/it'\\''s/dist/cli.js' hook PreToolUse --no-project --home '/home/u/.zot'`, env, timeout: 15 }],
    UserPromptSubmit: [{ type: 'command', command: `'/opt/VS Code/code' '/ext/it'\\''s/dist/cli.js' hook UserPromptSubmit --no-project --home '/home/u/.zot'`, env, timeout: 15 }],
  } });
});

test('zot knows its own file and token, and no other', async () => {
  const dir = tmpdir('zot-hookfile-');
  const ours = path.join(dir, 'ours.json');
  fs.writeFileSync(ours, m.hookFileText(inputs));
  const read = await m.readOurs(ours);
  assert.equal(m.tokenOf(read), inputs.token);
  for (const [what, text] of [['someone else\'s hooks', '{"hooks":{"PreToolUse":[{"type":"command","command":"./guard.sh"}]}}'], ['not JSON', '{'], ['no hooks', '{}']]) {
    fs.writeFileSync(path.join(dir, 'other.json'), text);
    assert.equal(await m.readOurs(path.join(dir, 'other.json')), undefined, what);
  }
  assert.equal(await m.readOurs(path.join(dir, 'missing.json')), undefined);
  assert.equal(m.tokenOf({ hooks: { PreToolUse: [{ command: 'x hook PreToolUse', env: { ZOT_HOOK_TOKEN: 'short' } }] } }), undefined, 'a short token is none');
  assert.match(m.newToken(), /^[A-Za-z0-9_-]{43}$/);
});

test('a workspace\'s hook file is listed in the repository\'s own exclude file, once, and not in a folder that is no repository', async () => {
  const repo = tmpdir('zot-hookrepo-');
  fs.mkdirSync(path.join(repo, '.git', 'info'), { recursive: true });
  fs.writeFileSync(path.join(repo, '.git', 'info', 'exclude'), '# git ls-files --others --exclude-from=.git/info/exclude\n*.log');
  const file = path.join(repo, '.github', 'hooks', m.HOOK_FILE_NAME);
  await m.keepOutOfGit(file);
  await m.keepOutOfGit(file);
  assert.equal(fs.readFileSync(path.join(repo, '.git', 'info', 'exclude'), 'utf8'),
    '# git ls-files --others --exclude-from=.git/info/exclude\n*.log\n# the zot agent hook file holds a token of this machine\n/.github/hooks/zot-extensions.json\n');
  const plain = tmpdir('zot-hookplain-');
  await m.keepOutOfGit(path.join(plain, '.github', 'hooks', m.HOOK_FILE_NAME));
  assert.ok(!fs.existsSync(path.join(plain, '.git')), 'no repository is made');
  // With git itself: the file is not among what would be committed.
  const git = (...a) => spawnSync('git', ['-C', repo, ...a], { encoding: 'utf8' });
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, '{}');
  fs.writeFileSync(path.join(repo, 'kept.txt'), 'x');
  assert.equal(git('init', '-q').status, 0);
  assert.deepEqual(git('ls-files', '--others', '--exclude-standard').stdout.trim().split('\n'), ['kept.txt']);
});

test('the command in the file runs: zot-host hook answers with the global guard', () => {
  const home = tmpdir('zot-home-');
  fs.cpSync(path.join(COMPAT, 'guard'), path.join(home, 'extensions', 'guard'), { recursive: true });
  const file = JSON.parse(m.hookFileText({ ...inputs, runtime: process.execPath, cli: CLI, zotHome: home, windows: tmpdir('zot-windows-') }));
  const hook = file.hooks.PreToolUse[0];
  const r = spawnSync('sh', ['-c', hook.command], { input: JSON.stringify({ hook_event_name: 'PreToolUse', tool_name: 'run_in_terminal', tool_input: { command: 'rm -rf build' }, cwd: tmpdir() }), env: { ...process.env, ...hook.env }, encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  assert.deepEqual(JSON.parse(r.stdout), { hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'refusing to run rm -rf (rm -rf build)' } });
});

// terva's secret requests under zot-host, over real processes: the answers
// come from a private file in the zot home (scoped by extension, kept across
// runs, written 0600 in a 0700 folder), an unsafe folder or file is refused
// with an error the extension receives, two zot-host processes writing at
// once keep both their writes, and `zot-host secrets list|forget` reads and
// clears one extension's keys.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { CLI, makeTervaExt, runCli, tmpdir, waitFor } from '../helpers.mjs';

const POSIX = process.platform !== 'win32';
/** @typedef {{ type: string, id: string, key?: string, value?: string }} SecretRequest A secret request terva sends. */
/** @typedef {{ type: string, id: string, error?: string }} SecretAnswer The host's answer to one, as the extension read it. */
/** @type {(id: string, key: string, value: string) => SecretRequest} */
const set = (id, key, value) => ({ type: 'secret_set', id, key, value });
/** @type {(id: string, key: string) => SecretRequest} */
const get = (id, key) => ({ type: 'secret_get', id, key });
/** @type {(id: string, key: string) => SecretRequest} */
const del = (id, key) => ({ type: 'secret_delete', id, key });
/** @type {(id: string) => SecretRequest} */
const list = (id) => ({ type: 'secret_list', id });

/**
 * Every frame an extension read (its `RECV` lines in its log), by id.
 * @param {string} home
 * @param {string} name
 * @returns {Map<string, SecretAnswer>}
 */
function answersIn(home, name) {
  let log = '';
  try {
    log = fs.readFileSync(path.join(home, 'logs', `ext-${name}.log`), 'utf8');
  } catch {
    return new Map();
  }
  const frames = log.split('\n').filter((l) => l.startsWith('RECV ')).map((l) => /** @type {SecretAnswer} */ (JSON.parse(l.slice(5))));
  return new Map(frames.filter((f) => f.id !== undefined).map((f) => [f.id, f]));
}

/**
 * Runs `zot-host watch` over terva fixtures named by `requests` (name → frames sent after hello_ack),
 * until every request is answered; then Ctrl-C. Resolves with each extension's answers by id.
 * @param {import('node:test').TestContext} t
 * @param {string} home
 * @param {Record<string, SecretRequest[]>} requests
 * @returns {Promise<Record<string, Map<string, SecretAnswer>>>}
 */
async function runUntilAnswered(t, home, requests) {
  const root = tmpdir('zot-secrets-ext-');
  const dirs = Object.entries(requests).map(([name, frames]) => makeTervaExt(root, name, { afterAck: frames }));
  const child = spawn(process.execPath, [CLI, 'watch', '--no-discover', ...dirs.flatMap((d) => ['--ext', d])], { env: { ...process.env, ZOT_HOME: home }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  child.stdout.resume();
  /** @type {Promise<number | null>} */
  const exit = new Promise((r) => child.on('close', (code) => r(code)));
  t.after(() => child.exitCode === null && child.kill('SIGKILL'));
  const answered = () => Object.entries(requests).every(([name, frames]) => {
    const got = answersIn(home, name);
    return frames.every((f) => got.has(f.id));
  });
  await waitFor('every request answered', answered, 20_000);
  child.kill('SIGINT');
  assert.equal(await exit, 0, stderr);
  return Object.fromEntries(Object.keys(requests).map((name) => [name, answersIn(home, name)]));
}

test('secrets round-trip through the file, per extension, kept across runs; list and forget see one extension\'s keys', async (t) => {
  const home = tmpdir('zot-home-');
  const first = await runUntilAnswered(t, home, {
    alpha: [set('a1', 'token', 'alpha-token'), set('a2', 'refresh', 'alpha-refresh'), set('a3', 'scratch', 'x'), get('a4', 'token'), list('a5'),
      del('a6', 'scratch'), set('a7', 'refresh', ''), get('a8', 'scratch'), list('a9'), del('a10', 'never-stored')],
    beta: [get('b1', 'token'), list('b2'), set('b3', 'token', 'beta-token')],
  });
  const a = first.alpha;
  for (const id of ['a1', 'a2', 'a3', 'a6', 'a7', 'a10']) assert.deepEqual(a.get(id), { type: 'secret_ack', id }, id);
  assert.deepEqual(a.get('a4'), { type: 'secret_value', id: 'a4', found: true, value: 'alpha-token' });
  assert.deepEqual(a.get('a5'), { type: 'secret_keys', id: 'a5', keys: ['refresh', 'scratch', 'token'] });
  assert.deepEqual(a.get('a8'), { type: 'secret_value', id: 'a8', found: false });
  assert.deepEqual(a.get('a9'), { type: 'secret_keys', id: 'a9', keys: ['token'] }, 'a delete and an empty value each removed a key');
  // beta ran beside alpha and sees none of its keys.
  assert.deepEqual(first.beta.get('b1'), { type: 'secret_value', id: 'b1', found: false });
  assert.deepEqual(first.beta.get('b2'), { type: 'secret_keys', id: 'b2', keys: null });
  assert.deepEqual(first.beta.get('b3'), { type: 'secret_ack', id: 'b3' });

  const file = path.join(home, 'secrets', 'secrets.json');
  assert.deepEqual(/** @type {{ secrets: unknown }} */ (JSON.parse(fs.readFileSync(file, 'utf8'))).secrets, { 'ext:alpha': { token: 'alpha-token' }, 'ext:beta': { token: 'beta-token' } });
  if (POSIX) {
    assert.equal(fs.statSync(file).mode & 0o777, 0o600, 'the file is 0600');
    assert.equal(fs.statSync(path.dirname(file)).mode & 0o777, 0o700, 'its folder is 0700');
  }
  assert.deepEqual(fs.readdirSync(path.dirname(file)), ['secrets.json'], 'no lock or temporary file is left');

  // A later run reads what the first wrote, each extension its own.
  const second = await runUntilAnswered(t, home, { alpha: [get('c1', 'token')], beta: [get('d1', 'token'), get('d2', 'refresh')] });
  assert.deepEqual(second.alpha.get('c1'), { type: 'secret_value', id: 'c1', found: true, value: 'alpha-token' });
  assert.deepEqual(second.beta.get('d1'), { type: 'secret_value', id: 'd1', found: true, value: 'beta-token' });
  assert.deepEqual(second.beta.get('d2'), { type: 'secret_value', id: 'd2', found: false });

  const names = await runCli(['secrets', 'list', 'alpha'], { home });
  assert.deepEqual([names.code, names.stdout], [0, 'token\n'], names.stderr);
  assert.ok(!names.stdout.includes('alpha-token'), 'names only');
  const forgot = await runCli(['secrets', 'forget', 'alpha'], { home });
  assert.deepEqual([forgot.code, forgot.stdout], [0, 'forgot 1 secret of alpha\n'], forgot.stderr);
  assert.deepEqual(JSON.parse((await runCli(['secrets', 'list', 'alpha', '--json'], { home })).stdout), []);
  assert.deepEqual(JSON.parse((await runCli(['secrets', 'list', 'beta', '--json'], { home })).stdout), ['token'], 'beta keeps its own');
  const again = await runCli(['secrets', 'forget', 'alpha'], { home });
  assert.deepEqual([again.code, again.stdout], [0, 'no secrets stored for alpha\n']);
  if (POSIX) assert.equal(fs.statSync(file).mode & 0o777, 0o600, 'still 0600 after a rewrite');
});

test('secrets: a usage mistake exits 2 with the reason', async () => {
  /** @type {[string[], string][]} */
  const cases = [
    [['secrets'], 'secrets needs list or forget'],
    [['secrets', 'show', 'x'], 'secrets takes list or forget, got "show"'],
    [['secrets', 'list'], 'secrets list needs the extension\'s name'],
    [['secrets', 'forget', 'a', 'b'], 'secrets forget takes one extension (got "b" too)'],
    [['secrets', 'list', 'a', '--ext', '.'], 'secrets takes only --home and --json (got --ext)'],
    [['secrets', 'forget', 'a', '--json'], '--json is an option of secrets list'],
  ];
  for (const [args, message] of cases) {
    const r = await runCli(args);
    assert.equal(r.code, 2, args.join(' '));
    assert.ok(r.stderr.startsWith(`zot-host: ${message}\n`), r.stderr);
  }
});

test('a world-writable secrets folder, a symlinked folder or a symlinked file is refused, and the extension is told why', { skip: !POSIX && 'POSIX file modes and links' }, async (t) => {
  // World-writable folder.
  const open = tmpdir('zot-home-');
  const openDir = path.join(open, 'secrets');
  fs.mkdirSync(openDir);
  fs.chmodSync(openDir, 0o777);
  const r1 = await runUntilAnswered(t, open, { alpha: [set('s1', 'token', 'v'), get('s2', 'token'), list('s3')] });
  const why = `refusing the secret store folder ${openDir}: other users can read or write it (mode 0777); make it private with chmod 700 ${openDir}`;
  assert.deepEqual(r1.alpha.get('s1'), { type: 'secret_ack', id: 's1', error: `the host could not answer: ${why}` });
  assert.deepEqual(r1.alpha.get('s2'), { type: 'secret_value', id: 's2', found: false, error: `the host could not answer: ${why}` });
  assert.deepEqual(r1.alpha.get('s3'), { type: 'secret_keys', id: 's3', keys: null, error: `the host could not answer: ${why}` });
  assert.deepEqual(fs.readdirSync(openDir), [], 'nothing was written there');
  const cli = await runCli(['secrets', 'list', 'alpha'], { home: open });
  assert.deepEqual([cli.code, cli.stderr], [1, `zot-host secrets: ${why}\n`]);

  // A readable one (0755) is refused the same way.
  fs.chmodSync(openDir, 0o755);
  assert.match((await runCli(['secrets', 'forget', 'alpha'], { home: open })).stderr, /other users can read or write it \(mode 0755\)/);

  // The folder a symbolic link to a private folder elsewhere.
  const linked = tmpdir('zot-home-');
  const elsewhere = tmpdir('zot-elsewhere-');
  fs.chmodSync(elsewhere, 0o700);
  fs.symlinkSync(elsewhere, path.join(linked, 'secrets'));
  const r2 = await runUntilAnswered(t, linked, { alpha: [set('l1', 'token', 'v')] });
  const linkedError = r2.alpha.get('l1')?.error;
  assert.ok(linkedError, 'l1 was answered with an error');
  assert.match(linkedError, /^the host could not answer: refusing the secret store folder .*secrets: it is a symbolic link; /);
  assert.deepEqual(fs.readdirSync(elsewhere), []);

  // The file a symbolic link (to a private file of the same user): neither read nor replaced.
  const home = tmpdir('zot-home-');
  const dir = path.join(home, 'secrets');
  fs.mkdirSync(dir, { mode: 0o700 });
  fs.chmodSync(dir, 0o700);
  const target = path.join(tmpdir('zot-target-'), 'target.json');
  fs.writeFileSync(target, JSON.stringify({ version: 1, secrets: { 'ext:alpha': { token: 'planted' } } }), { mode: 0o600 });
  fs.symlinkSync(target, path.join(dir, 'secrets.json'));
  const before = fs.readFileSync(target, 'utf8');
  const r3 = await runUntilAnswered(t, home, { alpha: [get('f1', 'token'), set('f2', 'token', 'v')] });
  const fileWhy = `the host could not answer: refusing the secret store file ${path.join(dir, 'secrets.json')}: it is a symbolic link; remove the link`;
  assert.deepEqual(r3.alpha.get('f1'), { type: 'secret_value', id: 'f1', found: false, error: fileWhy });
  assert.deepEqual(r3.alpha.get('f2'), { type: 'secret_ack', id: 'f2', error: fileWhy });
  assert.equal(fs.readFileSync(target, 'utf8'), before, 'the link\'s target is untouched');
  assert.ok(fs.lstatSync(path.join(dir, 'secrets.json')).isSymbolicLink(), 'the link was not replaced');

  // A private folder holding a file others can read.
  fs.rmSync(path.join(dir, 'secrets.json'));
  fs.writeFileSync(path.join(dir, 'secrets.json'), '{"version":1,"secrets":{}}', { mode: 0o644 });
  fs.chmodSync(path.join(dir, 'secrets.json'), 0o644);
  const loose = await runCli(['secrets', 'list', 'alpha'], { home });
  assert.deepEqual([loose.code, loose.stderr], [1, `zot-host secrets: refusing the secret store file ${path.join(dir, 'secrets.json')}: other users can read or write it (mode 0644); make it private with chmod 600 ${path.join(dir, 'secrets.json')}\n`]);
});

test('two zot-host processes writing at once keep every key of both', async (t) => {
  const home = tmpdir('zot-home-');
  /** @param {string} prefix */
  const writes = (prefix) => Array.from({ length: 25 }, (_, i) => set(`${prefix}${i}`, `key${String(i).padStart(2, '0')}`, `${prefix}-value-${i}`));
  const [one, two] = await Promise.all([
    runUntilAnswered(t, home, { one: [...writes('p'), list('p-list')] }),
    runUntilAnswered(t, home, { two: [...writes('q'), list('q-list')] }),
  ]);
  /** @type {[Map<string, unknown>, string][]} */
  const byProcess = [[one.one, 'p'], [two.two, 'q']];
  for (const [answers, prefix] of byProcess) {
    for (let i = 0; i < 25; i++) assert.deepEqual(answers.get(`${prefix}${i}`), { type: 'secret_ack', id: `${prefix}${i}` });
  }
  const keys = Array.from({ length: 25 }, (_, i) => `key${String(i).padStart(2, '0')}`);
  const stored = /** @type {{ secrets: Record<string, Record<string, string>> }} */ (JSON.parse(fs.readFileSync(path.join(home, 'secrets', 'secrets.json'), 'utf8'))).secrets;
  assert.deepEqual(Object.keys(stored['ext:one']), keys);
  assert.deepEqual(Object.keys(stored['ext:two']), keys);
  assert.equal(stored['ext:one'].key24, 'p-value-24');
  assert.equal(stored['ext:two'].key00, 'q-value-0');
  assert.deepEqual(fs.readdirSync(path.join(home, 'secrets')), ['secrets.json'], 'no lock or temporary file is left');
});

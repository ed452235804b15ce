// zot-host init writes an extension that runs at once: doctor reports it
// ready with its command and tool, and both answer over real processes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { ensureGo, EnvError, describeFailure } from '../../scripts/vscode-test-env.mjs';
import { CLI, runCli, tmpdir } from '../helpers.mjs';

/** @type {(args: string[], options?: { cwd?: string, home?: string }) => ReturnType<typeof runCli>} */
const run = (args, { cwd, home } = {}) => runCli(args, { cwd, home });

/**
 * init, then doctor, the tool and the command against the new folder (named `name`).
 * @param {string} language
 * @param {(dir: string) => Promise<void>} [build]
 * @param {string} [name]
 * @param {string} [tool] the scaffolded tool's name: the extension's, every hyphen an underscore
 */
async function initAndRun(language, build, name = `my-${language}`, tool = `my_${language}_reverse`) {
  const root = tmpdir('zot-init-');
  const dir = path.join(root, name);
  const made = await run(['init', dir, '--language', language]);
  assert.equal(made.code, 0, made.stderr);
  assert.match(made.stdout, new RegExp(`wrote the ${language} extension "${name}"`));
  assert.match(made.stdout, /extension\.json/);
  assert.match(made.stdout, /zot-host doctor --no-discover --ext /, 'says what to run next');
  assert.ok(fs.existsSync(path.join(dir, 'extension.json')));
  if (build) await build(dir);
  const ext = ['--no-discover', '--ext', dir];
  const doctor = await run(['doctor', ...ext, '--json']);
  assert.equal(doctor.code, 0, doctor.stdout + doctor.stderr);
  const [report] = /** @type {{ extensions: import('../../out/types/host/index.js').ExtensionReport[] }} */ (JSON.parse(doctor.stdout)).extensions;
  assert.equal(report.name, name);
  assert.equal(report.state, 'ready', report.error ?? '');
  assert.deepEqual(report.commands.map((c) => c.name), [name]);
  assert.deepEqual(report.tools.map((t) => t.name), [tool]);
  assert.deepEqual(report.diagnostics, []);
  const called = await run(['tool', tool, '{"text":"stressed"}', ...ext, '--json']);
  assert.equal(called.code, 0, called.stderr);
  assert.deepEqual(/** @type {{ content: unknown }} */ (JSON.parse(called.stdout)).content, [{ type: 'text', text: 'desserts' }]);
  const command = await run(['command', name, 'world', ...ext, '--json']);
  assert.equal(command.code, 0, command.stderr);
  assert.deepEqual(JSON.parse(command.stdout), { action: 'display', display: 'Hello, world!' });
}

test('init --language node: ready at once, its tool and command answer; my-cool-ext\'s tool is my_cool_ext_reverse', () => initAndRun('node', undefined, 'my-cool-ext', 'my_cool_ext_reverse'));

test('init --language python: ready at once, its tool and command answer', () => initAndRun('python'));

test('init --language go: ready after go build, its tool and command answer', async (t) => {
  let go;
  try {
    go = await ensureGo({ log: (line) => process.stderr.write(`[go] ${line}\n`) });
  } catch (error) {
    if (!(error instanceof EnvError)) throw error;
    return t.skip(`Go cannot be installed here (${describeFailure(error)})`);
  }
  if (!go) return t.skip('golang-go was installed but no `go` command was found');
  await initAndRun('go', async (dir) => {
    const env = { ...process.env, CGO_ENABLED: '0', GOPROXY: 'off', GOWORK: 'off', GOTOOLCHAIN: 'local', GOFLAGS: '-mod=mod' };
    await promisify(execFile)(go, ['build'], { cwd: dir, env });
  });
});

test('init: usage errors exit 2 with a line that says what is wrong; a folder in use exits 1', async () => {
  const root = tmpdir('zot-init-');
  for (const [args, re] of /** @type {[string[], RegExp][]} */ ([
    [['init'], /init needs the folder/],
    [['init', path.join(root, 'a')], /init needs --language \(node, python, go\)/],
    [['init', path.join(root, 'a'), '--language', 'rust'], /--language takes node, python, go, got "rust"/],
    [['init', path.join(root, 'a'), 'b', '--language', 'go'], /init takes one folder/],
    [['init', path.join(root, 'Bad Name'), '--language', 'node'], /"bad name" is not a usable extension name.*pass --name/],
    [['init', path.join(root, 'a'), '--language', 'node', '--name', 'X!'], /"X!" is not a usable extension name/],
    [['init', path.join(root, 'a'), '--language', 'node', '--json'], /init takes only --language and --name \(got --json\)/],
    [['doctor', '--language', 'node'], /--language is an option of init/],
  ])) {
    const r = await run(args);
    assert.equal(r.code, 2, args.join(' '));
    assert.match(r.stderr, re, args.join(' '));
  }
  assert.ok(!fs.existsSync(path.join(root, 'a')), 'nothing written on a usage error');
  const dir = path.join(root, 'taken');
  fs.mkdirSync(dir);
  fs.writeFileSync(path.join(dir, 'notes.txt'), 'mine');
  const r = await run(['init', dir, '--language', 'node']);
  assert.equal(r.code, 1);
  assert.match(r.stderr, /zot-host init: .*taken is not empty: choose a new folder/);
  assert.deepEqual(fs.readdirSync(dir), ['notes.txt']);
  const named = await run(['init', path.join(root, 'Other Folder'), '--language', 'node', '--name', 'other']);
  assert.equal(named.code, 0, named.stderr);
  assert.match(named.stdout, /"other"/);
  // A folder named with capitals gives its name in lower case (zot's names are lower case), not a refusal.
  const upper = path.join(root, 'MyTool');
  const cased = await run(['init', upper, '--language', 'node']);
  assert.equal(cased.code, 0, cased.stderr);
  assert.match(cased.stdout, /wrote the node extension "mytool"/);
  assert.equal(/** @type {{ name: string }} */ (JSON.parse(fs.readFileSync(path.join(upper, 'extension.json'), 'utf8'))).name, 'mytool');
});

test('init: the commands it prints to run next work as printed in a shell, for a folder whose path holds a space and a quote', { skip: process.platform === 'win32' && 'a POSIX shell' }, async () => {
  const root = path.join(tmpdir('zot-init-'), "it's a folder");
  fs.mkdirSync(root);
  const dir = path.join(root, 'quoted-ext');
  const made = await run(['init', dir, '--language', 'node'], { cwd: path.dirname(root) });
  assert.equal(made.code, 0, made.stderr);
  const next = made.stdout.slice(made.stdout.indexOf('\nnext:')).split('\n').map((l) => l.trim()).filter((l) => l.startsWith('zot-host doctor') || l.startsWith('zot-host tool'));
  assert.equal(next.length, 2, made.stdout);
  for (const line of next) {
    // As a user types it, zot-host being this build; run from where init was run.
    const r = await promisify(execFile)('sh', ['-c', `zot_host() { "${process.execPath}" "${CLI}" "$@"; }; ${line.replace(/^zot-host /, 'zot_host ')}`], { cwd: path.dirname(root), env: { ...process.env, ZOT_HOME: tmpdir('zot-home-') } });
    assert.match(r.stdout, line.startsWith('zot-host doctor') ? /quoted-ext.*ready/ : /olleh/, `${line}\n${r.stdout}`);
  }
});

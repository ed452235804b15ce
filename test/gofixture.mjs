// The Go fixture extension (test/fixtures/go), built once per source version
// into the temp folder with Go from the system (installed like the other
// system packages where it can be). Tests that need it skip, with the reason,
// only where Go cannot be installed.
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { describeFailure, ensureGo, EnvError } from '../scripts/vscode-test-env.mjs';
import { RecordingUI, ROOT, startHost, tmpdir, waitFor } from './helpers.mjs';

const SOURCE = path.join(ROOT, 'test', 'fixtures', 'go');
/** @type {ReturnType<typeof build> | undefined} */
let built;

/**
 * Resolves to `{ bin }`, the fixture's executable, or `{ skip }`, why Go tests
 * cannot run here. A source that does not compile rejects: that is a failure.
 */
export function goFixture() {
  built ??= build();
  return built;
}

async function build() {
  let go;
  try {
    go = await ensureGo({ log: (line) => process.stderr.write(`[go fixture] ${line}\n`) });
  } catch (error) {
    if (error instanceof EnvError) return { skip: `Go tests skipped: Go cannot be installed here (${describeFailure(error)})` };
    throw error;
  }
  if (!go) return { skip: 'Go tests skipped: golang-go was installed but no `go` command was found' };
  const files = fs.readdirSync(SOURCE).filter((f) => f.endsWith('.go') || f === 'go.mod').sort();
  const hash = createHash('sha256');
  for (const f of files) hash.update(f).update('\0').update(fs.readFileSync(path.join(SOURCE, f))).update('\0');
  const dir = path.join(os.tmpdir(), `zot-go-fixture-${hash.digest('hex').slice(0, 16)}`);
  const bin = path.join(dir, 'gofix');
  if (fs.existsSync(bin)) return { bin };
  // Built beside the final name and renamed, so test processes building at once never see half a binary.
  fs.mkdirSync(dir, { recursive: true });
  const partial = path.join(dir, `gofix.${process.pid}.partial`);
  const env = { ...process.env, CGO_ENABLED: '0', GOFLAGS: '-mod=mod', GOPROXY: 'off', GOWORK: 'off', GOTOOLCHAIN: 'local' };
  try {
    await promisify(execFile)(go, ['build', '-o', partial, '.'], { cwd: SOURCE, env });
  } catch (error) {
    const failed = /** @type {Error & { stderr?: string }} */ (error);
    throw new Error(`building the Go fixture in ${SOURCE} failed:\n${failed.stderr || failed.message}`);
  }
  fs.renameSync(partial, bin);
  return { bin };
}

/**
 * Writes an extension folder whose program is the Go fixture, under that name.
 * @param {string} root
 * @param {string} bin
 * @param {string} [name]
 */
export function makeGoExt(root, bin, name = 'gofix') {
  const dir = path.join(root, name);
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'extension.json'), JSON.stringify({ name, version: '1.0.0', exec: bin, args: [name] }, null, 2));
  return dir;
}

/**
 * A host with a recording UI over the Go fixture: its list panel opened, the rune `key` pressed in it, and the render that answered.
 * @param {import('node:test').TestContext} t
 * @param {string} bin
 * @param {string} key
 */
export async function goPanelAfterKey(t, bin, key) {
  const ui = new RecordingUI();
  const host = await startHost(t, [makeGoExt(tmpdir(), bin)], { ui });
  await host.runCommand('go-panel', '');
  const panel = ui.of('openPanel')[0].args[0];
  ui.panel(panel).key('rune', key);
  await waitFor('render', () => ui.of('renderPanel').length === 1);
  return { host, render: ui.of('renderPanel')[0].args[1] };
}

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { makeExt, startHost, tmpdir, waitFor } from '../helpers.mjs';

test('name clashes go to the first extension in load order, whenever it registers; losers keep a diagnostic', async (t) => {
  const root = tmpdir();
  // "first" comes first in load order but registers its tool late.
  const first = makeExt(root, 'first', { commands: [{ name: 'Deploy', description: 'first deploy' }], registerLate: 'shared_tool', registerLateMs: 400 });
  const second = makeExt(root, 'second', { commands: [{ name: 'deploy', description: 'second deploy' }], tools: [{ name: 'shared_tool' }, { name: 'Shared_Tool' }] });
  const host = await startHost(t, [first, second]);
  assert.equal(host.findCommand('DEPLOY')?.extension, 'first');
  assert.equal(host.findTool('shared_tool')?.extension, 'second', 'until the higher-ranked one registers');
  let changed = 0;
  host.onDidChangeRegistry(() => changed++);
  await waitFor('takeover', () => host.findTool('shared_tool')?.extension === 'first');
  await waitFor('change event', () => changed > 0);
  assert.equal(host.findTool('Shared_Tool')?.extension, 'second', 'tool names are exact');
  const entries = host.tools().filter((x) => x.name === 'shared_tool');
  assert.deepEqual(entries.map((e) => [e.extension, e.active, e.shadowedBy]), [['first', true, undefined], ['second', false, 'first']]);
  const loser = host.get('second');
  assert.ok(loser, 'no extension "second"');
  const problems = loser.problems.map((p) => p.message);
  assert.ok(problems.includes('command "deploy" is shadowed by extension "first", which comes first in load order'));
  assert.ok(problems.includes('tool "shared_tool" is shadowed by extension "first", which comes first in load order'));
  const report = host.diagnostics().find((r) => r.name === 'second');
  assert.deepEqual(report?.commands, [{ name: 'deploy', description: 'second deploy', active: false, shadowed_by: 'first' }]);
});

test("when the winner goes away, its commands and tools leave the registries and the next claimant takes over", async (t) => {
  const root = tmpdir();
  const a = makeExt(root, 'a', { tools: [{ name: 't' }], commands: [{ name: 'c' }] });
  const b = makeExt(root, 'b', { tools: [{ name: 't' }], commands: [{ name: 'c' }] });
  const host = await startHost(t, [a, b]);
  assert.equal(host.findTool('t')?.extension, 'a');
  await host.stopExtension('a');
  assert.equal(host.findTool('t')?.extension, 'b');
  assert.equal(host.findCommand('c')?.extension, 'b');
  assert.equal(host.tools().length, 1);
});

test('a shadowed name is said once, not again at each later change of the registry', async (t) => {
  const root = tmpdir();
  const first = makeExt(root, 'first', { commands: [{ name: 'deploy' }] });
  const second = makeExt(root, 'second', { commands: [{ name: 'deploy' }] });
  const third = makeExt(root, 'third', { commands: [{ name: 'other' }] });
  const host = await startHost(t, [first, second, third]);
  const said = () => host.get('second')?.problems.filter((p) => /command "deploy" is shadowed/.test(p.message)).length;
  host.commands();
  assert.equal(said(), 1);
  // Later changes: another extension restarts (the registry is built again each time).
  for (let i = 0; i < 2; i++) {
    await host.restartExtension('third');
    await waitFor('third back', () => host.get('third')?.status.kind === 'running' && host.commands().some((c) => c.name === 'other'));
  }
  assert.equal(said(), 1, 'said once');
});

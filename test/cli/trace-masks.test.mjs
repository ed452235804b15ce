// The verbose trace masks a value by where it sits, whatever its length: a
// call's secret-named and `display.redact` arguments (in the tool_call frame
// and in every event line), a secret frame's value even when the frame is
// invalid, and settings declared secret in hello_ack and config_update.
// A secret value with regex characters, quotes and backslashes is found too.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { lib, makeExt, runCli, startHost, tmpdir, waitFor, sleep } from '../helpers.mjs';

/** @param {string} line */
const frameOf = (line) => /** @type {Record<string, any>} */ (JSON.parse(line.slice(line.indexOf('{'))));

test('--trace: display.redact keys and the usual secret names are masked in the tool_call frame and in every event line, however short', async () => {
  const root = tmpdir();
  const ext = makeExt(root, 'bank', { tools: [{ name: 'pay', display: { subject: 'pay {amount}', redact: ['pin', 'iban'] } }] });
  const watcher = makeExt(root, 'watcher', { caps: ['events'], subscribe: { events: ['tool_call'] } });
  const args = { amount: '12.50', pin: '4711', iban: 'CH9300762011623852957', api_key: 'k-91', password: 'hunter2', nested: { auth_token: 'tk-3' } };
  const r = await runCli(['tool', 'pay', JSON.stringify(args), '--no-discover', '--ext', ext, '--ext', watcher, '--trace']);
  assert.equal(r.code, 0, r.stderr);
  const lines = r.stderr.split('\n').filter((l) => /^\[(bank|watcher)\] [→←]/.test(l));
  const call = lines.find((l) => l.startsWith('[bank] → tool_call'));
  assert.ok(call, r.stderr);
  const R = lib.REDACTED;
  assert.deepEqual(frameOf(call).args, { amount: '12.50', pin: R, iban: R, api_key: R, password: R, nested: { auth_token: R } });
  const event = lines.find((l) => l.startsWith('[watcher] → event'));
  assert.ok(event, `the watcher's tool_call event line in:\n${r.stderr}`);
  assert.deepEqual(frameOf(event).tool_args, { amount: '12.50', pin: R, iban: R, api_key: R, password: R, nested: { auth_token: R } }, 'the other extension\'s event masks by the tool\'s own display.redact');
  for (const v of ['4711', 'CH9300762011623852957', 'k-91', 'hunter2', 'tk-3']) {
    assert.deepEqual(lines.filter((l) => l.includes(v) && !l.includes('tool_result')), [], `${v} is in no frame the host sends`);
  }
});

test('--trace: a secret holding regex characters, quotes and backslashes is masked as written and JSON-escaped', async () => {
  const secret = 'a"b\\c.*+?(x)[y]{z}|^$-9';
  const ext = makeExt(tmpdir(), 'odd', { tools: [{ name: 'echo' }], raw: [`${JSON.stringify({ type: 'notify', level: 'info', message: `said ${secret}` })}\n`] });
  const r = await runCli(['tool', 'echo', JSON.stringify({ note: secret }), '--no-discover', '--ext', ext, '--trace'], { env: { ODD_API_TOKEN: secret } });
  assert.equal(r.code, 0, r.stderr);
  // Trace lines only: the note itself is shown as the extension wrote it.
  const lines = r.stderr.split('\n').filter((l) => /^\[odd\] [→←]/.test(l));
  const call = lines.find((l) => l.startsWith('[odd] → tool_call'));
  const note = lines.find((l) => l.startsWith('[odd] ← notify'));
  assert.ok(call && note, r.stderr);
  assert.equal(frameOf(call).args.note, lib.REDACTED, call);
  assert.equal(frameOf(note).message, `said ${lib.REDACTED}`, note);
  assert.ok(lines.some((l) => l.startsWith('[odd] ← tool_result')), 'the echo, which quotes the arguments\' JSON in a string');
  assert.deepEqual(lines.filter((l) => l.includes('(x)[y]{z}')), [], 'no piece of it left, escaped once or twice');
});

test('trace: an invalid secret_set, parsed or not, shows no value; a secret setting is masked by its type in hello_ack and config_update, however short', async (t) => {
  const raw = [
    '{"type":"secret_set","key":"pin","value":"998877"}\n', // no id: invalid
    '{"type":"secret_set","id":"s2","key":"pin","value":"665544","password":"pw-31"\n', // not JSON
  ];
  const config = [{ key: 'pin', type: 'secret' }, { key: 'pass', type: 'string', secret: true }, { key: 'region', type: 'string' }];
  /** @type {Record<string, string>} */
  const secrets = { pin: '123456' };
  /** @type {import('../../out/types/host/index.js').SettingsSource} */
  const settings = { values: () => ({ pass: 'ignored', region: 'eu-1' }), secret: (_ext, key) => (key === 'pass' ? 'pw-77' : secrets[key]) };
  /** @type {string[]} */
  const trace = [];
  const dir = makeExt(tmpdir(), 'vault', { caps: ['events'], subscribe: { events: ['config_update'] }, raw }, { config });
  const host = await startHost(t, [dir], { settings, trace: { level: 'verbose', line: (_e, l) => trace.push(l) } });
  const ack = await waitFor('hello_ack', () => host.received('vault', 'hello_ack')[0]);
  assert.deepEqual(ack.config, { pass: 'pw-77', pin: '123456', region: 'eu-1' }, 'the extension gets its values');
  secrets.pin = '654321';
  host.settingsChanged(['vault']);
  await waitFor('config_update', () => host.received('vault', 'event').length);
  await waitFor('both invalid lines traced', () => trace.filter((l) => l.startsWith('← (invalid frame)')).length === 2);
  await sleep(50);
  const R = lib.REDACTED;
  const ackLine = trace.find((l) => l.startsWith('→ hello_ack'));
  assert.ok(ackLine);
  assert.deepEqual(frameOf(ackLine).config, { pass: R, pin: R, region: 'eu-1' });
  const update = trace.find((l) => l.startsWith('→ event'));
  assert.ok(update);
  assert.deepEqual(frameOf(update).config, { pass: R, pin: R, region: 'eu-1' });
  const invalid = trace.filter((l) => l.startsWith('← (invalid frame)'));
  assert.equal(frameOf(invalid[0]).value, R, invalid[0]);
  assert.ok(invalid[1].includes(`"value":"${R}"`) && invalid[1].includes(`"password":"${R}"`), invalid[1]);
  for (const v of ['998877', '665544', 'pw-31', '123456', '654321', 'pw-77']) assert.deepEqual(trace.filter((l) => l.includes(v)), [], `${v} is never traced`);
});

// Runs inside VS Code's extension host (see ../authoring.test.mjs): writing
// a zot extension in VS Code, from the scaffold to a running extension, the
// manifest's schema and problems in the editor (the walkthrough is driven
// through the real UI in ../authoring.test.mjs).
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const vscode = require('vscode');
const { test, runAll, waitFor } = require('../vscode/suite/runner.cjs');
const { activated, exec, snapshot, testApi, waitState } = require('../vscode/suite/helpers.cjs');

async function offered(name) {
  const snap = await snapshot();
  return {
    commands: snap.commands.filter((c) => c.extension === name).map((c) => c.name),
    tools: snap.tools.filter((t) => t.extension === name).map((t) => t.name),
  };
}

const workspaceDir = () => vscode.workspace.workspaceFolders[0].uri.fsPath;
const diagnostics = (uri) => vscode.languages.getDiagnostics(uri);

test('the extension activates', async () => {
  await activated();
});

test('New Extension… writes a project-local Node extension that starts once allowed, and opens its source', async () => {
  const result = await exec('zot.newExtension', { language: 'node', name: 'fresh-node', where: 'project' });
  const dir = path.join(workspaceDir(), '.zot', 'extensions', 'fresh-node');
  assert.equal(result.dir, dir);
  assert.deepEqual(result.files, ['README.md', 'extension.json', 'index.mjs']);
  await waitFor('its source in the editor', () => vscode.window.activeTextEditor?.document.uri.fsPath === path.join(dir, 'index.mjs'));
  // Project code: held until the user allows it.
  await waitState('fresh-node', 'held');
  await waitFor('the consent question', async () => (await testApi().pendingConsent()).includes('fresh-node'));
  assert.equal(await testApi().answerConsent('fresh-node', 'Allow'), true);
  await waitState('fresh-node', 'ready');
  assert.deepEqual(await offered('fresh-node'), { commands: ['fresh-node'], tools: ['fresh_node_reverse'] });
  const run = await exec('zot.runTool', 'fresh_node_reverse', { text: 'abc' });
  assert.equal(run.outcome, 'completed');
  assert.equal(run.text, 'cba');
});

test('zot.trace: each frame of a tool call in the extension\'s output channel, and nothing once off', async () => {
  const config = vscode.workspace.getConfiguration('zot');
  const channel = () => testApi().logs()['Zot: fresh-node'] ?? [];
  await config.update('trace', 'verbose', vscode.ConfigurationTarget.Global);
  try {
    await waitFor('the trace to be on', () => (testApi().logs()['Zot Extensions'] ?? []).some((l) => l.includes('protocol trace: verbose')));
    const run = await exec('zot.runTool', 'fresh_node_reverse', { text: 'traced' });
    assert.equal(run.text, 'decart');
    const call = await waitFor('the tool_call frame', () => channel().find((l) => /\[trace\] → tool_call #\S+ \d+ B \{/.test(l) && l.includes('"traced"')));
    const id = /#(\S+)/.exec(call)[1];
    await waitFor('its tool_result frame', () => channel().find((l) => l.includes(`[trace] ← tool_result #${id} `) && l.includes('decart')));
    await config.update('trace', 'messages', vscode.ConfigurationTarget.Global);
    await waitFor('messages level', () => (testApi().logs()['Zot Extensions'] ?? []).some((l) => l.includes('protocol trace: messages')));
    await exec('zot.runTool', 'fresh_node_reverse', { text: 'short' });
    await waitFor('a frame without its body', () => channel().find((l) => /\[trace\] ← tool_result #\S+ \d+ B$/.test(l)));
    assert.ok(!channel().some((l) => l.includes('trohs')), 'messages level shows no frame body');
  } finally {
    await config.update('trace', undefined, vscode.ConfigurationTarget.Global);
  }
  await waitFor('the trace to be off', () => (testApi().logs()['Zot Extensions'] ?? []).some((l) => l.includes('protocol trace: off')));
  const before = channel().filter((l) => l.includes('[trace]')).length;
  await exec('zot.runTool', 'fresh_node_reverse', { text: 'quiet' });
  assert.equal(channel().filter((l) => l.includes('[trace]')).length, before);
});

test('Watch Extension: a save restarts it; consent is asked again only when what runs changed', async () => {
  const dir = path.join(workspaceDir(), '.zot', 'extensions', 'fresh-node');
  const pid = async () => (await snapshot()).extensions.find((e) => e.name === 'fresh-node').pid;
  const first = await pid();
  assert.deepEqual(await exec('zot.watchExtension', 'fresh-node'), { name: 'fresh-node', watching: true });
  try {
    // The README is not part of what runs: restarted, not asked about.
    fs.appendFileSync(path.join(dir, 'README.md'), '\nedited\n');
    const second = await waitFor('a restart after the README changed', async () => {
      const p = await pid();
      return p && p !== first && (await snapshot()).extensions.find((e) => e.name === 'fresh-node').state === 'ready' && p;
    }, 30_000);
    assert.deepEqual(await testApi().pendingConsent(), []);
    // Its source is: held and asked again, then running the new code once allowed.
    fs.appendFileSync(path.join(dir, 'index.mjs'), '\n// edited while watched\n');
    await waitFor('the consent question for the changed code', async () => (await testApi().pendingConsent()).includes('fresh-node'), 30_000);
    assert.equal(await testApi().answerConsent('fresh-node', 'Allow'), true);
    await waitState('fresh-node', 'ready');
    assert.notEqual(await pid(), second);
  } finally {
    assert.deepEqual(await exec('zot.watchExtension', 'fresh-node'), { name: 'fresh-node', watching: false });
  }
});

test('Debug Extension: a breakpoint in a Node extension\'s tool handler stops when the tool is called; ending the session restarts it plainly', async () => {
  const file = path.join(workspaceDir(), '.zot', 'extensions', 'fresh-node', 'index.mjs');
  const line = fs.readFileSync(file, 'utf8').split('\n').findIndex((l) => l.includes('const reversed ='));
  assert.ok(line > 0, 'the tool handler line');
  const stops = [];
  const verified = [];
  const seen = [];
  const tracker = vscode.debug.registerDebugAdapterTrackerFactory('*', {
    createDebugAdapterTracker: (session) => ({
      onDidSendMessage: (m) => {
        seen.push(`${session.type}:${m.type}:${m.event ?? m.command ?? ''}`);
        if (m.type === 'event' && m.event === 'stopped') stops.push({ session, body: m.body });
        // The breakpoint is bound in the process: from the setBreakpoints reply, or a later breakpoint event.
        const bps = m.type === 'response' && m.command === 'setBreakpoints' ? m.body?.breakpoints ?? [] : m.type === 'event' && m.event === 'breakpoint' ? [m.body?.breakpoint] : [];
        for (const b of bps) if (b?.verified && b.line === line + 1) verified.push(session);
      },
    }),
  });
  const bp = new vscode.SourceBreakpoint(new vscode.Location(vscode.Uri.file(file), new vscode.Position(line, 0)));
  vscode.debug.addBreakpoints([bp]);
  const channel = () => testApi().logs()['Zot: fresh-node'] ?? [];
  try {
    const started = await exec('zot.debugExtension', 'fresh-node');
    assert.equal(started?.kind, 'node', 'the debugger started');
    assert.ok(started.port > 0);
    await waitState('fresh-node', 'ready');
    assert.ok(channel().some((l) => l.includes(`Debugger listening on ws://127.0.0.1:${started.port}/`)), 'the port came from its stderr');
    // Breakpoints reach the process once the debugger has attached to it.
    await waitFor('the breakpoint bound in the process', () => verified.length > 0 || undefined, 30_000).catch((e) => {
      throw new Error(`${e.message}\nDAP messages: ${seen.join(', ')}`);
    });
    let finished;
    const call = exec('zot.runTool', 'fresh_node_reverse', { text: 'bp' }).then((r) => (finished = r));
    const stop = await waitFor('a stop at the breakpoint', () => stops.find((s) => s.body?.reason === 'breakpoint'), 30_000).catch((e) => {
      throw new Error(`${e.message}; the call ${finished ? `finished: ${JSON.stringify(finished)}` : 'is still waiting'}; stops: ${JSON.stringify(stops.map((s) => s.body))}`);
    });
    const frames = await stop.session.customRequest('stackTrace', { threadId: stop.body.threadId, levels: 1 });
    assert.equal(frames.stackFrames[0].line, line + 1, 'stopped on the handler line');
    await stop.session.customRequest('continue', { threadId: stop.body.threadId });
    const result = await call;
    assert.equal(result.text, 'pb');
    const pid = async () => (await snapshot()).extensions.find((e) => e.name === 'fresh-node').pid;
    const debugged = await pid();
    const inspectorIn = (p) => fs.readFileSync(`/proc/${p}/environ`, 'utf8').split('\0').some((v) => v.startsWith('NODE_OPTIONS=') && v.includes('--inspect'));
    assert.equal(inspectorIn(debugged), true, 'the debugged process has the inspector');
    await vscode.debug.stopDebugging();
    await waitFor('the plain restart', () => channel().some((l) => l.includes('debug session ended: restarting without the debugger')), 30_000);
    const plain = await waitFor('ready again in a new process', async () => {
      const e = (await snapshot()).extensions.find((x) => x.name === 'fresh-node');
      return e.state === 'ready' && e.pid !== debugged && !vscode.debug.activeDebugSession && e.pid;
    }, 30_000);
    assert.equal(inspectorIn(plain), false, 'no inspector after the session ended');
    assert.equal((await exec('zot.runTool', 'fresh_node_reverse', { text: 'ok' })).text, 'ko');
  } finally {
    vscode.debug.removeBreakpoints([bp]);
    tracker.dispose();
  }
});

test('a Python extension from New Extension… runs too', async () => {
  await exec('zot.newExtension', { language: 'python', name: 'fresh-py', where: 'project' });
  await waitFor('the consent question', async () => (await testApi().pendingConsent()).includes('fresh-py'));
  assert.equal(await testApi().answerConsent('fresh-py', 'Allow'), true);
  await waitState('fresh-py', 'ready');
  assert.deepEqual(await offered('fresh-py'), { commands: ['fresh-py'], tools: ['fresh_py_reverse'] });
});

test('New Extension… refuses a bad name and an existing folder, saying why', async () => {
  assert.equal(await exec('zot.newExtension', { language: 'node', name: 'Bad Name', where: 'project' }), undefined);
  assert.equal(await exec('zot.newExtension', { language: 'node', name: 'fresh-node', where: 'project' }), undefined);
  // The existing extension is untouched.
  assert.match(fs.readFileSync(path.join(workspaceDir(), '.zot', 'extensions', 'fresh-node', 'index.mjs'), 'utf8'), /fresh-node/);
});

test('extension.json: the schema completes its fields and flags a wrong type', async () => {
  const dir = path.join(workspaceDir(), '.zot', 'extensions', 'schema-check');
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, 'extension.json');
  fs.writeFileSync(file, '{\n  "name": "schema-check",\n  "enabled": "yes",\n  \n}\n');
  const doc = await vscode.workspace.openTextDocument(file);
  await vscode.window.showTextDocument(doc);
  const wrongType = await waitFor('a schema problem for "enabled"', () => diagnostics(doc.uri).find((d) => /boolean/i.test(d.message)), 30_000);
  assert.equal(doc.getText(wrongType.range), '"yes"');
  const completions = await waitFor('completions from the schema', async () => {
    const list = await exec('vscode.executeCompletionItemProvider', doc.uri, new vscode.Position(3, 2));
    const labels = list.items.map((i) => (typeof i.label === 'string' ? i.label : i.label.label).replace(/"/g, ''));
    return ['exec', 'args', 'version', 'description', 'skills'].every((f) => labels.includes(f)) && labels;
  }, 30_000);
  assert.ok(completions.includes('language'));
});

test('extension.json: an exec that cannot run is a problem on its value', async () => {
  const file = path.join(workspaceDir(), '.zot', 'extensions', 'schema-check', 'extension.json');
  const doc = await vscode.workspace.openTextDocument(file);
  await vscode.window.showTextDocument(doc);
  // Typed in the editor (not written behind its back), as an author would.
  const whole = new vscode.WorkspaceEdit();
  whole.replace(doc.uri, new vscode.Range(0, 0, doc.lineCount, 0), '{\n  "name": "schema-check",\n  "exec": "./missing-binary"\n}\n');
  assert.ok(await vscode.workspace.applyEdit(whole));
  const problem = await waitFor('a zot problem for exec', () => diagnostics(doc.uri).find((d) => d.source === 'zot'), 30_000);
  assert.match(problem.message, /missing-binary/);
  assert.equal(doc.getText(problem.range), '"./missing-binary"');
  // Fixed in the editor: the problem goes.
  const edit = new vscode.WorkspaceEdit();
  edit.replace(doc.uri, problem.range, '"node"');
  await vscode.workspace.applyEdit(edit);
  await waitFor('the problem to go', () => !diagnostics(doc.uri).some((d) => d.source === 'zot'), 10_000);
  await exec('workbench.action.revertAndCloseActiveEditor');
});

exports.run = runAll;

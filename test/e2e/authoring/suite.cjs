// Runs inside VS Code's extension host (see ../authoring.test.mjs): writing
// a zot extension in VS Code, from the scaffold to a running extension, the
// manifest's schema and problems in the editor (the walkthrough is driven
// through the real UI in ../authoring.test.mjs, in this window, before these).
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { spawnSync } = require('node:child_process');
const vscode = require('vscode');
const { test, runAll, uiPartEnded, waitFor } = require('../vscode/suite/runner.cjs');
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

// The window is the walkthrough's first (../authoring.test.mjs): it installs the samples, then the suite runs.
uiPartEnded('the walkthrough checks through the real UI ended', 280_000);

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
    // The MCP server's bearer token is never written, even when an extension is handed it.
    const [def] = await testApi().mcpDefinitions();
    const token = def.headers.Authorization.replace(/^Bearer /, '');
    await exec('zot.runTool', 'fresh_node_reverse', { text: token });
    await waitFor('the call with the token', () => channel().find((l) => /\[trace\] → tool_call .*«redacted»/.test(l)));
    assert.ok(!channel().some((l) => l.includes(token)), 'the token is not in the channel');
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

test('Watch Extension: a save restarts it, through consent (every file of a project extension is what runs)', async () => {
  const dir = path.join(workspaceDir(), '.zot', 'extensions', 'fresh-node');
  const pid = async () => (await snapshot()).extensions.find((e) => e.name === 'fresh-node').pid;
  const first = await pid();
  assert.deepEqual(await exec('zot.watchExtension', 'fresh-node'), { name: 'fresh-node', watching: true });
  try {
    // Its source changed: held and asked again, then running the new code once allowed.
    fs.appendFileSync(path.join(dir, 'index.mjs'), '\n// edited while watched\n');
    await waitFor('the consent question for the changed code', async () => (await testApi().pendingConsent()).includes('fresh-node'), 30_000);
    assert.equal(await testApi().answerConsent('fresh-node', 'Allow'), true);
    await waitState('fresh-node', 'ready');
    const second = await pid();
    assert.ok(second && second !== first, 'a new process runs the new code');
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
    assert.equal(finished, undefined, 'the call waits while the extension is stopped');
    // The tool timeout still applies: a second call, under a 1 s timeout, times out meanwhile.
    const config = vscode.workspace.getConfiguration('zot');
    await config.update('toolTimeoutSeconds', 1, vscode.ConfigurationTarget.Global);
    try {
      await waitFor('the 1 s timeout', async () => (await snapshot()).timing.toolTimeoutMs === 1000);
      const late = await exec('zot.runTool', 'fresh_node_reverse', { text: 'late' });
      assert.equal(late.outcome, 'timed_out');
    } finally {
      await config.update('toolTimeoutSeconds', undefined, vscode.ConfigurationTarget.Global);
    }
    assert.equal(finished, undefined, 'the first call still waits');
    vscode.debug.removeBreakpoints([bp]);
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
      // (js-debug may keep its parent session a while after the child ended: the process is what counts.)
      return e.state === 'ready' && e.pid !== debugged && e.pid;
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

test('Debug Extension on a Python extension says what is missing, and how to install it', async () => {
  const hasDebugpy = spawnSync('python3', ['-c', 'import debugpy']).status === 0;
  const pid = (await snapshot()).extensions.find((e) => e.name === 'fresh-py').pid;
  assert.equal(await exec('zot.debugExtension', 'fresh-py'), undefined);
  const line = await waitFor('the reason in its log', () => (testApi().logs()['Zot: fresh-py'] ?? []).find((l) => l.includes('Debug fresh-py:')));
  // code-server has no Python Debugger extension; whether python3 has debugpy depends on the machine.
  if (hasDebugpy) assert.match(line, /needs the Python Debugger extension \(ms-python\.debugpy\) in VS Code: install it/);
  else assert.match(line, /debugpy is not installed for python3 .*install it with `python3 -m pip install debugpy`/);
  const after = await waitState('fresh-py', 'ready');
  assert.equal(after.pid, pid, 'left running as it was');
});

test('New Extension… into the zot home: runs without asking', async () => {
  const result = await exec('zot.newExtension', { language: 'node', name: 'fresh-home', where: 'global' });
  assert.equal(result.dir, path.join(process.env.ZOT_HOME, 'extensions', 'fresh-home'));
  await waitState('fresh-home', 'ready');
  assert.ok(!(await testApi().pendingConsent()).includes('fresh-home'));
  assert.equal((await exec('zot.runTool', 'fresh_home_reverse', { text: 'ab' })).text, 'ba');
});

test('zot.watch: a change in a folder of zot.extensionPaths restarts its extension', async () => {
  const config = vscode.workspace.getConfiguration('zot');
  const dir = path.join(path.dirname(process.env.ZOT_HOME), 'paths', 'watched-path');
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'extension.json'), JSON.stringify({ name: 'watched-path', exec: 'node', args: ['index.mjs'] }));
  fs.writeFileSync(path.join(dir, 'index.mjs'), [
    "const send = (f) => process.stdout.write(JSON.stringify(f) + '\\n');",
    "send({ type: 'hello', name: 'watched-path', version: '1.0.0', capabilities: [] });",
    "send({ type: 'ready' });",
    "process.stdin.on('data', (d) => { if (String(d).includes('\"shutdown\"')) { send({ type: 'shutdown_ack' }); process.exit(0); } });",
    '',
  ].join('\n'));
  const pid = async () => (await snapshot()).extensions.find((e) => e.name === 'watched-path')?.pid;
  await config.update('extensionPaths', [dir], vscode.ConfigurationTarget.Global);
  try {
    await waitState('watched-path', ['ready', 'auto_ready']);
    const first = await pid();
    await config.update('watch', true, vscode.ConfigurationTarget.Global);
    // The setting reaches the watcher through a configuration event: edit until a restart shows.
    await waitFor('a restart after an edit', async () => {
      fs.appendFileSync(path.join(dir, 'index.mjs'), '// edited\n');
      await new Promise((r) => setTimeout(r, 1500));
      const now = await pid();
      return now && now !== first;
    }, 30_000);
    await waitState('watched-path', ['ready', 'auto_ready']);
  } finally {
    await config.update('watch', undefined, vscode.ConfigurationTarget.Global);
    await config.update('extensionPaths', undefined, vscode.ConfigurationTarget.Global);
  }
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

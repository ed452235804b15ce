// The extension in a trusted workspace: activation, the view, every command
// action, panels, notes, logs, crash and restart, consent, diagnostics,
// installs and settings.
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const vscode = require('vscode');
const { test, waitFor } = require('./runner.cjs');
const { waitEvents, exec, testApi, snapshot, trace, logs, states, extension, waitState, treeItem, activated, assertInstalledAndOpened, events } = require('./helpers.cjs');

const workspaceDir = () => vscode.workspace.workspaceFolders[0].uri.fsPath;
const run = (name, args = '') => exec('zot.runCommand', name, args);
const channel = async (name) => (await logs())[name] ?? [];

test('activates at startup, installed from its VSIX, in the folder opened, and returns at once', async () => {
  assertInstalledAndOpened(await activated());
  const file = process.env.ZOT_ACTIVATE_MS_FILE;
  const { activate_ms } = JSON.parse(await waitFor('the activate_ms file', () => fs.existsSync(file) && fs.readFileSync(file, 'utf8')));
  console.log(`ZOTTEST activate_ms=${activate_ms}`);
  assert.ok(typeof activate_ms === 'number' && activate_ms < 500, `activate() took ${activate_ms} ms`);
  assert.equal(vscode.workspace.isTrusted, true);
});

test('global extensions start; workspace ones wait for permission', async () => {
  await waitState('actions', 'ready');
  await waitState('crashy', 'ready');
  const local = await waitState('local', 'held');
  assert.match(local.error, /waiting for your permission/);
  assert.equal(local.pid, null);
  const ws = await waitState('wsext', 'held');
  assert.equal(ws.source, 'explicit');
  const asked = await waitFor('both questions', async () => {
    const q = await testApi().pendingConsent();
    return q.includes('local') && q.includes('wsext') && q;
  });
  assert.deepEqual([...asked].sort(), ['local', 'wsext']);
  const messages = await events('consent-asked');
  const localAsk = messages.find((m) => m.extension === 'local');
  assert.match(localAsk.message, /wants to run the zot extension "local": “\.\/run\.sh --zot-e2e-run=[^”]*” in \.zot\/extensions\/local/);
});

test('the view shows state, icon, tooltip, actions and children', async () => {
  const actions = await waitFor('the actions item with its commands', async () => {
    const item = await treeItem('actions');
    return item?.children.some((c) => c.label === '/say-prompt') && item;
  });
  assert.equal(actions.icon, 'pass');
  assert.equal(actions.description, 'ready');
  assert.match(actions.contextValue, /;stop;/);
  assert.match(actions.contextValue, /;restart;/);
  assert.match(actions.contextValue, /;log;/);
  assert.match(actions.contextValue, /;folder;/, 'Reveal Extension Folder is offered');
  assert.doesNotMatch(actions.contextValue, /;allow;|;start;/);
  // The hover: version, folder, capabilities, log.
  assert.match(actions.tooltip, /1\.2\.3/);
  assert.ok(actions.tooltip.includes(`Folder: \`${path.join(process.env.ZOT_HOME, 'extensions', 'actions')}\``), actions.tooltip);
  assert.match(actions.tooltip, /Capabilities: `commands`, `tools`, `panels`, `tool_cancel`/);
  assert.match(actions.tooltip, /ext-actions\.log/);
  const labels = actions.children.map((c) => c.label);
  for (const c of ['/say-prompt', '/say-insert', '/say-display', '/say-long', '/say-panel', '/say-error', '/say-noop']) assert.ok(labels.includes(c), `${c} listed: ${labels}`);
  const cmd = actions.children.find((c) => c.label === '/say-insert');
  assert.equal(cmd.command, 'zot.runCommand');
  assert.equal(cmd.contextValue, 'zotCommand');
  const tool = actions.children.find((c) => c.label === 'pick_one');
  assert.equal(tool.icon, 'comment-discussion');
  assert.match(tool.description, /\(interactive\)/);
  assert.equal(actions.children.find((c) => c.label === 'echo').icon, 'tools');

  const local = await treeItem('local');
  assert.equal(local.icon, 'shield');
  assert.equal(local.description, 'held · workspace');
  assert.match(local.contextValue, /;allow;/);
  assert.doesNotMatch(local.contextValue, /;stop;/);
  assert.match(local.children[0].label, /waiting for your permission/);
  assert.equal((await treeItem('wsext')).description, 'held · path');

  // Both follow the host's events, debounced.
  const snap = await waitFor('the status bar summary', async () => {
    const s = await snapshot();
    return s.statusBar === '$(plug) Zot 2 $(shield) 2' && s;
  });
  assert.equal(snap.viewBadge?.value, 2, JSON.stringify(snap.viewBadge));
  assert.equal(snap.viewBadge?.tooltip, '2 waiting for your permission');
});

test('the status bar item opens the Zot view', async () => {
  await exec('workbench.view.explorer');
  await waitFor('the Zot view hidden', async () => (await snapshot()).viewVisible === false);
  const { statusBarCommand } = await snapshot();
  assert.equal(statusBarCommand, 'zotExtensions.focus');
  await exec(statusBarCommand);
  await waitFor('the Zot view shown', async () => (await snapshot()).viewVisible === true);
  await exec('workbench.view.explorer');
});

test('insert: at the cursor of the active editor', async () => {
  const doc = await vscode.workspace.openTextDocument({ content: 'AB' });
  const editor = await vscode.window.showTextDocument(doc);
  editor.selection = new vscode.Selection(0, 1, 0, 1);
  const result = await run('say-insert', 'xyz');
  assert.equal(result.outcome, 'completed');
  assert.equal(result.action, 'insert');
  assert.equal(doc.getText(), 'Ainserted(xyz)B');
  const [e] = await events('insert');
  assert.equal(e.where, 'editor');
});

test('insert: without an editor, into a new untitled document', async () => {
  await exec('workbench.action.closeAllEditors');
  await waitFor('no active editor', () => !vscode.window.activeTextEditor);
  await trace(true);
  await run('say-insert', 'new');
  const editor = await waitFor('an editor', () => vscode.window.activeTextEditor);
  assert.equal(editor.document.isUntitled, true);
  assert.equal(editor.document.getText(), 'inserted(new)');
  assert.equal((await events('insert'))[0].where, 'new-document');
});

test('display: a short text as a notification', async () => {
  await trace(true);
  await run('say-display', 'hi there');
  const [e] = await events('display');
  assert.equal(e.shownAs, 'notification');
  assert.equal(e.text, 'short: hi there');
});

test('display: a long text as a read-only markdown document', async () => {
  await trace(true);
  await run('say-long', 'abc');
  const editor = await waitFor('the display document', () => vscode.window.activeTextEditor?.document.uri.scheme === 'zot-display' && vscode.window.activeTextEditor);
  assert.equal(editor.document.languageId, 'markdown');
  assert.match(editor.document.getText(), /^# Long report\n\n- line 1 abc/);
  assert.match(editor.document.uri.path, /^\/actions\/actions output \d+\.md$/);
  assert.equal(editor.document.isUntitled, false, 'a provider document, not a file to save');
  assert.equal((await events('display'))[0].shownAs, 'document');
});

test('prompt: opens chat with @zot and the prompt', async () => {
  await trace(true);
  const result = await run('say-prompt', 'this code');
  assert.equal(result.action, 'prompt');
  const [e] = await waitEvents('chat-open');
  assert.equal(e.query, '@zot explain this code');
  console.log(`ZOTTEST chat open: ok=${e.ok}${e.error ? ` error=${e.error}` : ''}`);
});

test('error: shown as an error message', async () => {
  await trace(true);
  const result = await run('say-error');
  assert.equal(result.error, 'it broke on purpose');
  const [m] = await events('message', (e) => e.level === 'error');
  assert.equal(m.text, '/say-error: it broke on purpose');
  assert.equal(m.extension, 'actions');
});

test('noop: nothing is shown', async () => {
  await trace(true);
  const result = await run('say-noop');
  assert.equal(result.action, 'noop');
  const shown = (await trace()).filter((e) => e.kind !== 'command-run');
  assert.deepEqual(shown, []);
});

test('open_panel: a QuickPick whose keys reach the extension', async () => {
  await trace(true);
  await run('say-panel');
  const [p] = await waitFor('the panel', async () => {
    const panels = await testApi().panels();
    return panels.length === 1 && panels[0].visible && panels;
  });
  assert.equal(p.title, 'Fixture picker');
  // zot.panels.style is quickPick in this suite: a command's panel, a webview by default, is a Quick Pick.
  assert.equal(vscode.window.tabGroups.all.flatMap((g) => g.tabs).filter((t) => t.input instanceof vscode.TabInputWebview).length, 0, 'no webview');
  assert.deepEqual(p.lines, ['› one', '  two', '  three']);
  assert.equal(p.footer, '↑/↓ move · enter pick · x mark · esc close');
  await waitFor('the panel size', async () => (await channel('Zot: actions')).some((l) => l.includes('panel size 80x20')));

  // The workbench's own Quick Input navigation, as the arrow key does it.
  await exec('quickInput.next').catch(() => exec('workbench.action.quickOpenSelectNext'));
  await waitFor('"down" to reach the extension', async () => (await channel('Zot: actions')).some((l) => l.includes('panel key down')));
  const rendered = await waitFor('the re-render', async () => {
    const [q] = await testApi().panels();
    return q?.lines[1] === '› two' && q;
  });
  assert.equal(rendered.active, 1);
  // The render is in the UI trace with the lines it showed (the trace builds its events only for a listener).
  const renders = await events('panel-render', (e) => e.panel === p.id);
  assert.deepEqual(renders.at(-1).lines, ['  one', '› two', '  three']);

  await exec('quickInput.accept').catch(() => exec('workbench.action.acceptSelectedQuickOpenItem'));
  await waitFor('the panel to close', async () => (await testApi().panels()).length === 0);
  const [note] = await waitEvents('notify', (e) => e.message === 'picked two');
  assert.equal(note.shownAs, 'status');
  assert.ok((await events('panel-close')).some((e) => e.by === 'extension'));

  // Escape: the user closes it; the extension is told.
  await run('say-panel');
  await waitFor('the panel again', async () => (await testApi().panels()).length === 1);
  await exec('workbench.action.closeQuickOpen');
  await waitFor('panel_close to reach the extension', async () => (await channel('Zot: actions')).some((l) => l.includes('panel closed by host')));
  assert.ok((await events('panel-close')).some((e) => e.by === 'user'));
  assert.deepEqual(await testApi().panels(), []);
});

test('notes: info in the status bar, cleared by clear_notes', async () => {
  await trace(true);
  await run('note', 'info indexing done');
  const [n] = await waitEvents('notify');
  assert.equal(n.shownAs, 'status');
  assert.equal(n.message, 'indexing done');
  await run('clear');
  const [c] = await waitEvents('clear-notes');
  assert.ok(c.cleared >= 1, `cleared ${c.cleared}`);
});

test('notes: warnings are rate-limited and de-duplicated, the rest logged', async () => {
  await trace(true);
  await run('notify-burst');
  const all = await waitFor('six notes handled', async () => {
    const t = await trace();
    const n = t.filter((e) => e.kind === 'notify' || e.kind === 'notify-suppressed');
    return n.length === 6 && t;
  });
  assert.ok(all.filter((e) => e.kind === 'notify').every((e) => e.shownAs === 'notification'), 'warnings are notifications');
  const shown = all.filter((e) => e.kind === 'notify').map((e) => e.message);
  const held = all.filter((e) => e.kind === 'notify-suppressed');
  assert.deepEqual(shown, ['burst 1', 'burst 2', 'burst 3']);
  assert.deepEqual(held.map((e) => [e.message, e.why]), [['burst 4', 'rate'], ['burst 5', 'rate'], ['burst 1', 'duplicate']]);
  const lines = await channel('Zot: actions');
  assert.ok(lines.some((l) => l.includes('not shown') && l.includes('burst 5')), 'suppressed notes are logged');
});

test('submit_slash runs the command; submit opens chat', async () => {
  await trace(true);
  await run('say-slash');
  const [d] = await waitEvents('display', (e) => e.text === 'short: via slash');
  assert.equal(d.shownAs, 'notification');
  await run('say-submit');
  const [c] = await waitEvents('chat-open');
  assert.equal(c.query, '@zot hello from submit');
});

test('logs: one channel per extension, stderr and host lines', async () => {
  const all = await logs();
  const lines = all['Zot: actions'];
  assert.ok(lines.some((l) => /^info: \[stderr\] actions: started pid \d+/.test(l)), lines.slice(0, 10).join('\n'));
  assert.ok(lines.some((l) => l.startsWith('info: start actions 1.2.3')), 'host start line');
  assert.ok(lines.some((l) => l === 'info: state: ready'));
  assert.ok(all['Zot Extensions'].some((l) => /activated in [\d.]+ ms/.test(l)));
  assert.ok(all['Zot: local'].some((l) => l.includes('state: held')));
});

test('a crashing extension restarts and is ready again', async () => {
  await trace(true);
  const before = await waitState('crashy', 'ready');
  const seenBefore = (await states('crashy')).length;
  const result = await run('crash');
  assert.equal(result.outcome, 'disconnected');
  const history = await waitFor('restarting, then ready', async () => {
    const since = (await states('crashy')).slice(seenBefore);
    const i = since.findIndex((s) => s.state === 'restarting');
    return i >= 0 && since.slice(i).some((s) => s.state === 'ready') && since;
  }, 15_000);
  const restarting = history.find((s) => s.state === 'restarting');
  assert.match(restarting.error, /exited with code 1; restarting in/);
  const after = await waitState('crashy', 'ready');
  assert.notEqual(after.pid, before.pid);
  const [m] = await events('message', (e) => e.level === 'error');
  assert.match(m.text, /^\/crash: extension "crashy" (exited with code 1|closed its connection)/);
  assert.ok((await channel('Zot: crashy')).some((l) => l.includes('[stderr] crashy: crashing on purpose')));
  assert.equal((await treeItem('crashy')).icon, 'pass');
});

test('stop, start and restart', async () => {
  assert.equal(await exec('zot.stopExtension', 'actions'), 'stopped');
  const stopped = await treeItem('actions');
  assert.equal(stopped.icon, 'debug-stop');
  assert.match(stopped.contextValue, /;start;/);
  assert.equal(stopped.children.length, 0);
  assert.ok(['ready', 'auto_ready'].includes(await exec('zot.startExtension', 'actions')));
  const pid = (await extension('actions')).pid;
  assert.ok(['ready', 'auto_ready'].includes(await exec('zot.restartExtension', 'actions')));
  assert.notEqual((await extension('actions')).pid, pid);
});

test('consent: Allow starts a held workspace extension', async () => {
  assert.equal(await exec('zot.allowExtension', 'local'), true);
  await waitState('local', 'ready');
  await trace(true);
  await run('local-hello');
  const [d] = await events('display');
  assert.equal(d.text, 'hello from the workspace');
  assert.equal((await treeItem('local')).icon, 'pass');
});

test('consent: remembered across a reload', async () => {
  await trace(true);
  await exec('zot.reload');
  await waitState('local', 'ready');
  assert.deepEqual(await events('consent-asked', (e) => e.extension === 'local'), []);
});

test('consent: a changed executable asks again', async () => {
  const runSh = path.join(workspaceDir(), '.zot', 'extensions', 'local', 'run.sh');
  fs.appendFileSync(runSh, '# changed\n');
  await trace(true);
  await exec('zot.reload');
  const local = await waitState('local', 'held');
  assert.match(local.error, /changed since you allowed it/);
  await waitEvents('consent-asked', (e) => e.extension === 'local');
  assert.ok((await testApi().pendingConsent()).includes('local'));
});

test("consent: Don't Allow keeps it held without asking again", async () => {
  assert.equal(await testApi().answerConsent('local', "Don't Allow"), true);
  await waitFor('the refusal', async () => /Don't Allow/.test((await extension('local')).error ?? ''));
  await trace(true);
  await exec('zot.reload');
  const local = await waitState('local', 'held');
  assert.match(local.error, /not allowed in this workspace/);
  assert.deepEqual(await events('consent-asked', (e) => e.extension === 'local'), []);
  // Still offered in the view, and allowing it from there works.
  assert.match((await treeItem('local')).contextValue, /;allow;/);
  assert.equal(await exec('zot.allowExtension', 'local'), true);
  await waitState('local', 'ready');
});

test('consent: the notification answer Allow starts it', async () => {
  await waitState('wsext', 'held');
  assert.ok((await testApi().pendingConsent()).includes('wsext'));
  assert.equal(await testApi().answerConsent('wsext', 'Allow'), true);
  await waitState('wsext', 'ready');
  await waitFor('the badge to go', async () => (await snapshot()).viewBadge === null);
  await waitFor('the status bar', async () => (await snapshot()).statusBar === '$(plug) Zot 4');
});

test('diagnostics: a readable markdown report', async () => {
  const uri = await exec('zot.showDiagnostics');
  const doc = await vscode.workspace.openTextDocument(vscode.Uri.parse(uri));
  const text = doc.getText();
  assert.match(text, /^# Zot extensions: diagnostics/);
  assert.match(text, /\| actions \| ready \| global \| 13 \| 2 \|/);
  assert.match(text, /## actions 1\.2\.3/);
  assert.match(text, /\| `\/say-panel` \| open a panel \| active \|/);
  assert.match(text, /`pick_one` \(interactive\)/);
  assert.match(text, /## local 0\.1\.0/);
});

test('install from folder: validates, copies, reloads, asks before replacing', async () => {
  const fixtures = process.env.ZOT_E2E_FIXTURES;
  const bad = await exec('zot.installFromFolder', path.join(fixtures, 'installable', 'broken'));
  assert.equal(bad.installed, false);
  assert.match(bad.reason, /"name" is required/);
  const good = await exec('zot.installFromFolder', path.join(fixtures, 'installable', 'newext'));
  assert.equal(good.installed, true);
  assert.equal(good.dir, path.join(process.env.ZOT_HOME, 'extensions', 'newext'));
  await waitState('newext', 'ready');
  const again = await exec('zot.installFromFolder', path.join(fixtures, 'installable', 'newext'), { overwrite: false });
  assert.equal(again.installed, false);
  assert.match(again.reason, /already installed/);
  const replaced = await exec('zot.installFromFolder', path.join(fixtures, 'installable', 'newext'), { overwrite: true });
  assert.equal(replaced.replaced, true);
  await waitState('newext', 'ready');
  // Staging folders never stay behind (and would be hidden from discovery anyway).
  assert.deepEqual(fs.readdirSync(path.join(process.env.ZOT_HOME, 'extensions')).filter((n) => n.startsWith('.')), []);
});

test('install samples: todo and ask-user, working', async () => {
  // Whatever samples the VSIX ships; todo and ask-user at least.
  const shipped = fs.readdirSync(path.join(vscode.extensions.getExtension('zot-host.zot-extensions').extensionPath, 'samples')).sort();
  assert.ok(shipped.includes('todo') && shipped.includes('ask-user'), shipped.join(', '));
  const result = await exec('zot.installSamples');
  assert.deepEqual(result.installed, shipped);
  await waitState('todo', ['ready', 'auto_ready']);
  await waitState('ask-user', ['ready', 'auto_ready']);
  await trace(true);
  await run('todo-add', 'buy milk');
  const [n] = await waitEvents('notify', (e) => e.extension === 'todo');
  assert.equal(n.level, 'success');
  assert.equal(n.shownAs, 'status');
  await run('todo');
  const [p] = await waitFor('the todo panel', async () => {
    const panels = await testApi().panels();
    return panels.length === 1 && panels;
  });
  assert.match(p.title, /Todos/);
  assert.ok(p.lines.some((l) => l.includes('buy milk')), p.lines.join('\n'));
  await exec('workbench.action.closeQuickOpen');
  await waitFor('the panel to close', async () => (await testApi().panels()).length === 0);
  const second = await exec('zot.installSamples');
  assert.deepEqual(second.installed, []);
  assert.deepEqual(second.skipped, shipped);
});

test('open extensions folder: project in the Explorer, global via a notification', async () => {
  const project = await exec('zot.openExtensionsFolder', 'project');
  assert.equal(project.dir, path.join(workspaceDir(), '.zot', 'extensions'));
  assert.equal(project.how, 'explorer');
  const global = await exec('zot.openExtensionsFolder', 'global');
  assert.equal(global.dir, path.join(process.env.ZOT_HOME, 'extensions'));
  assert.equal(global.how, vscode.env.remoteName ? 'message' : 'os');
});

test('settings: changing zot.extensionPaths restarts the host', async () => {
  const config = vscode.workspace.getConfiguration('zot');
  const pid = (await extension('actions')).pid;
  await config.update('extensionPaths', [], vscode.ConfigurationTarget.Workspace);
  await waitFor('wsext to disappear', async () => !(await extension('wsext')));
  const fresh = await waitState('actions', 'ready');
  assert.notEqual(fresh.pid, pid, 'a new host started the extensions again');
  await config.update('extensionPaths', ['tools/wsext'], vscode.ConfigurationTarget.Workspace);
  // Allowed before: it starts without asking.
  await waitState('wsext', 'ready');
});

test('settings: changing zot.home restarts the extensions from the new home', async () => {
  const config = vscode.workspace.getConfiguration('zot');
  const pid = (await extension('actions')).pid;
  const other = fs.mkdtempSync(path.join(path.dirname(process.env.ZOT_HOME), 'other-home-'));
  fs.mkdirSync(path.join(other, 'extensions'));
  await config.update('home', other, vscode.ConfigurationTarget.Global);
  try {
    await waitFor('the new home', async () => (await snapshot()).zotHome === other);
    await waitFor('the old home\'s extensions gone', async () => !(await extension('actions')) && !(await extension('crashy')));
  } finally {
    await config.update('home', undefined, vscode.ConfigurationTarget.Global);
  }
  await waitFor('$ZOT_HOME again', async () => (await snapshot()).zotHome === process.env.ZOT_HOME);
  const back = await waitState('actions', 'ready');
  assert.notEqual(back.pid, pid);
  await waitState('crashy', 'ready');
});

test('settings: a timeout change applies at once, without restarting anything', async () => {
  const config = vscode.workspace.getConfiguration('zot');
  const pid = (await extension('actions')).pid;
  assert.equal((await snapshot()).timing.toolTimeoutMs, 60_000);
  await config.update('toolTimeoutSeconds', 5, vscode.ConfigurationTarget.Global);
  await waitFor('the new tool timeout', async () => (await snapshot()).timing.toolTimeoutMs === 5000);
  assert.equal((await extension('actions')).pid, pid);
  await config.update('toolTimeoutSeconds', undefined, vscode.ConfigurationTarget.Global);
  await waitFor('the default again', async () => (await snapshot()).timing.toolTimeoutMs === 60_000);
  assert.equal((await snapshot()).timing.readyGraceMs, 3000);
  await config.update('readyGraceSeconds', 1, vscode.ConfigurationTarget.Global);
  await waitFor('the new ready grace', async () => (await snapshot()).timing.readyGraceMs === 1000);
  await config.update('readyGraceSeconds', undefined, vscode.ConfigurationTarget.Global);
  await waitFor('its default again', async () => (await snapshot()).timing.readyGraceMs === 3000);
  assert.equal((await extension('actions')).pid, pid);
});

test('logs: suppressed notes are summed up after their window', async () => {
  await waitFor('the summary line', async () => (await channel('Zot: actions')).some((l) => /3 notifications suppressed \(at most 3 per 10 s/.test(l)), 15_000);
}, { timeoutMs: 20_000 });

/** Output channels on screen (the Output panel's editor has the `output` scheme). */
const outputShown = () => vscode.window.visibleTextEditors.filter((e) => e.document.uri.scheme === 'output').map((e) => e.document.uri.toString());

test('logs never reveal themselves: after crashes, warnings, errors and restarts no output is on screen', async () => {
  assert.deepEqual(outputShown(), []);
});

test('show log, open manifest, reveal folder', async () => {
  assert.equal(await exec('zot.showLog', 'actions'), 'Zot: actions');
  await waitFor('the log on screen', () => outputShown().length > 0);
  const manifest = await exec('zot.openManifest', 'actions');
  assert.equal(manifest, path.join(process.env.ZOT_HOME, 'extensions', 'actions', 'extension.json'));
  await waitFor('the manifest editor', () => vscode.window.activeTextEditor?.document.uri.fsPath === manifest);
  const local = await exec('zot.revealExtensionFolder', 'local');
  assert.deepEqual(local, { dir: path.join(workspaceDir(), '.zot', 'extensions', 'local'), how: 'explorer' });
});

test('reset permissions: the workspace asks again', async () => {
  await trace(true);
  assert.equal(await exec('zot.resetWorkspacePermissions'), 2);
  for (const name of ['local', 'wsext']) assert.match((await waitState(name, 'held')).error, /waiting for your permission/);
  await waitEvents('consent-asked', (e) => e.extension === 'wsext');
});

test('chat: with no language model, VS Code does not hand a request to @zot', async () => {
  assert.deepEqual(await vscode.lm.selectChatModels(), [], 'no language model here');
  await trace(true);
  await exec('workbench.action.chat.open', { query: '@zot hello' });
  await new Promise((r) => setTimeout(r, 8000));
  assert.deepEqual(await events('chat-reply'), [], '@zot was asked');
}, { timeoutMs: 30_000 });

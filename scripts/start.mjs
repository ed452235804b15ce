#!/usr/bin/env node
// npm start: a real VS Code in the browser with the freshly built VSIX and the
// sample zot extensions, for trying the product in one command.
//
//   npm start [-- --port <n>] [--password <p>] [--vsix <file>] [--dir <folder>]
//
// It installs what is missing (the cached environment the end-to-end tests
// use), builds the VSIX, puts the samples into a demo ZOT_HOME, opens a demo
// workspace with one project-local sample, and prints the local address and
// its password. It listens on 127.0.0.1 only, with code-server's password
// login. Ctrl-C stops everything it started.
import { randomBytes } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensurePackages } from './ensure-packages.mjs';
import { describeFailure, EnvError, ensureEnv } from './vscode-test-env.mjs';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const say = (line) => process.stdout.write(`[zot demo] ${line}\n`);

function parseArgs(argv) {
  const opts = { port: 8080, password: randomBytes(12).toString('base64url'), vsix: undefined, dir: path.join(repo, '.vscode-test', 'demo') };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--port') opts.port = Number(argv[++i]);
    else if (a === '--password') opts.password = argv[++i];
    else if (a === '--vsix') opts.vsix = path.resolve(argv[++i] ?? '');
    else if (a === '--dir') opts.dir = path.resolve(argv[++i] ?? '');
    else if (a === '-h' || a === '--help') {
      process.stdout.write([
        'usage: npm start [-- --port <n>] [--password <p>] [--vsix <file>] [--dir <folder>]',
        '  --port      port on 127.0.0.1 (default 8080; 0 picks a free one)',
        '  --password  the login password (default: a new random one, printed)',
        '  --vsix      install this VSIX instead of building one',
        '  --dir       where the demo workspace and zot home go (default .vscode-test/demo)',
        '',
      ].join('\n'));
      process.exit(0);
    } else {
      process.stderr.write(`npm start: unknown option ${a} (see --help)\n`);
      process.exit(2);
    }
  }
  if (!Number.isInteger(opts.port) || opts.port < 0 || opts.port > 65535) {
    process.stderr.write('npm start: --port takes a number from 0 to 65535\n');
    process.exit(2);
  }
  if (!opts.password) {
    process.stderr.write('npm start: --password needs a value\n');
    process.exit(2);
  }
  return opts;
}

/** A fresh demo: samples in a demo zot home, and a workspace with one project-local sample. */
function prepareDemo(root) {
  rmSync(root, { recursive: true, force: true });
  const zotHome = path.join(root, 'zot-home');
  const workspace = path.join(root, 'workspace');
  for (const sample of ['ask-user', 'todo']) cpSync(path.join(repo, 'samples', sample), path.join(zotHome, 'extensions', sample), { recursive: true });
  cpSync(path.join(repo, 'samples', 'word-count'), path.join(workspace, '.zot', 'extensions', 'word-count'), { recursive: true });
  cpSync(path.join(repo, 'scripts', 'demo', 'WELCOME.md'), path.join(workspace, 'WELCOME.md'));
  mkdirSync(path.join(workspace, '.vscode'), { recursive: true });
  writeFileSync(path.join(workspace, 'notes.md'), '# Notes\n\nPut the cursor here and run a command whose action is insert.\n');
  return { root, zotHome, workspace };
}


async function main() {
  const opts = parseArgs(process.argv.slice(2));
  if (!ensurePackages()) process.exit(1);
  say('checking the environment (the first run installs Node 24 and code-server into a cache folder: about two minutes)…');
  await ensureEnv({ browser: false, log: (l) => say(l) });
  let vsix = opts.vsix;
  if (vsix) {
    if (!statSync(vsix, { throwIfNoEntry: false })?.isFile()) throw new EnvError(`--vsix ${vsix}: no such file`);
  } else {
    say('building the VSIX…');
    try {
      execFileSync('npm', ['run', '--silent', 'package'], { cwd: repo, stdio: ['ignore', 'ignore', 'inherit'] });
    } catch {
      throw new EnvError('building the VSIX failed (npm run package); its errors are above');
    }
    vsix = path.join(repo, 'dist', 'zot-extensions.vsix');
  }
  const demo = prepareDemo(opts.dir);
  // Imported late: the harness needs the environment first.
  const { isInside, liveProcesses, startCodeServer } = await import('../test/e2e/harness.mjs');
  say('starting VS Code…');
  const server = await startCodeServer({
    vsixPaths: [vsix],
    env: { ZOT_HOME: demo.zotHome },
    password: opts.password,
    port: opts.port,
    testDriver: false,
    settings: {
      // Let the trust question show: the project-local sample waits for it.
      'security.workspace.trust.startupPrompt': 'once',
      'workbench.startupEditor': 'readme',
      'workbench.colorTheme': 'Default Dark Modern',
    },
  });

  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    say('stopping…');
    await server.stop();
    // A window still open in a browser never got to deactivate the extension:
    // end whatever zot extension processes the demo started.
    const left = liveProcesses().filter(({ cwd }) => isInside(cwd, demo.root)).map(({ pid }) => pid);
    for (const pid of left) {
      try { process.kill(pid, 'SIGKILL'); } catch { /* already gone */ }
    }
    if (left.length) say(`ended ${left.length} extension process(es) the closed window left behind`);
    say('stopped; nothing is left running.');
    process.exit(0);
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);

  const url = `${server.url}?folder=${encodeURIComponent(demo.workspace)}`;
  process.stdout.write([
    '',
    '  Zot extensions demo is running.',
    '',
    `  Open:      ${url}`,
    `  Password:  ${opts.password}`,
    '',
    `  Workspace: ${demo.workspace}  (read WELCOME.md there)`,
    `  ZOT_HOME:  ${demo.zotHome}`,
    '',
    '  Press Ctrl-C to stop.',
    '',
  ].join('\n') + '\n');
  // Keep running until Ctrl-C.
  setInterval(() => {}, 1 << 30);
}

main().catch((err) => {
  process.stderr.write(`npm start failed: ${describeFailure(err)}\n`);
  process.exit(1);
});

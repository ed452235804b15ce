// Runs extension tests inside a real VS Code on this machine: code-server
// (VS Code server + web workbench) opened by headless Debian Chromium through
// playwright-core. See /work/shared/VSCODE-TESTING.md for why this route and
// for the quirks it works around.
//
//   const server = await startCodeServer({ vsixPaths: ['dist/zot-extensions.vsix'] });
//   try {
//     const { exitCode, logs } = await runExtensionTests({ server, folder, testsEntry });
//   } finally {
//     await server.stop();
//   }
//
// Every server lives in its own temp directory (user data, extensions, XDG
// homes, TMPDIR, config) and its own process group, every browser in its own
// temp directory; stop()/close() remove them, and so does the exit of this
// process if a test run crashes first.

import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, readlinkSync, realpathSync, rmSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { ensureEnv } from '../../scripts/vscode-test-env.mjs';
import { testExtensionVsix } from './vsix.mjs';

/** Extension with no code, used as the development extension of test runs. */
export const PLACEHOLDER_EXTENSION = path.join(path.dirname(fileURLToPath(import.meta.url)), 'placeholder');
/** Runs the tests where the workbench has no test driver (see startCodeServer's `oldest`). */
const RUNNER_EXTENSION = path.join(path.dirname(fileURLToPath(import.meta.url)), 'runner');

// From VSCODE-TESTING.md. Playwright adds its own headless flags too; the
// profile dir is given to launchPersistentContext, never as --user-data-dir.
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

// Where the web workbench keeps application-shared state, trusted folders
// included (IndexedDBStorageDatabase.createApplicationSharedStorage in the
// VS Code 1.139 bundle of code-server: database "vscode-web-state-db-" +
// "global-shared", object store "ItemTable", string values under out-of-line
// keys).
const SHARED_STATE_DB = 'vscode-web-state-db-global-shared';
const STATE_STORE = 'ItemTable';
// WORKSPACE_TRUST_STORAGE_KEY in
// src/vs/workbench/services/workspaces/common/workspaceTrust.ts.
const TRUST_KEY = 'content.trust.model.key';
// Where the web workbench keeps its other global state (same layout).
const GLOBAL_STATE_DB = 'vscode-web-state-db-global';
// The workbench's list of extensions the user disabled (GlobalExtensionEnablementService).
const DISABLED_KEY = 'extensionsIdentifiers/disabled';
// Built-in extensions no test uses and every window would start: git and
// github (activated on '*', spawning git), the TypeScript and npm language
// features, emmet and the task detectors. Disabled as a user can disable them,
// they spare each file's window seconds of CPU; `npm run screenshots` keeps
// them, so the README shows VS Code as users have it.
const UNUSED_BUILTINS = ['vscode.git', 'vscode.git-base', 'vscode.github', 'vscode.npm', 'vscode.emmet', 'vscode.typescript-language-features',
  'vscode.merge-conflict', 'vscode.debug-auto-launch', 'vscode.grunt', 'vscode.gulp', 'vscode.jake', 'vscode.ipynb', 'vscode.tunnel-forwarding'];

/** @typedef {Awaited<ReturnType<typeof startCodeServer>>} CodeServer A running code-server (startCodeServer). */
/** @typedef {Awaited<ReturnType<typeof openWorkbench>>} Workbench A browser on the workbench (openWorkbench). */
/** @typedef {Awaited<ReturnType<typeof launchBrowser>>} Browser A headless Chromium with one page (launchBrowser). */

const SERVER_START_TIMEOUT_MS = 30_000;
const STOP_GRACE_MS = 5_000;

/** @type {Map<string, ReturnType<typeof ensureEnv>>} */
const envPromises = new Map();
/**
 * ensureEnv() once per process and need (it installs on the first ever run);
 * a server alone needs no browser (the demo), a test run does.
 * @param {{ browser: boolean, oldest?: boolean }} need
 * @returns {ReturnType<typeof ensureEnv>}
 */
function environment({ browser, oldest = false }) {
  const key = `${browser}/${oldest}`;
  let promise = envPromises.get(key);
  if (!promise) envPromises.set(key, (promise = ensureEnv({ browser, oldest })));
  return promise;
}

/**
 * Starts code-server on 127.0.0.1 with a fresh, private state.
 *
 * @param {object} [options]
 * @param {string[]} [options.vsixPaths] VSIX files installed with
 *   `--install-extension` before the server starts (tests then reach them with
 *   `vscode.extensions.getExtension('publisher.name')`).
 * @param {Record<string, string>} [options.env] extra environment for the
 *   server; the extension host inherits it.
 * @param {object} [options.settings] user settings, merged over the defaults
 *   below and written to `<userDataDir>/User/settings.json`.
 * @param {boolean} [options.workspaceTrust] false passes
 *   `--disable-workspace-trust`: every folder is trusted and the `trusted`
 *   option of runExtensionTests/openWorkbench has no effect.
 * @param {string} [options.password] code-server's own password login
 *   instead of none (the demo); tests leave it unset.
 * @param {number} [options.port] a fixed port on 127.0.0.1; 0 picks a free one.
 * @param {boolean} [options.testDriver] false leaves out the smoke-test driver
 *   (the `payload` URL parameter that loads test code); the demo has no tests.
 * @param {string} [options.locale] VS Code's display language (it takes effect once a language pack for it is installed)
 * @param {boolean} [options.oldest] the oldest VS Code package.json claims (code-server
 *   OLDEST.codeServer of scripts/vscode-test-env.mjs) instead of the current one. Its
 *   code-server passes no VS Code options on, so its workbench has no test driver:
 *   the tests a later runExtensionTests runs are named here, as `testsEntry`, and
 *   run by test/e2e/runner, an extension installed beside the others.
 * @param {string} [options.testsEntry] with `oldest`: the suite runExtensionTests will run
 * @param {boolean} [options.browser] launch the browser of the first window
 *   (runExtensionTests, openWorkbench) while the server starts, so that its
 *   seconds overlap the VSIX installs and the server's start instead of
 *   following them; the window closes it as it closes one it launches, and
 *   stop() one no window took. Default: with a test driver (the demo has
 *   none and opens no browser).
 * @returns {Promise<{ port: number, url: string, pid: number, userDataDir: string,
 *   extensionsDir: string, output: () => string, stop: () => Promise<void>,
 *   takeBrowser: () => Promise<Browser> | undefined,
 *   runner?: { testsEntry: string, exitFile: string } }>}
 *   `url` ends with "/"; `pid` is code-server's, which is also the id of its
 *   process group; `output()` is what code-server printed so far;
 *   `takeBrowser()` hands out the browser launched with the server to the
 *   first window, undefined after (or without `browser`).
 */
export async function startCodeServer({ vsixPaths = [], env = {}, settings = {}, workspaceTrust = true, password, port = 0, testDriver = true, locale, oldest = false, testsEntry, browser = testDriver } = {}) {
  /** @type {Promise<Browser> | undefined} */
  let browsing = browser ? launchBrowser() : undefined;
  // Its failure is the window's to report (takeBrowser); stop() only closes one that started and no window took.
  browsing?.catch(() => undefined);
  const closeBrowser = () => browsing?.then((session) => session.close(), () => undefined);
  const paths = await environment({ browser: false, oldest });
  // The oldest build runs on its own Node (scripts/vscode-test-env.mjs, OLDEST).
  const { nodeBin, codeServerBin } = oldest ? /** @type {NonNullable<typeof paths.oldest>} */ (paths.oldest) : { nodeBin: paths.node24Bin, codeServerBin: paths.codeServerBin };

  const root = await mkdtemp(path.join(os.tmpdir(), 'zot-vscode-'));
  /** @type {number | undefined} */
  let pgid; // set once the server runs; the group to kill
  const forgetCrashCleanup = onProcessExit(() => {
    if (pgid) signalGroup(pgid, 'SIGKILL');
    removeAfterKill(root);
  });

  try {
    const userDataDir = path.join(root, 'user-data');
    const extensionsDir = path.join(root, 'extensions');
    const configFile = path.join(root, 'config.yaml');
    const xdg = path.join(root, 'xdg');
    const serverEnv = {
      ...process.env,
      // code-server writes ~/.config/code-server and ~/.local/share/code-server
      // unless these point elsewhere.
      XDG_CONFIG_HOME: path.join(xdg, 'config'),
      XDG_DATA_HOME: path.join(xdg, 'data'),
      XDG_CACHE_HOME: path.join(xdg, 'cache'),
      XDG_STATE_HOME: path.join(xdg, 'state'),
      // VS Code's IPC sockets (vscode-ipc-*.sock, vscode-git-*.sock) and
      // temp files (vscode-typescript<uid>/, ...) would otherwise stay in /tmp.
      XDG_RUNTIME_DIR: path.join(xdg, 'runtime'),
      TMPDIR: path.join(root, 'tmp'),
      // With force-disable-user-env: no login shell to read the user's profile.
      VSCODE_CLI: '1',
      // Where --install-extension puts the VSIXes: suites prove by it that an extension runs as installed.
      ZOT_E2E_EXTENSIONS_DIR: extensionsDir,
      ...env,
    };
    await mkdir(path.join(userDataDir, 'User'), { recursive: true });
    await mkdir(serverEnv.XDG_RUNTIME_DIR, { recursive: true, mode: 0o700 });
    await mkdir(serverEnv.TMPDIR);
    await mkdir(extensionsDir, { recursive: true });
    // Without --config, code-server writes ~/.config/code-server/config.yaml;
    // an empty file is rejected ("expected a document").
    await writeFile(configFile, password ? `auth: password\npassword: ${JSON.stringify(password)}\ncert: false\n` : 'auth: none\ncert: false\n');
    const stateArgs = ['--config', configFile, '--user-data-dir', userDataDir, '--extensions-dir', extensionsDir];

    const runnerExit = path.join(root, 'runner-exit');
    if (oldest && testsEntry) {
      vsixPaths = [...vsixPaths, testExtensionVsix(RUNNER_EXTENSION, path.join(root, 'zot-e2e-runner.vsix'))];
      Object.assign(serverEnv, { ZOT_E2E_TESTS_ENTRY: path.resolve(testsEntry), ZOT_E2E_RUNNER_EXIT: runnerExit });
    }
    // One CLI run for all of them: each run is a code-server start of its own (seconds).
    if (vsixPaths.length) {
      await runToCompletion(nodeBin, [codeServerBin, ...stateArgs, ...vsixPaths.flatMap((vsix) => ['--install-extension', path.resolve(vsix)])], serverEnv);
    }

    await writeFile(
      path.join(userDataDir, 'User', 'settings.json'),
      JSON.stringify(
        {
          // No modal trust prompt in the way of the UI: a trusted folder is
          // seeded before the workbench loads, an untrusted one just opens in
          // Restricted Mode (with its banner).
          'security.workspace.trust.startupPrompt': 'never',
          // The extension gallery (open-vsx.org) is unreachable here.
          'extensions.autoCheckUpdates': false,
          'extensions.autoUpdate': false,
          // Keep the editor area empty, for screenshots that show the extension.
          'workbench.startupEditor': 'none',
          ...settings,
        },
        null,
        2,
      ),
    );

    const child = spawn(
      nodeBin,
      [
        codeServerBin,
        ...stateArgs,
        // Port 0: the kernel picks a free port, code-server logs which.
        // Loopback only; tests need no authentication, the demo sets a password.
        '--bind-addr', `127.0.0.1:${port}`,
        '--auth', password ? 'password' : 'none',
        '--disable-telemetry',
        '--disable-update-check',
        ...(workspaceTrust ? [] : ['--disable-workspace-trust']),
        // VS Code's display language; it takes effect only with a language
        // pack for it installed (test/e2e/l10n/language-pack).
        ...(locale ? ['--locale', locale] : []),
        // code-server 4.133 passes no VS Code options on (it has no --vscode-option).
        ...(oldest ? [] : ['--vscode-option', 'force-disable-user-env']),
        // Only then does the workbench honour the `payload` URL parameter.
        ...(testDriver && !oldest ? ['--vscode-option', 'enable-smoke-test-driver'] : []),
      ],
      // detached = setsid(2): code-server and everything it forks (extension
      // host, pty host, ...) share one new process group that stop() signals.
      { detached: true, env: serverEnv, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    pgid = child.pid;
    let output = '';
    /** @type {Error | undefined} */
    let spawnError;
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('error', (error) => (spawnError = error));

    const url = await waitFor(SERVER_START_TIMEOUT_MS, () => {
      if (spawnError) throw spawnError;
      if (child.exitCode !== null || child.signalCode !== null) {
        throw new Error(`code-server exited (${child.signalCode ?? child.exitCode}) before listening:\n${output}`);
      }
      return output.match(/HTTP server listening on (http:\/\/127\.0\.0\.1:\d+\/)/)?.[1];
    }, () => `code-server did not listen within ${SERVER_START_TIMEOUT_MS} ms:\n${output}`);
    // /healthz answers without authentication.
    await waitFor(SERVER_START_TIMEOUT_MS, async () => (await fetch(`${url}healthz`).catch(() => null))?.ok,
      () => `code-server at ${url} did not answer /healthz:\n${output}`);
    assert.ok(pgid, 'code-server has no pid');
    const pid = pgid;

    let stopping;
    return {
      port: Number(new URL(url).port),
      url,
      pid,
      userDataDir,
      extensionsDir,
      output: () => output,
      // Set when test/e2e/runner runs the tests (no test driver): the suite, and where it writes its exit code.
      runner: oldest && testsEntry ? { testsEntry: path.resolve(testsEntry), exitFile: runnerExit } : undefined,
      takeBrowser() {
        const taken = browsing;
        browsing = undefined;
        return taken;
      },
      /** Ends the whole process group (SIGTERM, then SIGKILL) and removes all its files; closes a browser launched with it that no window took. */
      stop() {
        stopping ??= (async () => {
          await Promise.all([
            closeBrowser(),
            (async () => {
              await killGroup(pid);
              await rm(root, { recursive: true, force: true });
            })(),
          ]);
          forgetCrashCleanup();
        })();
        return stopping;
      },
    };
  } catch (error) {
    await Promise.all([
      closeBrowser(),
      (async () => {
        if (pgid) await killGroup(pgid);
        await rm(root, { recursive: true, force: true });
      })(),
    ]);
    forgetCrashCleanup();
    throw error;
  }
}

/**
 * Runs an extension test suite in the server's extension host.
 *
 * The development extension is PLACEHOLDER_EXTENSION (a test runner only runs
 * with one), so the extension under test is whatever the server installed.
 *
 * @param {object} options
 * @param {Awaited<ReturnType<typeof startCodeServer>>} options.server
 * @param {string} [options.folder] absolute path opened as the workspace
 *   folder; a `.code-workspace` file opens that (multi-root) workspace, trusted
 *   through the folder it is in (keep its folders inside it); none opens an
 *   empty window
 * @param {string} options.testsEntry absolute path of a CommonJS module (or
 *   .mjs) exporting `run(): Promise<void>`; it runs in the extension host and
 *   can `require('vscode')`
 * @param {boolean} [options.trusted] whether the folder is trusted
 * @param {number} [options.timeoutMs] whole-run limit; on expiry this rejects
 *   with the captured console in the message
 * @param {string} [options.screenshotPath] PNG of the workbench taken when the
 *   run ends (or times out)
 * @param {(line: string) => void} [options.onConsole] every console line, live
 * @param {(page: import('playwright-core').Page) => Promise<void>} [options.onPage]
 *   drives the workbench page while the tests run (keys, frames); its error
 *   is thrown once the tests ended
 * @param {Record<string, string>} [options.globalState] entries written into
 *   the workbench's global state before it loads
 * @returns {Promise<{ exitCode: number, logs: string[] }>} exitCode 0 when
 *   run() resolved, non-zero when it threw (the error is in `logs`) or the
 *   extension host died; `logs` is the browser console, which includes the
 *   extension host's console output.
 */
export async function runExtensionTests({ server, folder, testsEntry, trusted = true, timeoutMs = 120_000, screenshotPath, onConsole, globalState, onPage }) {
  const authority = new URL(server.url).host;
  const payload = server.runner ? undefined : [
    ['extensionDevelopmentPath', `vscode-remote://${authority}${PLACEHOLDER_EXTENSION}`],
    ['extensionTestsPath', `vscode-remote://${authority}${path.resolve(testsEntry)}`],
  ];
  if (server.runner && server.runner.testsEntry !== path.resolve(testsEntry)) {
    throw new Error(`this server runs ${server.runner.testsEntry} (startCodeServer's testsEntry), not ${testsEntry}`);
  }
  const session = await browserFor(server, onConsole);
  try {
    /** @type {(code: number) => void} */
    let reportExit;
    /** @type {Promise<number>} */
    const exited = new Promise((resolve) => (reportExit = resolve));
    // The workbench calls this when the extension host that ran the tests
    // exits, with its exit code (0 when run() resolved, 1 when it threw).
    await session.page.exposeFunction('codeAutomationExit', (/** @type {number} */ code) => reportExit(code));
    // Without a test driver, the runner extension writes the code to a file instead.
    const runner = server.runner;
    const polling = runner && setInterval(() => {
      if (existsSync(runner.exitFile)) reportExit(Number(readFileSync(runner.exitFile, 'utf8')));
    }, 200);

    await openFolder(session.page, server, folder, trusted, payload, globalState);
    // Caught here so a failure waits for the tests' end, then is thrown.
    const driving = onPage && onPage(session.page).then(() => undefined, (error) => error);

    /** @type {NodeJS.Timeout | undefined} */
    let timer;
    /** @type {Promise<'timeout'>} */
    const timedOut = new Promise((resolve) => (timer = setTimeout(resolve, timeoutMs, 'timeout')));
    const exitCode = await Promise.race([exited, timedOut]).finally(() => {
      clearTimeout(timer);
      clearInterval(polling);
    });
    if (screenshotPath) await session.page.screenshot({ path: screenshotPath });
    const drivingError = exitCode === 'timeout' ? undefined : await driving;
    if (drivingError) throw drivingError;
    if (exitCode === 'timeout') {
      throw new Error(
        `extension tests did not finish within ${timeoutMs} ms (${testsEntry})\n` +
          `--- browser console (last 40 lines) ---\n${session.logs.slice(-40).join('\n')}\n` +
          `--- code-server output (last 40 lines) ---\n${server.output().split('\n').slice(-40).join('\n')}`,
      );
    }
    return { exitCode, logs: session.logs };
  } finally {
    await session.close();
  }
}

/**
 * Opens the workbench on a folder, without a test runner, for Playwright-driven
 * UI checks and screenshots. Resolves once the workbench has rendered.
 *
 * @param {object} options
 * @param {Awaited<ReturnType<typeof startCodeServer>>} options.server
 * @param {string} options.folder absolute path opened as the workspace folder
 * @param {boolean} [options.trusted]
 * @param {(line: string) => void} [options.onConsole]
 * @param {Record<string, string>} [options.globalState] as for runExtensionTests
 * @returns {Promise<{ context: import('playwright-core').BrowserContext,
 *   page: import('playwright-core').Page, logs: string[], close: () => Promise<void> }>}
 */
export async function openWorkbench({ server, folder, trusted = true, onConsole, globalState }) {
  const session = await browserFor(server, onConsole);
  try {
    await openFolder(session.page, server, folder, trusted, undefined, globalState);
    // The explorer shows once the remote folder resolved: the workbench is up.
    await session.page.locator('.monaco-workbench .explorer-folders-view').waitFor({ timeout: 60_000 });
    return session;
  } catch (error) {
    await session.close();
    throw error;
  }
}

/**
 * The browser of a window on `server`: the one launched with it when no
 * window took it yet, else a new one; the window closes it.
 * @param {CodeServer} server
 * @param {((line: string) => void) | undefined} onConsole
 */
async function browserFor(server, onConsole) {
  const launched = server.takeBrowser();
  if (!launched) return launchBrowser(onConsole);
  const session = await launched;
  if (onConsole) session.listen(onConsole);
  return session;
}

/**
 * Headless Chromium with a fresh profile.
 * @param {(line: string) => void} [onConsole]
 */
export async function launchBrowser(onConsole) {
  // Not under the server's temp dir: on a crash, the server's exit handler
  // runs before Playwright's kills this browser.
  const root = await mkdtemp(path.join(os.tmpdir(), 'zot-chromium-'));
  let context;
  try {
    context = await chromium.launchPersistentContext(path.join(root, 'profile'), {
      executablePath: (await environment({ browser: true })).chromium,
      headless: true,
      args: CHROMIUM_ARGS,
      // Chromium writes ~/.config/chromium/Crash Reports and GTK writes
      // ~/.cache/dconf whatever the profile dir; keep those in here too.
      env: { ...process.env, XDG_CONFIG_HOME: path.join(root, 'config'), XDG_CACHE_HOME: path.join(root, 'cache') },
      viewport: { width: 1280, height: 800 },
    });
  } catch (error) {
    await rm(root, { recursive: true, force: true });
    throw error;
  }
  // Registered after launch, so after Playwright's own exit handler (added
  // while any browser runs): on a crash the browser is killed first.
  const forgetCrashCleanup = onProcessExit(() => removeAfterKill(root));
  const page = context.pages()[0] ?? (await context.newPage());
  /** @type {string[]} */
  const logs = [];
  /** @type {((line: string) => void)[]} */
  const listeners = onConsole ? [onConsole] : [];
  const record = (/** @type {string} */ line) => {
    logs.push(line);
    for (const listener of listeners) listener(line);
  };
  // The workbench styles its log lines as ("%c INFO", "color: #33f", text);
  // drop the styling so they read "[log] INFO text".
  page.on('console', (message) => record(`[${message.type()}] ${message.text().replace(/^%c\s*(\w+) color: #[0-9a-f]+ /i, '$1 ')}`));
  page.on('pageerror', (error) => record(`[pageerror] ${error.stack ?? error.message}`));
  let closing;
  return {
    context,
    page,
    logs,
    /** Adds a listener of every console line from now on. @param {(line: string) => void} listener */
    listen(listener) {
      listeners.push(listener);
    },
    close() {
      closing ??= (async () => {
        await context.close();
        await rm(root, { recursive: true, force: true });
        forgetCrashCleanup();
      })();
      return closing;
    },
  };
}

/**
 * Navigates to the workbench for `folder`. A trusted folder is first written
 * into the browser's trusted-folder storage, on the same origin, so the
 * workbench reads it at startup; an untrusted one gets no entry (the profile
 * is fresh) and, with the startupPrompt setting "never", stays in Restricted
 * Mode.
 * @param {import('playwright-core').Page} page
 * @param {{ url: string }} server
 * @param {string | undefined} folder
 * @param {boolean} trusted
 * @param {string[][] | undefined} payload
 * @param {Record<string, string>} [globalState]
 */
async function openFolder(page, server, folder, trusted, payload, globalState = {}) {
  // A .code-workspace file opens as a (multi-root) workspace, trusted by its
  // own folder (which holds its folders); no folder opens an empty window.
  const workspaceFile = folder !== undefined && folder.endsWith('.code-workspace');
  // One spelling of the folder for the URL and the trust entry, which the
  // workbench compares as URIs: its real path.
  const realFolder = folder === undefined ? undefined : realpathSync(folder);
  // Any same-origin page that does not boot the workbench will do to seed the browser's storage.
  await page.goto(`${server.url}healthz`);
  // Global state the workbench reads at startup (agent mode needs one key: see VSCODE-TESTING.md),
  // and the built-in extensions no test uses, disabled (see UNUSED_BUILTINS).
  const state = process.env.ZOT_UPDATE_SCREENSHOTS ? globalState : { [DISABLED_KEY]: JSON.stringify(UNUSED_BUILTINS.map((id) => ({ id }))), ...globalState };
  for (const [key, value] of Object.entries(state)) {
    await page.evaluate(seedTrustedFolder, { dbName: GLOBAL_STATE_DB, storeName: STATE_STORE, key, value });
  }
  if (trusted && realFolder !== undefined) {
    await page.evaluate(seedTrustedFolder, {
      dbName: SHARED_STATE_DB,
      storeName: STATE_STORE,
      key: TRUST_KEY,
      // IWorkspaceTrustInfo as WorkspaceTrustManagementService.saveTrustInfo
      // writes it: JSON of { uriTrustInfo: [{ uri: UriComponents, trusted }] },
      // read back with URI.revive. The workbench's folder URIs are
      // vscode-remote://<host:port><path>; an entry also trusts subfolders.
      value: JSON.stringify({
        uriTrustInfo: [{ uri: { scheme: 'vscode-remote', authority: new URL(server.url).host, path: workspaceFile ? path.dirname(realFolder) : realFolder }, trusted: true }],
      }),
    });
  }
  const query = new URLSearchParams(realFolder === undefined ? { ew: 'true' } : { [workspaceFile ? 'workspace' : 'folder']: realFolder });
  if (payload) query.set('payload', JSON.stringify(payload));
  await page.goto(`${server.url}?${query}`);
}

/**
 * The parts of the page's IndexedDB that seedTrustedFolder uses (the tests have no DOM types).
 * @typedef {{ put(value: string, key: string): void }} IdbStore
 * @typedef {{ objectStore(name: string): IdbStore, oncomplete: () => void, onerror: () => void, error: unknown }} IdbTransaction
 * @typedef {{ createObjectStore(name: string): IdbStore, transaction(name: string, mode: 'readwrite'): IdbTransaction, close(): void }} IdbDatabase
 * @typedef {{ result: IdbDatabase, error: unknown, onupgradeneeded: () => void, onerror: () => void, onsuccess: () => void }} IdbOpenRequest
 */

/**
 * Runs in the page: stores one value the way the workbench's IndexedDB storage does.
 * @param {{ dbName: string, storeName: string, key: string, value: string }} entry
 * @returns {Promise<void>}
 */
function seedTrustedFolder({ dbName, storeName, key, value }) {
  return new Promise((resolve, reject) => {
    const request = /** @type {typeof globalThis & { indexedDB: { open(name: string): IdbOpenRequest } }} */ (globalThis).indexedDB.open(dbName);
    request.onupgradeneeded = () => request.result.createObjectStore(storeName);
    request.onerror = () => reject(request.error);
    request.onsuccess = () => {
      const db = request.result;
      const transaction = db.transaction(storeName, 'readwrite');
      transaction.objectStore(storeName).put(value, key);
      transaction.oncomplete = () => {
        db.close();
        resolve();
      };
      transaction.onerror = () => reject(transaction.error);
    };
  });
}

/**
 * Sends a signal to a process group; false when the group is gone.
 * @param {number} pgid
 * @param {NodeJS.Signals | 0} signal
 */
function signalGroup(pgid, signal) {
  try {
    process.kill(-pgid, signal);
    return true;
  } catch (error) {
    if (/** @type {NodeJS.ErrnoException} */ (error).code === 'ESRCH') return false;
    throw error;
  }
}

/**
 * SIGTERM to the group, SIGKILL if anything is left after a grace period.
 * @param {number} pgid
 */
async function killGroup(pgid) {
  if (!signalGroup(pgid, 'SIGTERM')) return;
  const gone = () => !signalGroup(pgid, 0);
  if (await waitFor(STOP_GRACE_MS, gone).catch(() => false)) return;
  signalGroup(pgid, 'SIGKILL');
  await waitFor(STOP_GRACE_MS, gone, () => `process group ${pgid} survived SIGKILL`);
}

/**
 * Polls `check` until it returns a truthy value, which is returned.
 * @template T
 * @param {number} timeoutMs
 * @param {() => T | PromiseLike<T>} check
 * @param {() => string} [describeTimeout]
 * @returns {Promise<NonNullable<Awaited<T>>>}
 */
async function waitFor(timeoutMs, check, describeTimeout = () => `timed out after ${timeoutMs} ms`) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(describeTimeout());
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * Runs a command to its end; rejects with its output unless it exits 0.
 * @param {string} command
 * @param {string[]} args
 * @param {NodeJS.ProcessEnv} env
 * @returns {Promise<string>}
 */
function runToCompletion(command, args, env) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      if (code === 0) resolve(output);
      else reject(new Error(`${path.basename(args[0] ?? command)} ${args.slice(1).join(' ')} failed (${signal ?? `exit ${code}`}):\n${output}`));
    });
  });
}

let signalsHooked = false;
/**
 * Runs `cleanup` (synchronous) when this process exits, crash included;
 * returns a function that unregisters it. Fatal signals are turned into an
 * ordinary exit so that 'exit' handlers run for them too.
 * @param {() => void} cleanup
 * @returns {() => void}
 */
function onProcessExit(cleanup) {
  if (!signalsHooked) {
    signalsHooked = true;
    for (const signal of /** @type {const} */ (['SIGINT', 'SIGTERM', 'SIGHUP'])) {
      process.once(signal, () => {
        // A program that handles the signal itself (npm start stops gracefully) keeps it.
        if (process.listenerCount(signal) > 0) return;
        process.exit(128 + os.constants.signals[signal]);
      });
    }
  }
  const guarded = () => {
    try {
      cleanup();
    } catch (error) {
      // Keep going: the other handlers have their own things to clean up.
      console.error(`[e2e harness] cleanup at exit failed: ${/** @type {Error} */ (error).message}`);
    }
  };
  process.on('exit', guarded);
  return () => process.off('exit', guarded);
}

/**
 * Removes the files of processes just sent SIGKILL, from an 'exit' handler
 * (which cannot await): they may still be writing for a few milliseconds,
 * which leaves files behind or fails the removal with ENOTEMPTY.
 * @param {string} dir
 */
function removeAfterKill(dir) {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 250);
  rmSync(dir, { recursive: true, force: true, maxRetries: 5 });
}

/**
 * Every live process on the machine but this one, with its command line and
 * working directory: what tests and the demo search to prove nothing was left
 * running. Zombies are skipped: they run nothing.
 * @returns {{ pid: number, cmdline: string, cwd: string }[]}
 */
export function liveProcesses() {
  const found = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      if (stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z')) continue;
      const cmdline = readFileSync(`/proc/${entry}/cmdline`, 'utf8').replace(/\0/g, ' ').trim();
      let cwd = '';
      try {
        cwd = readlinkSync(`/proc/${entry}/cwd`);
      } catch {
        // not ours to read
      }
      found.push({ pid: Number(entry), cmdline, cwd });
    } catch {
      // gone meanwhile
    }
  }
  return found;
}

/**
 * What is left of a server after its stop(): processes in its group or naming
 * its files (a child that left the group), and its folder if it still exists.
 * Both empty once stop() did its work.
 * @param {CodeServer} server
 * @returns {{ processes: string[], files: string[] }}
 */
export function leftoversOf(server) {
  const root = path.dirname(server.userDataDir);
  const processes = execFileSync('ps', ['-eo', 'pid=,pgid=,args='], { encoding: 'utf8' })
    .split('\n')
    .filter((line) => {
      const [, pgid] = line.trim().split(/\s+/);
      return Number(pgid) === server.pid || line.includes(root);
    });
  return { processes, files: existsSync(root) ? [root] : [] };
}

/**
 * Whether `p` is `dir` or inside it.
 * @param {string} p
 * @param {string} dir
 */
export const isInside = (p, dir) => p === dir || p.startsWith(dir + path.sep);

// A zot tool call in real agent harnesses (Claude Code, Codex, installed in
// the test cache by scripts/harness-env.mjs), with and without zot's guard
// hook, driven offline by the scripted model of test/harness/fake-model.mjs.
// Each session asks for the plugin's own tool (echo_upper of
// test/fixtures/compat/node-nosdk) `calls` times, one after another (after
// untimed steps that wait, in the shell, until the tool is offered and call it
// once, the session's first call of the server), then as many times for a
// tool of the harness's own that the guard is asked about (Claude Code's Read,
// Codex's exec_command: `guarded`); a sample is the time from the model's
// answer carrying the call being all written to the model's next request
// carrying its result (the step after it). Variants, from one zot home holding
// the guard of test/fixtures/compat/guard:
//   mcp_tool  the plugin `zot-host plugin --guard-hook mcp` writes: PreToolUse
//             is an mcp_tool call of zot_agent_hook in the plugin's server;
//   none      the same plugin, its hooks/hooks.json removed: the same server
//             and tool, no hook at all, so the ratio is the hook's cost;
//   command   `--guard-hook command`: a zot-host process per call;
//   floor     (Claude Code) the plugin as for none, and the project's own mcp_tool
//             hook, with the same matcher and input, into a server that answers
//             every call at once (bench/fixtures/hook-floor-server.cjs): the least
//             any mcp_tool hook costs there, which zot's is compared with.
// Sessions take turns (round by round, harness by harness, variants in a
// rotating order), so a busy spell of the machine falls on all of them. The
// server's side is timed from inside it (bench/fixtures/mcp-probe.cjs): when
// each tools/call reached it and when it answered, which splits a sample into
// the harness's part and the server's.
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { harnessPaths, HARNESSES, unsupported } from '../../scripts/harness-env.mjs';
import { callOutputs, fakeAnthropic, fakeResponses, toolResults } from '../../test/harness/fake-model.mjs';
import { MCP_PROBE, probeLog, runHarness } from '../../test/harness/scene.mjs';
import { BENCH, ROOT } from '../config.mjs';
import { median, scratch } from '../util.mjs';

const CLI = path.join(ROOT, 'dist', 'cli.js');
const COMPAT = path.join(ROOT, 'test', 'fixtures', 'compat');
const FLOOR = path.join(BENCH, 'fixtures', 'hook-floor-server.cjs');
/** The text of the file the guarded tool reads. */
const NOTE = 'NOTE 7f3a: read by the guarded tool';
export const VARIANTS = /** @type {const} */ (['mcp_tool', 'none', 'command', 'floor']);
/** The variants a harness is measured in: the floor where its sessions can add the floor's server (Claude Code's --mcp-config). */
const variantsOf = (name) => VARIANTS.filter((v) => v !== 'floor' || DRIVERS[name].floor);

/**
 * How each harness is driven: the plugin format, the tool's name as the model is offered it,
 * how a request carries a call's result, and one session.
 */
const DRIVERS = {
  'claude-code': {
    key: 'claude_code',
    // Untimed steps first: either may ask the model before the plugin's server has listed its tools (on a busy machine
    // Claude Code did too), and then offers none of them; a short wait in its shell, until the tool is there.
    shell: { name: 'Bash', input: { command: 'sleep 0.5', description: 'wait' } },
    warm: 4,
    // A tool of Claude Code's own, cheap and allowed: the guard hook runs for it (the plugin's own tools it leaves out).
    guarded: { name: 'Read', input: (/** @type {string} */ note) => ({ file_path: note }) },
    format: 'claude',
    tool: 'mcp__plugin_zot-extensions_zot__echo_upper',
    model: fakeAnthropic,
    result: (req, n) => toolResults(req).get(`toolu_fake_${n}`),
    /** Nothing to install: the plugin folder is named on each run. */
    async install() {},
    floor: true,
    session: (bin, s, url) => runHarness(bin, ['-p', 'call the tool', '--output-format', 'json', '--model', 'claude-sonnet-4-5', '--plugin-dir', s.plugin, '--dangerously-skip-permissions', ...(s.floor ? ['--mcp-config', s.floor] : [])], {
      cwd: s.project,
      // As test/harness/claude-code.test.mjs: no login, no network but the model; MCP tools offered at once.
      env: { PATH: process.env.PATH ?? '', HOME: s.user, CLAUDE_CONFIG_DIR: path.join(s.user, '.claude'), ANTHROPIC_BASE_URL: url, ANTHROPIC_API_KEY: 'dummy', CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1', IS_SANDBOX: '1', ENABLE_TOOL_SEARCH: 'false' },
    }),
  },
  codex: {
    key: 'codex',
    shell: { name: 'exec_command', input: { cmd: 'sleep 0.5' } },
    warm: 4,
    guarded: { name: 'exec_command', input: (/** @type {string} */ note) => ({ cmd: `cat ${note}` }) },
    format: 'codex',
    tool: 'mcp__zot.echo_upper',
    model: fakeResponses,
    result: (req, n) => callOutputs(req).get(`call_fake_${n}`),
    /** The marketplace added and its plugin installed into this variant's own CODEX_HOME, as test/harness/codex.test.mjs does. */
    async install(bin, s) {
      for (const args of [['plugin', 'marketplace', 'add', s.written], ['plugin', 'add', 'zot-extensions@zot']]) {
        const r = await runHarness(process.execPath, [bin, ...args], { cwd: s.project, env: codexEnv(s) });
        if (r.code !== 0) throw new Error(`codex ${args.join(' ')}: ${(r.stderr || r.stdout).slice(-500)}`);
      }
    },
    session: (bin, s) => runHarness(process.execPath, [bin, 'exec', '--skip-git-repo-check', '--json', '--dangerously-bypass-approvals-and-sandbox', '--dangerously-bypass-hook-trust', 'call the tool'], { cwd: s.project, env: codexEnv(s) }),
  },
};

/** @param {{ user: string }} s */
const codexEnv = (s) => ({ PATH: process.env.PATH ?? '', HOME: s.user, CODEX_HOME: path.join(s.user, '.codex'), FAKE_API_KEY: 'dummy' });

/**
 * A variant's folders: its own project, user folder and plugin, over the harness's one zot home;
 * the plugin's server loads the probe, which logs to `probe`.
 */
async function setUp(name, variant, home, calls) {
  const d = DRIVERS[name];
  const root = scratch(`harness-${d.key}-${variant}`);
  const project = path.join(root, 'project');
  const user = path.join(root, 'user');
  for (const x of [project, user]) fs.mkdirSync(x);
  // What the guarded tool reads: its text is checked in each of its results.
  const note = path.join(project, 'note.txt');
  fs.writeFileSync(note, `${NOTE}\n`);
  const written = path.join(root, 'plugin');
  execFileSync(process.execPath, [CLI, 'plugin', written, '--home', home, '--format', d.format, '--guard-hook', variant === 'command' ? 'command' : 'mcp'], { stdio: 'pipe' });
  const plugin = d.format === 'codex' ? path.join(written, 'zot-extensions') : written;
  const hooks = path.join(plugin, 'hooks', 'hooks.json');
  const pre = JSON.parse(fs.readFileSync(hooks, 'utf8')).hooks.PreToolUse[0];
  const kind = pre.hooks[0].type;
  if (kind !== (variant === 'command' ? 'command' : 'mcp_tool')) throw new Error(`${name} ${variant}: the plugin's PreToolUse hook is ${kind}`);
  if (variant === 'none' || variant === 'floor') fs.rmSync(hooks);
  // The floor: the plugin's hook as it was, with its matcher and input, calling the floor's server instead.
  let floor;
  if (variant === 'floor') {
    floor = path.join(root, 'floor-mcp.json');
    fs.writeFileSync(floor, JSON.stringify({ mcpServers: { floor: { command: process.execPath, args: [FLOOR] } } }));
    fs.mkdirSync(path.join(project, '.claude'));
    fs.writeFileSync(path.join(project, '.claude', 'settings.json'), JSON.stringify({ hooks: { PreToolUse: [{ ...pre, hooks: [{ ...pre.hooks[0], server: 'floor', tool: 'allow' }] }] } }));
  }
  const probe = path.join(root, 'probe.log');
  const mcpJson = path.join(plugin, '.mcp.json');
  const mcp = JSON.parse(fs.readFileSync(mcpJson, 'utf8'));
  mcp.mcpServers.zot.env = { ...mcp.mcpServers.zot.env, NODE_OPTIONS: `--require ${MCP_PROBE}`, ZOT_BENCH_PROBE: probe };
  fs.writeFileSync(mcpJson, JSON.stringify(mcp, null, 2));
  // One model for all of the variant's sessions: it keeps no state, each session's requests are its own slice. First a few
  // steps not timed: the tool once its server offers it (its first call in the session), a short wait in the shell until then.
  const warm = Array.from({ length: d.warm }, () => ({
    tool: (/** @type {string[]} */ names) => (names.includes(d.tool) ? d.tool : names.find((x) => x === d.shell.name)),
    input: (/** @type {string} */ name) => (name === d.tool ? { text: 'warm' } : d.shell.input),
  }));
  const script = [
    ...warm,
    ...Array.from({ length: calls }, (_, i) => ({ tool: (/** @type {string[]} */ names) => names.find((x) => x === d.tool), input: { text: `call ${i}` } })),
    ...Array.from({ length: calls }, () => ({ tool: (/** @type {string[]} */ names) => names.find((x) => x === d.guarded.name), input: d.guarded.input(note) })),
    { text: 'FINAL: done' },
  ];
  const model = await d.model(script);
  const s = { root, project, user, written, plugin, probe, model, floor };
  if (name === 'codex') {
    fs.mkdirSync(path.join(user, '.codex'));
    codexConfig(s, model.url);
  }
  return s;
}

/** The Codex user config: the fake as its model provider (Responses is the only wire it takes). */
function codexConfig(s, url) {
  const q = JSON.stringify;
  fs.writeFileSync(path.join(s.user, '.codex', 'config.toml'), ['model = "fake-model"', 'model_provider = "fake"', '[model_providers.fake]', 'name = "Fake"', `base_url = ${q(`${url}/v1`)}`,
    'wire_api = "responses"', 'env_key = "FAKE_API_KEY"', 'request_max_retries = 0', 'stream_max_retries = 0', ''].join('\n'));
}

/**
 * One session of `calls` tool calls; every call's result must reach the model. Resolves with
 * the samples and their split by the server's probe.
 */
async function session(name, bin, s, calls) {
  const d = DRIVERS[name];
  const from = s.model.requests.length;
  fs.writeFileSync(s.probe, '');
  const run = await d.session(bin, s, s.model.url);
  if (run.code !== 0) throw new Error(`${name} exited ${run.code}: ${(run.stderr || run.stdout).slice(-800)}`);
  const asks = s.model.requests.slice(from).filter((r) => (r.body.tools ?? []).length > 0);
  const served = probeLog(s.probe);
  const samples = [];
  const w = d.warm;
  if (!asks.some((r) => r.step < w && r.call === d.tool)) throw new Error(`${name}: the plugin's tool was not offered to the model within ${w} steps`);
  /**
   * The model's answer calling `tool` at `step` and its next request, whose result must hold `expect`; and what the
   * server answered between the two.
   */
  const timed = (step, tool, expect, what) => {
    const next = asks.find((r) => r.step === step + 1);
    const call = asks.filter((r) => r.step === step && r.call === tool && (!next || r.received < next.received)).pop();
    if (!call || !next) throw new Error(`${name}: the model was never asked for the step after ${what} (${asks.length} requests); ${name} said: ${(run.stderr || run.stdout).slice(-1500)}; the first request offered ${JSON.stringify(asks[0]?.body.tools?.map((t) => t.name))}`);
    const result = d.result(next, step + 1) ?? '';
    if (!result.includes(expect)) throw new Error(`${name}: ${what}'s result did not reach the model: ${JSON.stringify(result).slice(0, 300)}`);
    const within = served.filter((x) => x.received >= call.answered && x.answered <= next.received);
    return { ms: next.received - call.answered, call, next, hook: within.find((x) => x.name === 'zot_agent_hook'), tool: within.find((x) => x.name === 'echo_upper') };
  };
  for (let i = 0; i < calls; i++) {
    const { ms, call, next, hook, tool } = timed(w + i, d.tool, `CALL ${i}`, `the tool call ${i + 1}`);
    samples.push({
      ms,
      // The server's own time with the tool, and with the hook's call; the rest is the harness's.
      tool_ms: tool ? tool.answered - tool.received : null,
      hook_ms: hook ? hook.answered - hook.received : null,
      to_hook_ms: hook ? hook.received - call.answered : null,
      hook_to_tool_ms: hook && tool ? tool.received - hook.answered : null,
      to_tool_ms: tool ? tool.received - call.answered : null,
      after_tool_ms: tool ? next.received - tool.answered : null,
    });
  }
  // The harness's own tool: the guard's hook call is the server's only part in it.
  for (let i = 0; i < calls; i++) {
    const { ms, call, next, hook } = timed(w + calls + i, d.guarded.name, NOTE, `${d.guarded.name} call ${i + 1}`);
    samples.push({
      guarded: true,
      ms,
      to_hook_ms: hook ? hook.received - call.answered : null,
      hook_ms: hook ? hook.answered - hook.received : null,
      after_hook_ms: hook ? next.received - hook.answered : null,
    });
  }
  return samples;
}

/** Why a harness cannot be measured here, or undefined: no build for this machine, or not in the cache (the bench never installs it). */
export function harnessMissing(name) {
  const no = unsupported(name);
  if (no) return no;
  const { bin } = harnessPaths(name);
  const h = HARNESSES[name];
  return fs.existsSync(bin) ? undefined : `${h.npm}@${h.version} is not in the test cache (${bin}); a run of test/harness/*.test.mjs installs it (scripts/harness-env.mjs)`;
}

/**
 * Every harness that is here, `rounds` rounds of one session per variant each, `calls` calls a session (`commandCalls`
 * with the command hook, whose calls are long and only compared with).
 * @returns {Promise<{ figures: Record<string, any>, skipped: Record<string, string> }>}
 */
export async function harnessFigures({ rounds, calls, commandCalls, progress = () => {} }) {
  const figures = {};
  const skipped = {};
  const scenes = {};
  for (const name of Object.keys(DRIVERS)) {
    const why = harnessMissing(name);
    if (why) {
      skipped[DRIVERS[name].key] = why;
      continue;
    }
    const home = path.join(scratch(`harness-home-${DRIVERS[name].key}`), 'zot-home');
    for (const n of ['guard', 'node-nosdk']) fs.cpSync(path.join(COMPAT, n), path.join(home, 'extensions', n), { recursive: true });
    const { bin } = harnessPaths(name);
    scenes[name] = { bin, by: {} };
    for (const v of variantsOf(name)) {
      const n = v === 'command' ? commandCalls : calls;
      const s = await setUp(name, v, home, n);
      await DRIVERS[name].install(bin, s);
      scenes[name].by[v] = { s, calls: n, samples: [] };
    }
  }
  try {
    // A harness that fails is named, and the others go on.
    Object.assign(skipped, await takeTurns(scenes, rounds, progress));
  } finally {
    for (const { by } of Object.values(scenes)) for (const { s } of Object.values(by)) await s.model.close();
  }
  for (const [name, { by }] of Object.entries(scenes)) if (!skipped[DRIVERS[name].key]) figures[DRIVERS[name].key] = summarize(by, HARNESSES[name].version, DRIVERS[name].guarded.name);
  return { figures, skipped };
}

/**
 * Rounds of one session per harness and variant, the variants in a rotating order; resolves with why each harness
 * that failed did (it takes no more turns).
 */
async function takeTurns(scenes, rounds, progress) {
  /** @type {Record<string, string>} */
  const failed = {};
  for (let r = 0; r < rounds; r++) {
    for (const [name, { bin, by }] of Object.entries(scenes)) {
      const mine = variantsOf(name);
      const order = mine.map((_, i) => mine[(i + r) % mine.length]);
      for (const v of order) {
        if (failed[DRIVERS[name].key]) break;
        progress(`${name}, round ${r + 1} of ${rounds}: ${v}`);
        try {
          by[v].samples.push(...(await session(name, bin, by[v].s, by[v].calls)));
        } catch (err) {
          failed[DRIVERS[name].key] = `${v}: ${err instanceof Error ? err.message : String(err)}`;
        }
      }
    }
  }
  return failed;
}

/** Medians per variant, the ratios to no hook, and the split of each variant's time (medians, ms). */
function summarize(by, version, guardedTool) {
  const med = (xs) => median(xs.filter((x) => x !== null));
  /** A variant's samples of one kind: their median, count, the samples, and the median of each part of `split`. */
  const figures = (samples, split) => ({
    median: med(samples.map((x) => x.ms)),
    n: samples.length,
    samples: samples.map((x) => x.ms),
    split: Object.fromEntries(split.map((k) => [k, med(samples.map((x) => x[k]))]).filter(([, x]) => x !== null)),
  });
  const out = { version, guarded_tool: guardedTool, median_ms: {}, n: {}, split_ms: {}, samples_ms: {}, guarded_median_ms: {}, guarded_n: {}, guarded_split_ms: {}, guarded_samples_ms: {} };
  for (const [v, { samples }] of Object.entries(by)) {
    const zot = figures(samples.filter((x) => !x.guarded), ['to_hook_ms', 'hook_ms', 'hook_to_tool_ms', 'to_tool_ms', 'tool_ms', 'after_tool_ms']);
    const own = figures(samples.filter((x) => x.guarded), ['to_hook_ms', 'hook_ms', 'after_hook_ms']);
    for (const [kind, f] of [['', zot], ['guarded_', own]]) {
      out[`${kind}median_ms`][v] = f.median;
      out[`${kind}n`][v] = f.n;
      out[`${kind}samples_ms`][v] = f.samples;
      out[`${kind}split_ms`][v] = f.split;
    }
  }
  out.ratio = out.median_ms.mcp_tool / out.median_ms.none;
  out.command_ratio = out.median_ms.command / out.median_ms.none;
  out.guarded_ratio = out.guarded_median_ms.mcp_tool / out.guarded_median_ms.none;
  // zot's guard against the least an mcp_tool hook costs in the same harness.
  if (by.floor) out.guarded_floor_ratio = out.guarded_median_ms.mcp_tool / out.guarded_median_ms.floor;
  return out;
}

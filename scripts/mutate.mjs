#!/usr/bin/env node
// Mutation pass over every layer (protocol, host, MCP, CLI, and the VS Code
// layer through its unit tests): puts one realistic defect at a time into a
// copy of the repository, builds it, runs the tests of npm run test:host with
// a time bound and reports whether they caught it. Not part of npm test. Each
// mutant runs the test files that cover its module first; one that survives
// them runs every other such test file (unit, host, fidelity, VS Code unit,
// CLI, MCP) before it counts as survived, as a fresh set of defects written
// from outside is judged. The unmutated copy passes each set before a mutant
// is judged by it (the wider set only once a survivor needs it). A run that passes
// its bound is run again; one that hangs twice is reported as hung and counts
// as not caught. A mutant the bundler rejects is counted apart (the compiler
// caught it, not a test). One at a time, to spare the CPU.
//
//   node scripts/mutate.mjs                 every mutant
//   node scripts/mutate.mjs --only a,b      the named ones
//   node scripts/mutate.mjs --list          names and descriptions
//   node scripts/mutate.mjs --check         every snippet found exactly once, and each mutant's own tests
//                                           load its file (exit 1 naming those that do not)
//   node scripts/mutate.mjs --coverage-map  for each src module, the unit tests that load it
//                                           (scripts/coverage-map.mjs); those none loads, last
//
// A mutant whose snippet is no longer found exactly once is "not applicable":
// the code moved on, so its snippet needs updating, and it does not count.
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { coverageMap, loads } from './coverage-map.mjs';

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
/** Longest one run of a mutant's own test files may take before it counts as hung (and is killed). */
const RUN_BOUND_MS = 240_000;
/** The same for a run of every test file (npm run test:host takes about 5 minutes on 2 cores). */
const ALL_BOUND_MS = 900_000;
const TEST_FILES = ['test/protocol', 'test/host', 'test/fidelity', 'test/vscode-unit', 'test/cli', 'test/mcp'];

/**
 * name, file, snippet to find (exactly once), its replacement, what the defect means for a user,
 * and the test files that cover the module (run first; a survivor is re-run against every host test).
 */
const MUTANTS = [
  ['queued-cancel-delivered', 'src/host/connection/requests.ts', "if (where === 'written') return false;", "if (where !== 'stuck') return false;", 'a cancel or timeout of a call still queued is treated as delivered (tool_cancel for an unseen id, canceled instead of not_run)', ['test/host/delivery.test.mjs', 'test/host/calls.test.mjs']],
  ['queued-frame-kept', 'src/host/connection/transport.ts', "if (ticket.state === 'queued') {", "if (ticket.state === ('never' as string)) {", 'taking back a queued frame leaves it in the queue, so it is sent anyway', ['test/host/delivery.test.mjs', 'test/host/calls.test.mjs']],
  ['wire-id-reused-after-settle', 'src/host/connection/requests.ts', 'const id = nextId();', 'const id = String(this.pending.size + 1);', 'wire ids counted from what is pending, so an id is reused while an earlier call with it is still pending (two calls share one wire id)', ['test/host/delivery.test.mjs', 'test/host/calls.test.mjs']],
  ['deadline-timer-not-rearmed', 'src/host/connection/requests.ts', 'if (next < Infinity && next < this.timerAt) this.arm(next);', '', 'after the earliest deadline fires, later deadlines of calls still pending are never armed (they wait forever)', ['test/host/calls.test.mjs', 'test/host/delivery.test.mjs']],
  ['partial-write-taken-as-whole', 'src/host/connection/transport.ts', 'return stdin.writableLength === 0;', 'return true;', 'a frame the pipe has not taken whole counts as delivered, so what is sent after it is written behind it and cannot be taken back', ['test/host/delivery.test.mjs', 'test/host/calls.test.mjs']],
  ['burst-written-frame-by-frame', 'src/host/connection/transport.ts', 'if (this.readsAtWrite === this.reads) {', 'if (false) {', 'frames sent together are each written at once, so a call cancelled in the same tick as it was made has reached the extension already', ['test/host/delivery.test.mjs', 'test/host/calls.test.mjs']],
  ['bound-panels-outlive-call', 'src/host/ui/panels.ts', '      for (const p of [...b.panels]) this.closeFromHost(p);\n', '', 'a panel bound to a tool call stays open after the call ends', ['test/host/ui.test.mjs', 'test/host/samples.test.mjs']],
  ['unbound-panel-takes-any-call', 'src/host/ui/panels.ts', '.filter((c) => c.spec.interactive && !this.bound.get(c.id)?.panels.size);', '.filter((c) => !this.bound.get(c.id)?.panels.size);', 'a panel that names no call binds to a call of a tool that is not interactive', ['test/host/ui.test.mjs', 'test/host/samples.test.mjs']],
  ['no-write-timeout', 'src/host/connection/transport.ts', 'if (waited >= this.opts.writeTimeoutMs) {', 'if (false) {', 'an extension that stops reading is never given up', ['test/host/calls.test.mjs', 'test/host/delivery.test.mjs']],
  ['default-restart-budget-40', 'src/host/options.ts', 'restartMax: 4,', 'restartMax: 40,', 'the default restart budget raised from 4 to 40', ['test/host/timings.test.mjs']],
  ['restart-budget-off-by-one', 'src/host/extension/restartPolicy.ts', 'if (crashes.length > b.max) return', 'if (crashes.length >= b.max) return', 'one restart fewer than the budget', ['test/host/timings.test.mjs', 'test/host/lifecycle.test.mjs']],
  ['no-backoff', 'src/host/extension/restartPolicy.ts', 'Math.min(b.baseDelayMs * 2 ** (crashes.length - 1), b.maxDelayMs)', 'Math.min(b.baseDelayMs, b.maxDelayMs)', 'restarts without exponential backoff', ['test/host/timings.test.mjs', 'test/host/lifecycle.test.mjs']],
  ['backoff-uncapped', 'src/host/extension/restartPolicy.ts', 'Math.min(b.baseDelayMs * 2 ** (crashes.length - 1), b.maxDelayMs)', 'b.baseDelayMs * 2 ** (crashes.length - 1)', 'the restart delay is not capped at its maximum', ['test/host/timings.test.mjs', 'test/host/lifecycle.test.mjs']],
  ['restart-after-requested-stop', 'src/host/extension/runtime.ts', "if (this.live !== l || s.kind === 'stopping') return;", 'if (this.live !== l) return;', 'an extension that exits while it is being stopped is restarted as if it had crashed', ['test/host/lifecycle.test.mjs', 'test/host/timings.test.mjs', 'test/host/samples.test.mjs']],
  ['stop-ladder-sigterm-for-sigkill', 'src/host/process/child.ts', "this.note(STOP_WORDS.force);\n          killTree(this.pid, true);", "this.note(STOP_WORDS.force);\n          killTree(this.pid, false);", "the stop ladder's SIGKILL turned into a second SIGTERM", ['test/host/timings.test.mjs', 'test/host/lifecycle.test.mjs']],
  ['no-sigkill-for-leftovers', 'src/host/process/treeKill.ts', '  killTree(pid, true);\n  return waitTreeGone(pid, 2000);', '  return waitTreeGone(pid, 2000);', 'what is left of a process tree after SIGTERM is never sent SIGKILL', ['test/host/timings.test.mjs', 'test/host/lifecycle.test.mjs']],
  ['no-shutdown-grace', 'src/host/process/child.ts', 'if (!(await this.waitExit(shutdownGraceMs))) {', 'if (!(await this.waitExit(0))) {', 'SIGTERM at once after shutdown, without the grace', ['test/host/samples.test.mjs', 'test/host/lifecycle.test.mjs', 'test/host/timings.test.mjs']],
  ['kill-delay-5x', 'src/host/process/child.ts', 'if (!(await this.waitExit(killAfterMs))) {', 'if (!(await this.waitExit(killAfterMs * 5))) {', 'SIGKILL five times later than configured', ['test/host/timings.test.mjs', 'test/host/lifecycle.test.mjs']],
  ['second-stop-not-forced', 'src/host/process/child.ts', '      this.force();\n      return this.stopping;', '      return this.stopping;', 'stopping again while a stop is under way does not kill the tree at once (the ladder runs its full course)', ['test/host/lifecycle.test.mjs', 'test/host/timings.test.mjs']],
  ['oversized-line-buffered', 'src/protocol/lineSplitter.ts', '} else if (this.pendingBytes + size > this.maxLineBytes) {', '} else if (false) {', 'an oversized line without newline is buffered whole instead of discarded (and passed on at end of stream)', ['test/protocol/lineBounds.test.mjs', 'test/protocol/lineSplitter.test.mjs', 'test/host/frames.test.mjs']],
  ['oversized-tail-unreported', 'src/protocol/lineSplitter.ts', 'if (this.discarded >= 0) {\n      this.sink.oversized(this.discarded, this.discardedHead);\n    } else if', 'if (this.discarded >= 0) {\n    } else if', 'an over-limit last line at end of stream is dropped without a word', ['test/protocol/lineBounds.test.mjs', 'test/protocol/lineSplitter.test.mjs', 'test/host/frames.test.mjs']],
  ['cr-kept', 'src/protocol/lineSplitter.ts', 'end > start && bytes[end - 1] === CR ? end - 1 : end', 'end', 'a CRLF line keeps its CR', ['test/protocol/lineSplitter.test.mjs', 'test/host/frames.test.mjs']],
  ['default-line-limit-1mib', 'src/protocol/lineSplitter.ts', 'DEFAULT_MAX_LINE_BYTES = 8 * 1024 * 1024', 'DEFAULT_MAX_LINE_BYTES = 1024 * 1024', 'frames over 1 MiB (zot allows 4 MiB) are dropped', ['test/protocol/lineSplitter.test.mjs', 'test/host/frames.test.mjs']],
  ['cli-timeout-0', 'src/cli/args.ts', 'n <= 0) throw new UsageError', 'n < 0) throw new UsageError', 'zot-host --timeout 0 accepted (no deadline)', ['test/cli/timeout-option.test.mjs', 'test/cli/cli.test.mjs']],
  ['cli-usage-exit-1', 'src/cli/main.ts', 'return e.message ? 2 : 0;', 'return e.message ? 1 : 0;', 'a usage error exits 1 like a failed call', ['test/cli/cli.test.mjs', 'test/cli/timeout-option.test.mjs']],
  ['headless-runs-interactive', 'src/host/agent/agentPath.ts', 'if (interactive && !(panelUi?.interactive ?? this.interactive())) {', 'if (false) {', 'a headless host runs interactive tools (nobody can answer them)', ['test/cli/timeout-option.test.mjs', 'test/mcp/mcp.test.mjs']],
  ['interactive-gets-default-deadline', 'src/host/agent/agentPath.ts', '(interactive ? 0 : this.timing.toolTimeoutMs)', 'this.timing.toolTimeoutMs', 'an interactive tool (waiting for the user) times out after the tool deadline', ['test/host/calls.test.mjs', 'test/host/samples.test.mjs', 'test/host/ui.test.mjs']],
  ['args-checked-after-announce', 'src/host/agent/agentPath.ts', "  const bad = badArgs(args);\n  if (bad) return { cleared: false, reason: bad };\n  const toolArgs = (args ?? {}) as JsonObject;\n  if (!announced) guards.emit('tool_call', { tool_id: toolId, tool_name: name, tool_args: toolArgs }, origin);\n", "  const toolArgs = (args ?? {}) as JsonObject;\n  if (!announced) guards.emit('tool_call', { tool_id: toolId, tool_name: name, tool_args: toolArgs }, origin);\n  const bad = badArgs(args);\n  if (bad) return { cleared: false, reason: bad };\n", 'a tool call whose arguments cannot be sent is announced to the guards before it is refused', ['test/host/agent-turn.test.mjs']],
  ['intercepts-misses-a-guard', 'src/host/agent/agentPath.ts', 'return rt.intercepts.has(event) && isServing(rt.status);', 'return rt.intercepts.has(event) && !isServing(rt.status);', 'a tool call skips its intercepts as though no extension guarded it, and intercept() asks none', ['test/host/events.test.mjs']],
  ['intercept-block-ignored', 'src/host/agent/agentPath.ts', 'if (answer.block) return', 'if (answer.block && false) return', 'an intercept that blocks is ignored', ['test/host/events.test.mjs']],
  ['default-hello-1s', 'src/host/options.ts', 'helloTimeoutMs: 10_000,', 'helloTimeoutMs: 1_000,', 'the default hello wait cut from 10 s to 1 s', ['test/host/timings.test.mjs', 'test/host/hello-bound.test.mjs']],
  ['default-auto-ready-2500', 'src/host/options.ts', 'autoReadyMs: 250,', 'autoReadyMs: 2_500,', 'auto-ready after 2.5 s instead of 250 ms', ['test/host/timings.test.mjs']],
  ['default-tool-timeout-none', 'src/host/options.ts', 'toolTimeoutMs: 60_000,', 'toolTimeoutMs: 0,', 'tool calls get no deadline by default', ['test/host/timings.test.mjs']],
  ['default-stop-grace-20s', 'src/host/options.ts', 'shutdownGraceMs: 2_000,', 'shutdownGraceMs: 20_000,', 'the default shutdown grace raised from 2 s to 20 s', ['test/host/timings.test.mjs']],
  ['tool-cancel-to-everyone', 'src/host/extension/runtime.ts', 'args, opts, this.supportsCancel)', 'args, opts, true)', 'tool_cancel sent to extensions that did not list it', ['test/host/calls.test.mjs', 'test/host/delivery.test.mjs']],
  ['pending-not-failed-on-crash', 'src/host/extension/runtime.ts', '    l.requests.closeAll(l.process.exit ?? `closed its connection (${reason})`);\n', '', 'calls pending on a crashed extension wait for their timeout', ['test/host/calls.test.mjs']],
  ['late-reply-is-problem', 'src/host/extension/reading.ts', 'if (!l.requests.answer(frame.id, frame)) rt.lateReply();', "if (!l.requests.answer(frame.id, frame)) rt.addProblem('a reply for no pending call');", 'late replies reported as problems', ['test/host/calls.test.mjs']],
  ['error-frame-not-matched', 'src/host/extension/reading.ts', 'if (frame.id === undefined || !l.requests.answer(frame.id, frame as ReplyFrame))', 'if (frame.id === undefined || true)', 'an error frame naming a pending call leaves the call waiting for its deadline', ['test/host/calls.test.mjs', 'test/host/frames.test.mjs']],
  ['no-hello-timeout', 'src/host/extension/reading.ts', 'if (rt.live !== l || l.gotHello) return;', 'return;', 'an extension that never says hello is never failed', ['test/host/lifecycle.test.mjs', 'test/host/hello-bound.test.mjs']],
  ['min-protocol-ignored', 'src/host/extension/reading.ts', 'if (needs > PROTOCOL_VERSION) {', 'if (needs < 0) {', 'an extension that needs a higher protocol level is loaded anyway, and each of its requests may wait out its SDK\'s timeout', ['test/host/terva.test.mjs', 'test/cli/terva.test.mjs']],
  ['terva-request-unanswered', 'src/host/terva/link.ts', 'if (route.live()) route.send(a);', 'if (route.live()) void a;', 'a terva request is never answered: the extension waits 30 s for each', ['test/host/terva.test.mjs', 'test/host/family.test.mjs']],
  ['withdrawn-still-offered', 'src/host/registry/registry.ts', 'withdrawn: rt.withdrawn.has(t.name)', 'withdrawn: false', 'a tool its extension withdrew is still offered to the model and still callable', ['test/host/family.test.mjs']],
  ['context-wrapper-unescaped', 'src/host/tervaContext.ts', ".replace(/</g, '&lt;')", '', 'an extension\'s model context can close its wrapper and pose as the host\'s', ['test/host/family.test.mjs']],
  ['secret-value-traced', 'src/host/connection/traceMask.ts', "(SECRET_FRAMES.has(f.type) || /secret/i.test(f.type))", 'false', 'a secret\'s value is written in the verbose protocol trace', ['test/host/family.test.mjs']],
  ['no-session-end', 'src/host/agent/lifecycle.ts', "    this.emit('session_end', { ...ending.identity, reason });\n", '', 'a session ends without session_end, so an extension never learns its session closed', ['test/host/family.test.mjs', 'test/vscode-unit/chat-family.test.mjs']],
  ['config-update-unchanged', 'src/host/terva/link.ts', 'if (!config || json === this.told) return undefined;', 'if (!config) return undefined;', 'every settings change of any extension sends config_update to each subscriber, changed or not', ['test/host/family.test.mjs']],
  ['user-message-rewrite-dropped', 'src/host/agent/agentPath.ts', "(event === 'assistant_message' || event === 'user_message')", "event === 'assistant_message'", 'a user_message interceptor\'s rewrite never reaches the model', ['test/host/family.test.mjs']],
  ['essential-not-first', 'src/vscode/chat/toolChoice.ts', '    if (x.t.essential === true) return [-1, x.i];\n', '', 'an essential tool can be left out of a request that cannot carry every tool', ['test/vscode-unit/chat.test.mjs']],
  ['bootstrap-keeps-deadline', 'src/host/extension/reading.ts', "rt.transition({ kind: 'starting', launch: l, bootstrap: text });\n  armHello(rt, l);", "rt.transition({ kind: 'starting', launch: l, bootstrap: text });", 'a bootstrap line does not restart the hello wait: a launcher that builds longer than the wait fails', ['test/host/terva.test.mjs']],
  ['auto-ready-not-rearmed', 'src/host/extension/reading.ts', '  if (l.autoReadyTimer.armed) armAutoReady(rt, l);\n', '', 'an extension still registering is declared auto-ready 250 ms after hello', ['test/host/lifecycle.test.mjs', 'test/host/timings.test.mjs']],
  ['validate-array-as-object', 'src/protocol/validate.ts', "if (typeof value !== 'object' || value === null || Array.isArray(value)) {", "if (typeof value !== 'object' || value === null) {", 'a JSON array line taken as a frame object', ['test/protocol/validate.test.mjs', 'test/host/frames.test.mjs']],
  ['mcp-error-flag-lost', 'src/mcp/shared/tools.ts', 'return { isError: o.isError, content, ...structured };', 'return { isError: false, content, ...structured };', 'a tool error reaches the MCP client as a success', ['test/mcp/mcp.test.mjs', 'test/mcp/mcp-http.test.mjs']],
  // protocol: text safety and validation
  ['bidi-controls-shown', 'src/protocol/text.ts', "const UNSAFE = /[\\u0000-\\u0008\\u000b-\\u001f\\u007f-\\u009f\\u061c\\u200e\\u200f\\u202a-\\u202e\\u2066-\\u2069]/g;", "const UNSAFE = /[\\u0000-\\u0008\\u000b-\\u001f\\u007f-\\u009f]/g;", 'bidi controls in an extension\'s text reach the terminal as they are (text can be shown reordered)', ['test/protocol/bounds.test.mjs', 'test/cli/hostile.test.mjs']],
  ['single-line-keeps-newline', 'src/protocol/text.ts', "return terminalSafe(text).replace(/[\\n\\t]/g, escapeOne);", "return terminalSafe(text).replace(/[\\t]/g, escapeOne);", 'a one-line field (a name, a description) may break the line it is printed on', ['test/protocol/bounds.test.mjs', 'test/cli/hostile.test.mjs']],
  // host: the agent turn
  ['turn-start-after-intercept', 'src/host/turn/agentTurn.ts', "    host.emit('turn_start', { step: steps });\n    const turn = await host.intercept('turn_start', { step: steps });", "    const turn = await host.intercept('turn_start', { step: steps });\n    host.emit('turn_start', { step: steps });", 'turn_start interceptors are asked before the event goes out (zot sends the event first)', ['test/host/agent-turn.test.mjs', 'test/fidelity/chat.test.mjs']],
  ['calls-only-no-assistant-message', 'src/host/turn/agentTurn.ts', "    else if (step.calls.length) host.emit('assistant_message', {});", '', 'a reply of tool calls only sends no assistant_message (zot sends one without text)', ['test/host/agent-turn.test.mjs', 'test/fidelity/chat.test.mjs']],
  ['turn-end-before-announce', 'src/host/turn/agentTurn.ts', "    for (const call of step.calls) host.announceToolCall(call.id, call.name, call.input);\n    stepEnd(step.calls.length ? 'tool_use' : 'end');", "    stepEnd(step.calls.length ? 'tool_use' : 'end');\n    for (const call of step.calls) host.announceToolCall(call.id, call.name, call.input);", 'turn_end goes out before the step\'s tool_call events (zot announces the calls first)', ['test/host/agent-turn.test.mjs', 'test/fidelity/chat.test.mjs']],
  ['cut-short-text-dropped', 'src/host/turn/agentTurn.ts', '      if (step.text && step.calls.length === 0) view.cutShort?.(step.text);\n', '', 'a reply cut short by Stop loses the text the model had written', ['test/host/agent-turn.test.mjs', 'test/fidelity/chat.test.mjs']],
  ['rest-of-step-unanswered', 'src/host/turn/agentTurn.ts', "          const never: EndedCall = { call: rest, outcome: NEVER_STARTED_OUTCOME, byStop: true, neverStarted: true };\n          ended.push(never);", "          const never: EndedCall = { call: rest, outcome: NEVER_STARTED_OUTCOME, byStop: true, neverStarted: true };", 'after Stop, calls of the same step that never started get no ending in the conversation (the next request is malformed)', ['test/host/agent-turn.test.mjs', 'test/fidelity/chat.test.mjs']],
  ['assistant-rewrite-ignored', 'src/host/turn/agentTurn.ts', "  const shown = verdict.payload.text ?? text;", "  const shown = text;", 'an assistant_message interceptor\'s rewrite is not what is shown', ['test/host/agent-turn.test.mjs', 'test/fidelity/chat.test.mjs']],
  ['max-steps-one-more', 'src/host/turn/agentTurn.ts', '  while (steps < opts.maxSteps) {', '  while (steps <= opts.maxSteps) {', 'a request runs one model step more than its limit', ['test/host/agent-turn.test.mjs', 'test/fidelity/chat.test.mjs']],
  // host: calls, late replies, slash commands
  ['late-reply-never-seen', 'src/host/connection/requests.ts', "      if (a && !a.replied) {\n        a.replied = true;", "      if (a && !a.replied && false) {\n        a.replied = true;", 'an answer after Stop is never recognised as late (the call reads as cut off, not as finished)', ['test/host/agent-turn.test.mjs', 'test/host/calls.test.mjs', 'test/vscode-unit/chat.test.mjs']],
  ['slash-failure-silent', 'src/host/agent/commands.ts', "if (o.outcome !== 'completed' && o.outcome !== 'canceled' && o.outcome !== 'abandoned') await ui.notify(from, 'error',", "if (o.outcome === ('never' as string)) await ui.notify(from, 'error',", 'a submit_slash whose command fails says nothing to the user', ['test/host/ui.test.mjs', 'test/fidelity/host.test.mjs']],
  ['slash-unknown-silent', 'src/host/agent/commands.ts', "    if (!this.registry.command(name)) return ui.notify(from, 'warn', `asked to run /${name}, but no running extension provides that command`);", "    if (!this.registry.command(name)) return;", 'a submit_slash naming no command is dropped without a word', ['test/host/ui.test.mjs', 'test/fidelity/host.test.mjs']],
  ['outcome-label-first-underscore', 'src/host/results/outcomes.ts', "  return outcome.replace(/_/g, ' ');", "  return outcome.replace('_', ' ').replace('not run', 'not_run');", 'an ending is shown as "not_run" instead of "not run"', ['test/host/calls.test.mjs', 'test/cli/cli.test.mjs', 'test/vscode-unit/chat.test.mjs']],
  ['format-ms-minutes', 'src/host/results/outcomes.ts', "  if (ms >= 60_000 && ms % 60_000 === 0) return `${ms / 60_000} min`;\n", '', 'a whole number of minutes is said in seconds ("120 s", not "2 min")', ['test/host/timings.test.mjs', 'test/host/calls.test.mjs', 'test/cli/cli.test.mjs']],
  // host: registry, discovery, scaffold
  ['tool-shadow-last-wins', 'src/host/registry/registry.ts', "        const winner = idx.toolIndex.get(t.name);", "        const winner = undefined as { rt: ExtensionRuntime } | undefined;", 'two extensions with one tool name: both are active (the later one silently takes the name)', ['test/host/registry.test.mjs', 'test/host/discovery.test.mjs']],
  ['shadow-said-every-time', 'src/host/registry/registry.ts', "    if (this.reportedShadows.has(key)) return;\n", '', 'a shadowed command is reported again at every registry change', ['test/host/registry.test.mjs', 'test/host/discovery.test.mjs']],
  ['init-name-keeps-case', 'src/host/scaffold/index.ts', "return path.basename(path.resolve(dir)).toLowerCase();", "return path.basename(path.resolve(dir));", 'init in a folder named with capitals refuses instead of using the lower-case name', ['test/cli/init.test.mjs']],
  ['init-tool-name-dashes', 'src/host/scaffold/index.ts', "  const snake = name.replace(/-/g, '_');", "  const snake = name;", 'the scaffolded tool of "my-ext" is named with dashes, not my_ext_reverse', ['test/cli/init.test.mjs']],
  // host: trust, consent, fingerprint
  ['consent-changed-starts', 'src/vscode/trust/consent.ts', "  if (r.fingerprint !== input.fingerprint) return { kind: 'hold', hold: 'changed', reason: REASON_CHANGED, ask: true, canAllow: true };\n", '', 'an allowed extension whose code changed starts without asking again', ['test/vscode-unit/consent.test.mjs', 'test/vscode-unit/pure-modules.test.mjs']],
  ['denied-asks-again', 'src/vscode/trust/consent.ts', "{ kind: 'hold', hold: 'denied', reason: REASON_DENIED, ask: false, canAllow: true }", "{ kind: 'hold', hold: 'denied', reason: REASON_DENIED, ask: true, canAllow: true }", 'an extension the user chose "Don\'t Allow" for asks again at every start', ['test/vscode-unit/consent.test.mjs', 'test/vscode-unit/pure-modules.test.mjs']],
  ['untracked-executable-is-data', 'src/vscode/trust/fingerprint.ts', '  if (mode & 0o111) return true;\n', '', 'an untracked executable without a code suffix can change without consent being asked again', ['test/vscode-unit/consent.test.mjs', 'test/vscode-unit/pure-modules.test.mjs']],
  ['lockfile-is-data', 'src/vscode/trust/fingerprint.ts', "  'extension.json', 'package.json', 'package-lock.json', 'npm-shrinkwrap.json',", "  'extension.json', 'package.json', 'npm-shrinkwrap.json',", 'an untracked package-lock.json (which decides what npm installs) changes without consent being asked again', ['test/vscode-unit/consent.test.mjs', 'test/vscode-unit/pure-modules.test.mjs']],
  ['site-packages-is-data', 'src/vscode/trust/fingerprint.ts', "const CODE_FOLDERS = new Set(['node_modules', 'site-packages',", "const CODE_FOLDERS = new Set(['node_modules',", 'a file under site-packages (Python dependencies) changes without consent being asked again', ['test/vscode-unit/consent.test.mjs', 'test/vscode-unit/pure-modules.test.mjs']],
  ['code-suffix-case', 'src/vscode/trust/fingerprint.ts', 'CODE_SUFFIXES.has(path.extname(base).toLowerCase())', 'CODE_SUFFIXES.has(path.extname(base))', 'an untracked HELPER.PY or RUN.SH counts as data, not code', ['test/vscode-unit/consent.test.mjs', 'test/vscode-unit/pure-modules.test.mjs']],
  // host: watch
  ['watch-venv-churn', 'src/host/discovery/folderWatch.ts', "const IGNORED_DIRS = new Set(['node_modules', '.git', '__pycache__', '.venv', 'venv', '.mypy_cache', '.pytest_cache']);", "const IGNORED_DIRS = new Set(['node_modules', '.git', '__pycache__', '.mypy_cache', '.pytest_cache']);", 'pip installing into the extension\'s .venv restarts it under watch', ['test/host/pure-modules.test.mjs', 'test/cli/watch.test.mjs']],
  ['watch-swap-files', 'src/host/discovery/folderWatch.ts', "/\\.(swp|swx|swo|tmp|partial)$/.test(base)", "/\\.(swx|swo|tmp|partial)$/.test(base)", 'a vim swap file restarts a watched extension', ['test/host/pure-modules.test.mjs', 'test/cli/watch.test.mjs']],
  ['watch-storm-never-pauses', 'src/host/discovery/folderWatch.ts', 'export const MAX_STORM_REPORTS = 8;', 'export const MAX_STORM_REPORTS = 8_000;', 'a file rewritten in a loop restarts a watched extension without end', ['test/cli/watch.test.mjs', 'test/cli/defects.test.mjs']],
  ['watch-storm-only-after-a-restart', 'src/host/discovery/folderWatch.ts', 'w.followsOn = w.reacting > 0 || (', 'w.followsOn = (', 'a file written while its extension restarts does not count towards the storm, so a slow restart never pauses', ['test/host/folder-watch.test.mjs']],
  // host: panels, redaction
  ['panels-per-call-5', 'src/host/ui/panelBudget.ts', 'export const MAX_PANELS_PER_CALL = 4;', 'export const MAX_PANELS_PER_CALL = 5;', 'one tool call may open five panels at once, not four', ['test/host/hardening.test.mjs', 'test/host/ui.test.mjs']],
  ['panel-refusal-said-every-time', 'src/host/ui/panelBudget.ts', '      if (this.refusing.has(extension)) return { ok: false };\n', '', 'every refused panel of a flood is a problem of its own (not one per flood)', ['test/host/hardening.test.mjs', 'test/host/ui.test.mjs']],
  ['panel-refusal-said-once-ever', 'src/host/ui/panelBudget.ts', '    this.refusing.delete(extension);\n', '', 'a second flood of panels, after one was admitted again, is refused without a word', ['test/host/hardening.test.mjs', 'test/host/ui.test.mjs']],
  ['redact-short-secrets', 'src/host/connection/redact.ts', 'export const MIN_SECRET_LENGTH = 8;', 'export const MIN_SECRET_LENGTH = 3;', 'short values of secret-named variables are redacted everywhere (ordinary words vanish from the trace)', ['test/cli/trace.test.mjs', 'test/host/hardening.test.mjs']],
  ['redact-upper-hex-missed', 'src/host/connection/redact.ts', "(/[a-f]/.test(h) ? `[${h}${h.toUpperCase()}]` : h)", "h", 'a secret written with upper-case \\u escapes (Go, Java) is not redacted', ['test/cli/trace.test.mjs', 'test/host/hardening.test.mjs']],
  ['redact-shortest-first', 'src/host/connection/redact.ts', '.sort((a, b) => b.length - a.length);', '.sort((a, b) => a.length - b.length);', 'a secret that is a prefix of another leaves the longer one\'s tail in the trace', ['test/cli/trace.test.mjs', 'test/host/hardening.test.mjs']],
  ['redact-env-name-key', 'src/host/connection/redact.ts', 'const SECRET_NAME = /TOKEN|SECRET|PASSWORD|PASSWD|API_?KEY|PRIVATE|CREDENTIAL|AUTH/i;', 'const SECRET_NAME = /TOKEN|SECRET|PASSWORD|PASSWD|PRIVATE|CREDENTIAL|AUTH/i;', 'OPENAI_API_KEY and the like are written to the trace in clear', ['test/cli/trace.test.mjs', 'test/host/hardening.test.mjs']],
  // mcp
  ['mcp-evicts-busy-session', 'src/mcp/era2025/sessions.ts', "if (entry[1].calls === 0 && (!oldest || entry[1].lastMessage < oldest[1].lastMessage)) oldest = entry;", "if (!oldest || entry[1].lastMessage < oldest[1].lastMessage) oldest = entry;", 'at the session cap, a session with a call in flight is closed to make room', ['test/mcp/mcp-http-guard.test.mjs', 'test/mcp/mcp-http.test.mjs']],
  ['mcp-evicts-newest', 'src/mcp/era2025/sessions.ts', 'entry[1].lastMessage < oldest[1].lastMessage)', 'entry[1].lastMessage > oldest[1].lastMessage)', 'at the session cap, the most recently used session is closed instead of the longest idle', ['test/mcp/mcp-http-guard.test.mjs', 'test/mcp/mcp-http.test.mjs']],
  ['mcp-bearer-case', 'src/mcp/shared/http.ts', 'const match = /^bearer +(\\S+) *$/i.exec(', 'const match = /^Bearer +(\\S+) *$/.exec(', 'a client that writes the scheme as "bearer" is refused (RFC 7235: case-insensitive)', ['test/mcp/mcp-http-guard.test.mjs', 'test/mcp/mcp-http.test.mjs']],
  ['mcp-origin-any', 'src/mcp/shared/http.ts', "  if (origin !== undefined && !origins.includes(origin.toLowerCase())) return", "  if (origin === '\\0') return", 'a request from a web page on another origin is served (DNS rebinding, drive-by calls)', ['test/mcp/mcp-http-guard.test.mjs', 'test/mcp/mcp-http.test.mjs']],
  ['mcp-body-limit-off-by-one', 'src/mcp/shared/http.ts', '      if (size <= limit) {', '      if (size < limit) {', 'a request body of exactly the limit is refused', ['test/mcp/mcp-http-guard.test.mjs']],
  ['mcp-name-table-per-call', 'src/mcp/shared/toolNames.ts', '  let table = byKind.get(key);', '  let table: ToolNameTable<ToolEntry> | undefined;', 'every MCP tool call and hook request builds the whole tool-name table again (twice on a miss)', ['test/mcp/mcp-http.test.mjs']],
  ['mcp-name-map-takes-real', 'src/mcp/shared/toolNames.ts', "    if (!MCP_TOOL_NAME.test(t.name)) others.push(t);\n    else if (!claim(t, t.name)) served.set(t.name, t);", "    others.push(t);", 'a tool whose name needed mapping can take the name of a tool that has it rightly', ['test/cli/hostile.test.mjs', 'test/mcp/mcp.test.mjs']],
  // cli
  ['cli-port-range', 'src/cli/args.ts', "Number(v) > 65535) throw new UsageError", "Number(v) > 655350) throw new UsageError", 'zot-host mcp --http --port 70000 is accepted', ['test/cli/cli.test.mjs', 'test/mcp/mcp-http-cli.test.mjs']],
  ['cli-http-without-mcp', 'src/cli/args.ts', "  if (http && verb !== 'mcp') throw new UsageError('--http is an option of mcp');\n", '', 'zot-host doctor --http is accepted and ignored', ['test/cli/cli.test.mjs', 'test/mcp/mcp-http-cli.test.mjs']],
  // vscode layer, through its unit tests
  ['tool-choice-recent-before-named', 'src/vscode/chat/toolChoice.ts', '    return r !== undefined ? [1, r] : [2, x.i];', '    return r !== undefined ? [-1, r] : [2, x.i];', '@zot sends recently used tools before those of the extension the prompt names', ['test/vscode-unit/chat.test.mjs']],
  ['tool-choice-substring', 'src/vscode/chat/toolChoice.ts', "return new RegExp(`(^|[^A-Za-z0-9_-])${escaped}($|[^A-Za-z0-9_-])`, 'i').test(prompt);", "return new RegExp(escaped, 'i').test(prompt);", 'a prompt saying "todos" counts as naming the extension "todo"', ['test/vscode-unit/chat.test.mjs']],
  ['tool-choice-at-limit', 'src/vscode/chat/toolChoice.ts', '  if (tools.length <= max) return { chosen: [...tools], left: [], named: [] };', '  if (tools.length < max) return { chosen: [...tools], left: [], named: [] };', 'exactly as many tools as fit are reordered (recent first) instead of sent in registry order', ['test/vscode-unit/chat.test.mjs']],
  ['cursor-several-marks', 'src/protocol/cursor.ts', '    if (found >= 0) return -1;\n', '', 'a panel with two marked lines shows the last as its cursor', ['test/vscode-unit/panels.test.mjs']],
  ['webview-key-unchecked', 'src/protocol/pageContract.ts', "      if (typeof o.key !== 'string' || !(PANEL_KEYS as readonly string[]).includes(o.key)) return undefined;", "      if (typeof o.key !== 'string') return undefined;", 'a page can send the extension any key name, not only panel keys', ['test/vscode-unit/panels.test.mjs']],
  ['webview-resize-nan', 'src/protocol/pageContract.ts', ' && Number.isFinite(o.width) && Number.isFinite(o.height)', '', 'a resize with an infinite width is passed on', ['test/vscode-unit/panels.test.mjs']],
  ['webview-mark-move-spoken', 'src/protocol/pageContract.ts', '.filter((i) => unmarked(shown[i]) !== unmarked(lines[i]))', '.filter((i) => shown[i] !== lines[i])', 'a screen reader hears every line whose cursor mark moved, as if its text had changed', ['test/vscode-unit/panels.test.mjs', 'test/vscode-unit/panel-widgets.test.mjs']],
  // panels inline in the chat (MCP Apps)
  ['apps-input-unchecked', 'src/protocol/pageContract.ts', '    const m = fromWebview(raw);', '    const m = raw as ReturnType<typeof fromWebview>;', 'a view\'s messages reach the panel unchecked: any key name, an empty action, a resize of words', ['test/mcp/mcp-apps.test.mjs']],
  ['apps-no-fallback', 'src/mcp/shared/apps.ts', '      for (const p of open) (fallback ? void Promise.resolve(fallback.openPanel(p)).catch(() => p.dismiss()) : p.dismiss());', '      for (const p of open) p.dismiss();', 'a client with Apps that shows no view has every interactive call closed, though it could answer a form', ['test/mcp/mcp-apps.test.mjs']],
  ['apps-view-lost-render-partial', 'src/mcp/shared/apps.ts', '  if (w.sent?.version !== after || w.sent.uid !== p.uid) w.page.forget();', '  if (w.sent !== undefined && w.sent.uid !== p.uid) w.page.forget();', 'a view that does not have the last render sent (reloaded, or its answer lost) gets only the lines that changed since: it shows lines it never got as blank', ['test/mcp/mcp-apps.test.mjs']],
  ['apps-modern-no-views', 'src/mcp/era2026/modern.ts', '    const viewing = call.interactive && apps() ? views : undefined;', '    const viewing = undefined;', 'a 2026-07-28 client that declares MCP Apps is listed the views but its calls never show in them', ['test/mcp/mcp-apps-view.test.mjs']],
  ['apps-modern-no-question-fallback', 'src/mcp/era2026/modern.ts', '(panels, token) => runViewed(call, params, token, source, viewing, panels))', '(_panels, token) => runViewed(call, params, token, source, viewing))', 'a 2026-07-28 client that declares Apps and can elicit but shows no view has its interactive call closed instead of asked as a question', ['test/mcp/mcp-apps.test.mjs']],
  ['view-ready-forwarded', 'media/panel/app.js', "        if (finished || message.type === 'ready') return;", '        if (finished) return;', 'the inline page\'s ready reaches the server after its first render, so the render of its first key is whole again', ['test/mcp/mcp-apps-view.test.mjs']],
  ['apps-policy-inline', 'src/mcp/shared/apps.ts', "script-src ${scripts.map(hash).join(' ')}", "script-src 'unsafe-inline'", 'the view\'s page runs any inline script, not only its own three', ['test/mcp/mcp-apps.test.mjs']],
  ['apps-meta-to-everyone', 'src/mcp/shared/tools.ts', '...(apps && t.interactive && { _meta: viewMeta(name) }),', '...(t.interactive && { _meta: viewMeta(name) }),', 'a client without Apps is told of views it cannot show', ['test/mcp/mcp-apps.test.mjs']],
  // panel widgets (terva)
  ['widget-unknown-type-fails', 'src/protocol/widgets.ts', "      return { type: 'divider', ...base };\n    default:\n      return undefined;", "      return { type: 'divider', ...base };\n    default:\n      throw new WidgetProblem(`${at}: unknown type`);", 'a panel with a widget type this host does not know is refused whole, so a newer extension loses its panel', ['test/protocol/widgets.test.mjs', 'test/host/ui-widgets.test.mjs']],
  ['widget-depth-one-short', 'src/protocol/widgets.ts', 'if (depth > MAX_WIDGET_DEPTH)', 'if (depth >= MAX_WIDGET_DEPTH)', 'a widget tree exactly as deep as the bound is refused', ['test/protocol/widgets.test.mjs', 'test/host/ui-widgets.test.mjs']],
  ['response-panel-frames-lost', 'src/host/agent/commands.ts', 'this.panels.openPanel(rt, spec, true)', 'this.panels.openPanel(rt, spec)', 'a render sent right after the response that opens its panel is dropped when the front end opens it a moment later', ['test/host/ui.test.mjs']],
  ['widget-action-unchecked', 'src/host/ui/panels.ts', 'if (this.panels.isOpen(this) && widgetActions(this.widgets).includes(actionId))', 'if (this.panels.isOpen(this))', 'a click on a render that is gone, or any id a page makes up, reaches the extension as a key', ['test/host/ui-widgets.test.mjs']],
  ['widget-tab-always-key', 'media/panel/panel.js', " || e.key === 'Tab' && widgetsBox.querySelector('button:not([disabled])')", '', 'Tab is sent to the extension even where the widgets offer buttons, so no key reaches them', ['test/vscode-unit/panel-widgets.test.mjs']],
  ['quickpick-widget-rows-send-keys', 'src/vscode/panels/panels.ts', '    if (this.widgetRows) return;\n', '', 'moving among the text rows of a widget panel sends up and down to the extension', ['test/vscode-unit/panel-widgets.test.mjs']],
  ['widgets-posted-every-render', 'src/protocol/pageContract.ts', 'const widgetsChanged = !shown || widgets !== this.shownWidgets;', 'const widgetsChanged = true;', 'the whole widget tree crosses to the page on every render, and is rebuilt there (focus lost)', ['test/vscode-unit/panel-widgets.test.mjs']],
  ['history-total-at-bound', 'src/vscode/chat/rounds.ts', '        if (used + size <= HISTORY_TOTAL_MAX_BYTES) {', '        if (used + size < HISTORY_TOTAL_MAX_BYTES) {', 'history results that exactly fill the total bound lose their oldest', ['test/vscode-unit/chat.test.mjs']],
  // agent hooks
  ['hook-rewrite-approves', 'src/host/hooks/agentHooks.ts', "permissionDecision: 'ask', permissionDecisionReason: 'a zot extension changed the arguments of this call'", "permissionDecision: 'allow', permissionDecisionReason: 'a zot extension changed the arguments of this call'", 'a guard that rewrites a call approves it, skipping the user\'s confirmation', ['test/cli/hook.test.mjs']],
  ['hook-malformed-allows', 'src/host/hooks/hookInput.ts', "export const failsClosed = (event: HookEvent): boolean => event === 'PreToolUse' || event === 'UserPromptSubmit';", "export const failsClosed = (event: HookEvent): boolean => event === 'UserPromptSubmit';", 'a PreToolUse input that cannot be read exits 1, which agents take as "go on": the call runs unguarded', ['test/cli/hook.test.mjs']],
  ['hook-skips-any-mcp-tool', 'src/host/hooks/mcpNames.ts', "    if (tool !== '' && vsCodeToolName(server, tool) === name && host.servesOverMcp(tool, extension)) return true;", "    if (tool !== '' && host.servesOverMcp(tool)) return true;", 'a tool of another MCP server whose name starts like a zot server\'s passes every zot guard', ['test/cli/hook.test.mjs']],
  ['hook-window-answer-unproven', 'src/cli/hookWindows.ts', '  if (!checkAnswer(token, signed.nonce, r.status, r.body, r.proof)) {', '  if (r.status === 0) {', 'whatever listens at a dead window\'s port approves the agent\'s tool calls', ['test/cli/hook-windows.test.mjs', 'test/cli/hook.test.mjs']],
  ['hook-js-loads-cli', 'src/hook.ts', "  if (p?.verb !== 'hook') return cli().run(argv);", "  const all = cli();\n  if (p?.verb !== 'hook') return all.run(argv);", 'the hook command loads all of zot-host on every tool call, where a window answering needs only its hook verb', ['test/cli/hook.test.mjs']],
  ['hook-js-alone-lost', 'src/hook.ts', '  exitWhenDone(hook(p, (...a) => cli().hookAlone(...a)));', '  exitWhenDone(hook(p, async (_p, _i, _n, _d, answer) => answer(\'{}\')));', 'with no window for the project, the hook command allows every call without starting a guard', ['test/cli/hook.test.mjs', 'test/vscode-unit/hooks.test.mjs']],
  ['claude-mcp-guard-on-own-tools', 'src/host/hooks/plugin.ts', "  if (format !== 'claude' || guard !== 'mcp') return '*';", "  return '*';", 'Claude Code\'s mcp_tool guard is also called for the plugin\'s own tools, which their server guards: each of their calls pays a hook that asks nothing', ['test/cli/plugin.test.mjs']],
  ['codex-guard-matcher-regex', 'src/host/hooks/plugin.ts', "  if (format !== 'claude' || guard !== 'mcp') return '*';", "  if (guard !== 'mcp') return '*';", 'Codex gets Claude Code\'s regular-expression matcher, which it read as guarding nothing', ['test/cli/plugin.test.mjs']],
  ['mcp-progress-never-2025', 'src/mcp/era2025/bridge.ts', '    const progress = progressToken === undefined\n', '    const progress = progressToken !== null\n', 'a client that asked for a call\'s progress gets its extension\'s notes as log messages instead', ['test/mcp/mcp-notes.test.mjs']],
  ['hook-entry-pid-only', 'src/host/hooks/windows.ts', "    if (now !== undefined && now !== entry.started) return 'dead';\n", '', 'an entry whose pid was used again by another process is taken for the window', ['test/cli/hook-windows.test.mjs']],
  ['hook-windows-folder-shared', 'src/host/hooks/windows.ts', "  if (st.mode & 0o022) return 'may be written by other users';\n", '', 'windows listed in a folder other users can write are asked', ['test/cli/hook-windows.test.mjs']],
  ['hook-replay-answered', 'src/mcp/hooks/endpoint.ts', "    if (!this.nonces.fresh(auth.nonce)) return refuse('this request was answered already');\n", '', 'a recorded hook request is answered again when replayed', ['test/cli/hook-windows.test.mjs']],
  ['hookfile-follows-link', 'src/host/hooks/replaceFile.ts', '    await fsp.rename(temp, file);', '    await fsp.writeFile(file, text);\n    await fsp.rm(temp);', 'a link a repository put in place of its hook file is written through (a .bashrc overwritten)', ['test/vscode-unit/hooks.test.mjs']],
  ['plugin-replaces-theirs', 'src/host/hooks/plugin.ts', "  if ((await fsp.readdir(dir)).length === 0) return true;\n  const own = await ownPlugin(dir);\n", '  return true;\n  const own = await ownPlugin(dir);\n', 'zot-host plugin replaces a folder that is not its plugin (someone else\'s plugin, or any folder named by mistake), deleting it', ['test/cli/plugin.test.mjs']],
  ['plugin-merges-over-old', 'src/host/hooks/plugin.ts', "    if (!replacing) {", "    if (!replacing || true) {", 'writing the plugin again fails over its own folder, so an updated zot-host or zot home never reaches it', ['test/cli/plugin.test.mjs']],
  ['plugin-runs-project-extensions', 'src/host/hooks/plugin.ts', "const serverArgs = ['mcp', '--no-project', '--home', i.zotHome];", "const serverArgs = ['mcp', '--home', i.zotHome];", 'the plugin\'s MCP server starts the .zot/extensions of whatever project an agent runs in, without consent', ['test/cli/plugin.test.mjs']],
  ['fingerprint-undecodable-is-data', 'src/vscode/trust/fingerprint.ts', 'w.tracked && isUtf8(relBytes) && !w.tracked.has', 'w.tracked && !w.tracked.has', 'an untracked file whose name is not UTF-8 changes without consent being asked again', ['test/vscode-unit/fingerprint-bytes.test.mjs']],
  ['yarn-cache-is-data', 'src/vscode/trust/fingerprint.ts', "'vendor', '.yarn', '__pypackages__'", "'vendor', '__pypackages__'", 'a change to Yarn\'s zip cache or unplugged packages runs without consent being asked again', ['test/vscode-unit/fingerprint-bytes.test.mjs']],
  ['shim-args-escaped-once', 'src/host/process/platform.ts', 'return escapeForCmd(escapeForCmd(quoted));', 'return escapeForCmd(quoted);', 'an argument with an odd number of quotes then & runs a command on the .cmd shim\'s own line', ['test/host/platform.test.mjs', 'test/host/wine-cmd.test.mjs']],
  ['shim-program-unquoted', 'src/host/process/platform.ts', 'return `"${file.replace(/"/g, \'\')}"`;', 'return escapeForCmd(file);', 'a .cmd shim under C:\\Program Files never starts (cmd runs C:\\Program: exit 9009)', ['test/host/platform.test.mjs', 'test/host/wine-cmd.test.mjs']],
  ['taskkill-bare-name', 'src/host/process/platform.ts', "file: systemProgram('taskkill.exe', env)", "file: 'taskkill'", 'a taskkill.exe planted in the project folder runs when an extension is stopped on Windows', ['test/host/platform.test.mjs', 'test/host/tree-kill-planted.test.mjs', 'test/host/wine-cmd.test.mjs']],
  ['taskkill-fails-no-stand-in', 'src/host/process/treeKill.ts', "  if (plan.orEnd === undefined || (!r.error && r.status === 0)) return;", "  return;", 'where the forced taskkill fails (Wine\'s refuses /T), a stubborn extension is never ended and the stop ladder does not finish', ['test/host/tree-kill-planted.test.mjs', 'test/host/wine-cmd.test.mjs']],
  ['hook-unreachable-silent', 'src/host/hooks/agentHooks.ts', "  if (notes.length && failsClosed(input.event)) out.systemMessage = notes.join('\\n');\n", '', 'a guard that could not be started is passed over in silence', ['test/cli/hook.test.mjs']],
  ["trace-display-redact-ignored", "src/host/connection/traceMask.ts", "const redact = tool !== undefined && fields ? fields.toolRedact(extension, tool) : [];", "const redact: readonly string[] = [];", "a tool's display.redact arguments (a PIN, an IBAN) are in clear in the verbose trace", ["test/cli/trace-masks.test.mjs"]],
  ["trace-secret-setting-by-length", "src/host/connection/traceMask.ts", "for (const k of secret) if (k in config && config[k] !== '' && config[k] !== null) config[k] = REDACTED;", "", "a secret setting shorter than 8 characters (a 6-digit PIN) is in clear in the traced hello_ack and config_update", ["test/cli/trace-masks.test.mjs"]],
  ["trace-invalid-frame-raw", "src/host/connection/frameTrace.ts", "const shown = redact(maskByShape(body, extension, fields, frame !== undefined));", "const shown = redact(frame ? maskByShape(body, extension, fields, true) : body);", "a secret_set that fails validation is traced raw, its value included", ["test/cli/trace-masks.test.mjs"]],
  ["hook-late-guard-allows", "src/host/hooks/agentHooks.ts", "if (late.length && !refuses(output)) {", "if (late.length && (false as boolean)) {", "a guard that would deny within its own 5 s is passed over (the call allowed) because a stuck window used up the hook's time", ["test/cli/hook-windows.test.mjs"]],
  ["panel-reopen-stays-in-old-view", "src/host/ui/panels.ts", "    await (before === ui ? ui.renderPanel(panel) : ui.openPanel(panel));", "    await (existing ? ui.renderPanel(panel) : ui.openPanel(panel));", "a panel reopened for another client's call is shown in the first call's view, whose Enter then answers the other call", ["test/mcp/mcp-apps-sessions.test.mjs"]],
  ["panel-binds-across-sessions", "src/host/ui/panels.ts", "return sessions.size > 1 ? AMBIGUOUS : waiting.at(-1);", "return waiting.at(-1);", "without tool_call_id, a panel binds to the newest call of another client's session: two clients' questions swap views", ["test/mcp/mcp-apps-sessions.test.mjs"]],
  ["view-late-answer-applied", "media/panel/app.js", "      // An answer that comes after the call ended (VS Code's \"tool finished\" first) is not applied.\n      if (finished) return;\n", "", "an inline view whose call ended shows a late render, or a late answer's status, instead of how the call ended", ["test/mcp/mcp-apps-view.test.mjs"]],
  ["consent-args-in-given-order", "src/vscode/hostTools/hostToolQuestion.ts", "const ordered = [...keys.filter((k) => decisive.has(k)), ...keys.filter((k) => !decisive.has(k))];", "const ordered = keys;", "a long explanation before a terminal command pushes the command down the host-tool consent question", ["test/vscode-unit/host-tool-question.test.mjs"]],
  ["consent-bidi-raw", "src/vscode/hostTools/hostToolQuestion.ts", "const HIDDEN = /[", "const HIDDEN = /(?!)[", "bidi controls and line breaks in a host tool's name or arguments reach the consent question raw", ["test/vscode-unit/host-tool-question.test.mjs"]],
  ["chat-rewritten-prompt-kept-as-typed", "src/vscode/chat/modelLoop.ts", "modelText, prompt: seenPrompt, rounds,", "modelText, prompt, rounds,", "a prompt a guard rewrote (a key taken out) is stored in the session and replayed to the model as typed", ["test/vscode-unit/chat-family.test.mjs"]],
  // what users rely on, held since a fresh set of realistic defects slipped past
  ['redact-regex-syntax-unescaped', 'src/host/connection/redact.ts', "forms.push(ch.replace(/[\\\\^$.*+?()[\\]{}|/-]/g, '\\\\$&')", 'forms.push(ch', 'a secret holding $, a dot, a bracket or a parenthesis (pa$$word!) is written in the clear in --trace and the verbose trace', ['test/host/redaction.test.mjs', 'test/cli/trace-secrets.test.mjs']],
  ['redact-quote-escape-missed', 'src/host/connection/redact.ts', "'\"': '\"', ", '', 'a secret holding a quote is written in the trace in its JSON-escaped form', ['test/host/redaction.test.mjs', 'test/cli/trace-secrets.test.mjs']],
  ['redact-backslash-escape-missed', 'src/host/connection/redact.ts', "'\\\\': '', ", '', 'a secret holding a backslash (C:\\keys) is written in the trace in its JSON-escaped form', ['test/host/redaction.test.mjs', 'test/cli/trace-secrets.test.mjs']],
  ['redact-json-in-text-missed', 'src/host/connection/redact.ts', "const BACKSLASHES = '\\\\\\\\+';", "const BACKSLASHES = '\\\\\\\\';", 'a secret with a quote or backslash in a tool result of JSON text (escaped twice) is written in the trace', ['test/host/redaction.test.mjs']],
  ['watch-pause-ends-while-busy', 'src/host/discovery/folderWatch.ts', '      clearTimeout(w.paused);\n      w.paused = this.quietTimer(name, w);\n      return;', '      return;', 'a paused watch resumes after 5 s though the extension still writes into its folder, and the restart storm starts again', ['test/host/folder-watch.test.mjs', 'test/cli/watch.test.mjs']],
  ['watch-folder-bound-raised', 'src/host/discovery/folderWatch.ts', 'export const MAX_WATCHED_FOLDERS = 1_000;', 'export const MAX_WATCHED_FOLDERS = 10_000;', 'an extension with a huge tree takes 10,000 inotify watches (a budget shared by every program of the user)', ['test/host/folder-watch.test.mjs']],
  ['next-question-panel-unbound', 'src/host/ui/panels.ts', 'filter((c) => c.spec.interactive && !this.bound.get(c.id)?.panels.size)', 'filter((c) => c.spec.interactive && !this.bound.has(c.id))', 'a tool that closes its question and asks the next: the next panel binds to no call (it shows outside the call\'s Quick Pick or elicitation)', ['test/host/panel-binding.test.mjs', 'test/host/ui.test.mjs']],
  ['call-panels-counted-ever-opened', 'src/host/ui/panels.ts', '    this.open.delete(p.uid);\n    p.boundCall?.panels.delete(p);', '    this.open.delete(p.uid);', 'the bound of 4 panels per call counts panels ever opened: the fifth question of a call is refused', ['test/host/panel-binding.test.mjs', 'test/host/hardening.test.mjs']],
  ['hook-normaliser-asks', 'src/host/hooks/agentHooks.ts', '      if (!sameJson(changed, args)) {', '      if (changed !== args) {', 'a guard that answers modified_args equal to the input makes every tool call ask the user (and Copilot CLI refuse it)', ['test/cli/hook-noop.test.mjs', 'test/cli/hook.test.mjs']],
  ['hook-args-compared-as-text', 'src/host/hooks/agentHooks.ts', '      if (!sameJson(changed, args)) {', '      if (boundedStringify(changed) !== boundedStringify(args)) {', 'a guard that answers the same args with its keys sorted (Go) makes every tool call ask the user', ['test/cli/hook-noop.test.mjs', 'test/protocol/same-json.test.mjs']],
  ['clash-names-wrong-copy', 'src/host/discovery/clashes.ts', 'the one in ${winner.projectDir} comes first', 'the one in ${f.projectDir} comes first', 'in a multi-root workspace the name-clash diagnostic names the copy that is not loaded as the one that runs', ['test/host/workspaces.test.mjs']],
  ['init-first-hyphen-only', 'src/host/scaffold/index.ts', "name.replace(/-/g, '_')", "name.replace('-', '_')", 'zot-host init my-cool-ext names its tool my_cool-ext_reverse', ['test/cli/init.test.mjs']],
  ['consent-answer-english-only', 'src/vscode/trust/workspaceGate.ts', 'if (choice === allowLabel()) await this.allow(found.name);', "if (choice === 'Allow') await this.allow(found.name);", 'in a German VS Code, clicking "Zulassen" does not allow the extension', ['test/vscode-unit/workspace-gate.test.mjs']],
  ['host-tool-answer-english-only', 'src/vscode/hostTools/hostTools.ts', "return choice === allow ? 'once' : choice === always ? 'session' : undefined;", "return choice === 'Allow' ? 'once' : choice === always ? 'session' : undefined;", 'in a German VS Code, clicking "Zulassen" refuses the host tool call', ['test/vscode-unit/host-tools-vscode.test.mjs']],
  ['quickpick-same-count-kept', 'src/vscode/panels/panels.ts', 'const same = rows.length === this.shown.length && rows.every((row, i) => row.text === this.shown[i]!.text && row.action === this.shown[i]!.action);', 'const same = rows.length === this.shown.length;', 'a Quick Pick panel whose render changes a line\'s text but not the number of lines keeps showing the old text', ['test/vscode-unit/panel-widgets.test.mjs']],
  ['page-answered-move-counted-again', 'media/panel/panel.js', 'moves = moves.filter((m) => m.seq > answered);', 'moves = moves.filter((m) => m.seq >= answered);', 'the webview highlights one line past the cursor after the extension has answered the move', ['test/vscode-unit/panel-widgets.test.mjs']],
  ['intercept-allow-with-reason-blocks', 'src/host/agent/agentPath.ts', '      if (answer.block) return { blocked: true', '      if (answer.block !== undefined || answer.reason) return { blocked: true', 'a guard that allows with a reason (block: false, a note) refuses the call or the prompt', ['test/cli/hook-noop.test.mjs', 'test/host/events.test.mjs']],
  ['reopened-panel-counted-at-bound', 'src/host/ui/panels.ts', 'const full = !existing && call ? this.bound.get(call.id) : undefined;', 'const full = call ? this.bound.get(call.id) : undefined;', 'a call with 4 panels open that opens one of them again to replace it has that panel closed and refused', ['test/host/panel-binding.test.mjs', 'test/host/ui.test.mjs']],
  ['webview-lost-render-partial', 'src/vscode/panels/webviewPanels.ts', 'this.webview.webview.postMessage(message).then((ok) => ok || this.page.forget(), () => this.page.forget());', 'this.webview.webview.postMessage(message);', 'after a render the webview did not take, the next sends only what changed: the page shows lines it never got as blank', ['test/vscode-unit/panel-widgets.test.mjs']],
  ['webview-reload-partial', 'src/protocol/pageContract.ts', '  restart(): void {\n    this.shown = undefined;', '  restart(): void {', 'a panel page that reloads (hidden and shown again) gets only what changed since the old page: it stays empty', ['test/vscode-unit/panel-widgets.test.mjs']],
  ['page-partial-before-whole', 'media/panel/panel.js', '      if (!synced) return;', '', 'a page that never had a whole render shows a render of changed lines with blanks for the rest', ['test/vscode-unit/panel-widgets.test.mjs']],
  ['page-rows-left-behind', 'media/panel/panel.js', '    while (rows.length > state.lines.length) lines.lastElementChild?.remove();', '', 'a render with fewer lines leaves the old last lines on the page', ['test/vscode-unit/panel-widgets.test.mjs']],
  ['init-next-quote-unescaped', 'src/cli/init.ts', "`'${s.replace(/'/g, `'\\\\''`)}'`", "`'${s}'`", 'zot-host init in a folder whose path holds a quote prints next commands that fail when typed', ['test/cli/init.test.mjs']],
  ['quickpick-echo-taken-as-move', 'src/vscode/panels/panels.ts', '      if (item.index === 0) return;', '', 'VS Code resetting a Quick Pick panel to its top after a render sends the extension "up" keys the user never pressed', ['test/vscode-unit/panel-widgets.test.mjs']],
  ['quickpick-jump-one-key', 'src/vscode/panels/panels.ts', '    for (let i = 0; i < Math.abs(delta); i++) this.send(this.panel, key);', '    this.send(this.panel, key);', 'a click two rows away in a Quick Pick panel moves the extension\'s cursor one row', ['test/vscode-unit/panel-widgets.test.mjs']],
  ['quickpick-box-keeps-typing', 'src/vscode/panels/panels.ts', "    this.qp.value = '';", '', 'what is typed into a Quick Pick panel stays in its box and filters its lines away', ['test/vscode-unit/panel-widgets.test.mjs']],
  ['quickpick-covered-not-restored', 'src/vscode/panels/panels.ts', '    if (wasTop) this.top()?.show();', '', 'closing a Quick Pick panel that covered another leaves the other hidden, though still open', ['test/vscode-unit/panel-widgets.test.mjs']],
  ['consent-answer-after-change-counts', 'src/vscode/trust/workspaceGate.ts', '    if (now !== fingerprint) {', '    if (false) {', 'code that changed while the user was asked runs on the "Allow" given for the code before', ['test/vscode-unit/workspace-gate.test.mjs']],
  ['consent-allow-untrusted', 'src/vscode/trust/workspaceGate.ts', '    if (!vscode.workspace.isTrusted) {', '    if (false) {', 'the view\'s Allow starts a project extension in a workspace that is not trusted', ['test/vscode-unit/workspace-gate.test.mjs']],
  // zot's protocol 1 after v0.3.73 (docs/ZOT.md): what an extension written with zot's current Go SDK relies on
  ['call-tool-no-opt-in-check', 'src/host/agent/extensionCalls.ts', "  if (!rt.capabilities.includes('call_tool')) return CALL_TOOL_REFUSALS.notOptedIn;\n", '', 'an extension whose hello did not opt in to call_tool runs other tools through the host anyway', ['test/host/zot-wire.test.mjs']],
  ['call-tool-cycle-allowed', 'src/host/agent/extensionCalls.ts', "chain.includes(frame.name)) return CALL_TOOL_REFUSALS.cycle;", "false) return CALL_TOOL_REFUSALS.cycle;", 'a tool that calls itself through call_tool loops until the depth limit instead of being refused as a cycle', ['test/host/zot-wire.test.mjs']],
  ['call-tool-depth-off-by-one', 'src/host/agent/extensionCalls.ts', 'if (chain.length >= MAX_CALL_CHAIN)', 'if (chain.length > MAX_CALL_CHAIN)', 'a chain of five tools runs where zot stops at four', ['test/host/zot-wire.test.mjs']],
  ['call-tool-malformed-unanswered', 'src/host/extension/reading.ts', "  if (about?.id && about.type === 'call_tool' && l.gotHello) rt.callTool({ type: 'malformed', id: about.id });\n", '', 'a call_tool that fails validation is never answered: the Go SDK waits its 60 s', ['test/host/zot-wire.test.mjs']],
  ['call-tool-cancel-ignored', 'src/host/agent/extensionCalls.ts', '    r.canceledByCaller = true;\n    r.source.cancel();', '    r.canceledByCaller = true;', 'call_tool_cancel does not reach the callee: its tool keeps working', ['test/host/zot-wire.test.mjs']],
  ['call-tool-unbounded-answer', 'src/host/agent/extensionCalls.ts', '  const { content, truncated } = boundResult(blocks);\n  const frame', '  const content = [...blocks];\n  const truncated = false;\n  const frame', 'a call_tool answer carries the callee\'s whole 300 KiB, and the caller is not told it was cut', ['test/host/zot-wire.test.mjs']],
  ['tool-result-event-not-for-blocked', 'src/host/agent/agentPath.ts', "  emit('tool_result', toolResultEvent(toolId, name, args, { ...toolOutcome('not_run', null, reason), content: [{ type: 'text', text: reason }], ending: { status: 'blocked', executed: false } }), origin);\n", '', 'a call a guard blocked gets no tool_result event: an audit extension never learns how it ended', ['test/cli/hook.test.mjs', 'test/host/family.test.mjs']],
  ['tool-result-event-terva-only', 'src/host/agent/agentPath.ts', "    tool_id: toolId, tool_name: name, ...argsField(args), status, executed,\n    result: { content, is_error: isError, ...(truncated && { truncated: true }) },\n", '    tool_id: toolId, tool_name: name,\n', "the tool_result event lacks zot's tool_args, status, executed and result", ['test/host/zot-wire.test.mjs', 'test/host/agent-turn.test.mjs', 'test/cli/hook.test.mjs']],
  ['event-sequence-only-when-heard', 'src/host/agent/lifecycle.ts', '    const sequence = ++this.sequence;\n    let frame: EventFrame | undefined;\n    for (const rt of this.subscribers.all) {\n      if (!rt.events.has(event)) continue;', '    let frame: EventFrame | undefined;\n    for (const rt of this.subscribers.all) {\n      if (!rt.events.has(event)) continue;\n      const sequence = ++this.sequence;', 'the sequence counts only events someone heard, where zot counts every event emitted', ['test/host/events.test.mjs']],
  ['before-agent-start-blocks', 'src/host/agent/agentPath.ts', "      if (event === 'before_agent_start') {\n        current = startPrompt(rt, answer, current as InterceptMap['before_agent_start']) as InterceptMap[K];\n        continue;\n      }\n", '', 'a before_agent_start block refuses the request, where zot never lets that hook refuse', ['test/host/agent-turn.test.mjs', 'test/fidelity/chat.test.mjs']],
  ['unknown-exposure-registered', 'src/host/extension/registrations.ts', "      return void problem(`tool ${JSON.stringify(frame.name)} has unknown exposure ${JSON.stringify(preview(exposure, 64))}, skipped`), false;", "      problem(`tool ${JSON.stringify(frame.name)} has unknown exposure ${JSON.stringify(preview(exposure, 64))}, skipped`);", 'a tool with an exposure zot does not know is registered, where zot skips it', ['test/host/zot-wire.test.mjs']],
  ['deferred-listed-in-mcp', 'src/mcp/shared/tools.ts', '    if (t.deferred && !activated?.has(t.name)) continue;\n', '', "a deferred tool is in every MCP client's list from the start", ['test/mcp/mcp-zot.test.mjs']],
  ['structured-content-dropped', 'src/mcp/shared/tools.ts', '  return { isError: o.isError, content, ...structured };', '  return { isError: o.isError, content };', "structured_content never reaches MCP clients, and one that checks outputSchema fails the call", ['test/mcp/mcp-zot.test.mjs']],
  ['host-tool-call-unguarded', 'src/host/terva/services.ts', '      if (!cleared.run) return toolError(id, cleared.reason);\n', '', "a terva extension's host_tool_call runs the editor's tool even when a guard refuses it", ['test/host/family.test.mjs']],
  ['plugin-owned-by-manifest', 'src/host/hooks/pluginOwner.ts', "  if (!p) return { why: `no ${MARKER} of zot-host's in it` };\n", "  if (!p) return { ours: { id: '0'.repeat(32), home: dir } };\n", 'a git work tree whose plugin.json happens to say zot-extensions is replaced whole by zot-host plugin, its notes, code and .git deleted', ['test/cli/plugin.test.mjs']],
  ['plugin-replaces-added-files', 'src/host/hooks/pluginOwner.ts', "    if (!Object.hasOwn(record.files, rel)) return { why: `it holds ${rel}, which zot-host did not write` };\n", '', 'files a user added to the plugin\'s folder (or a clone carrying a copied marker) are deleted when the plugin is written again', ['test/cli/plugin.test.mjs']],
  ['plugin-parents-umask', 'src/host/hooks/plugin.ts', '  await fsp.mkdir(parent, { recursive: true, mode: PRIVATE_DIR });', '  await fsp.mkdir(parent, { recursive: true });', 'under umask 000 the folders zot-host plugin creates above the plugin (~/.copilot/installed-plugins/zot/) are writable by every user, who can swap the plugin', ['test/cli/plugin.test.mjs']],
  ['hook-guards-plugin-tools-twice', 'src/host/hooks/mcpNames.ts', '  for (const prefix of [CLAUDE_MCP_PREFIX, ...PLUGIN_MCP_PREFIXES]) {', '  for (const prefix of [CLAUDE_MCP_PREFIX]) {', 'a zot tool of the agent plugin\'s server in Claude Code or Copilot CLI is guarded twice (by the hook and on the MCP path), each guard asked twice', ['test/cli/hook.test.mjs', 'test/host/mcp-names.test.mjs']],
  ['hook-skips-plugin-prefix', 'src/host/hooks/mcpNames.ts', "    return tool !== '' && host.servesOverMcp(tool);\n  }\n  const servers", "    return true;\n  }\n  const servers", 'any tool whose name starts like the plugin server\'s (zot-anything) passes every zot guard, whether zot serves it or not', ['test/cli/hook.test.mjs', 'test/host/mcp-names.test.mjs']],
  ['hook-copilot-args-object-refused', 'src/host/hooks/hookInput.ts', "  const given = typeof raw === 'object' && raw !== null && !Array.isArray(raw);", '  const given = false;', 'Copilot CLI 1.0.102 sends toolArgs as an object: every tool call of every agent there is refused as unreadable input', ['test/cli/hook.test.mjs']],
  ['plugin-deletes-added-meanwhile', 'src/host/hooks/plugin.ts', '      if (!(await stillReplaceable(old, replacing))) {', '      if (false) {', 'a file the user puts into the plugin\'s folder while it is being written again is deleted with the old plugin', ['test/cli/plugin.test.mjs']],
  ['agent-plugins-hooks-misplaced', 'src/host/hooks/plugin.ts', "hooks: [COPILOT_NAMESPACE, 'hooks', 'hooks.json'] },", "hooks: [COPILOT_NAMESPACE, 'hooks.json'] },", 'the Agent Plugins package puts its hooks where Copilot CLI does not read them (com.github.copilot/hooks.json): its guards never run', ['test/cli/plugin.test.mjs']],
  ['mcp-hook-wrong-server', 'src/host/hooks/plugin.ts', "claude: `plugin:${PLUGIN_NAME}:${PLUGIN_SERVER}`, codex", 'claude: PLUGIN_SERVER, codex', 'Claude Code\'s mcp_tool hooks name a server it does not know by that name: each call fails, and the guards never run', ['test/cli/plugin.test.mjs']],
  ['guard-tool-input-unparsed', 'src/mcp/hooks/guardTool.ts', "tool_input: typeof toolInput === 'string' ? JSON.parse(toolInput) : toolInput", 'tool_input: toolInput', 'the guard tool takes the interpolated tool input (its JSON text) as it is, and refuses every mcp_tool hook\'s call', ['test/cli/plugin.test.mjs']],
  ['mcp-config-replaces-theirs', 'src/host/hooks/mcpConfig.ts', '  if (existing !== undefined && !isOurs(existing)) throw', '  if (false) throw', 'zot-host plugin --mcp-config writes over a server named zot that the user configured themselves', ['test/cli/plugin.test.mjs']],
].map(([name, file, find, replace, description, tests]) => ({ name, file, find, replace, description, tests }));

const args = process.argv.slice(2);
if (args.includes('--list')) {
  for (const m of MUTANTS) console.log(`${m.name.padEnd(34)} ${m.file.padEnd(36)} ${m.description}`);
  process.exit(0);
}
if (args.includes('--coverage-map')) {
  const { modules } = await coverageMap(ROOT);
  for (const [m, by] of modules) console.log(`${m.padEnd(48)} ${by.length ? by.join(', ') : '(no unit test loads it)'}`);
  const none = [...modules].filter(([, by]) => !by.length).map(([m]) => m);
  console.log(`\n${modules.size} modules with code; ${none.length} loaded by no unit test (CONTRIBUTING.md lists each with the end-to-end suite that holds it)`);
  process.exit(0);
}
if (args.includes('--check')) {
  const stale = MUTANTS.map((m) => [m, fs.readFileSync(path.join(ROOT, m.file), 'utf8').split(m.find).length - 1]).filter(([, n]) => n !== 1);
  for (const [m, n] of stale) console.error(`${m.name}: its snippet is found ${n === 0 ? 'nowhere' : `${n} times`} in ${m.file}`);
  console.log(`${MUTANTS.length - stale.length} of ${MUTANTS.length} mutants apply`);
  // A mutant whose own tests do not load its file is judged by the wider set alone, slowly, and may be caught by chance.
  const map = await coverageMap(ROOT);
  const unloaded = MUTANTS.filter((m) => !m.tests.some((t) => fs.existsSync(path.join(ROOT, t)) && loads(map, t, m.file, ROOT)));
  for (const m of unloaded) console.error(`${m.name}: none of its tests (${m.tests.join(', ')}) loads ${m.file}`);
  console.log(`${MUTANTS.length - unloaded.length} of ${MUTANTS.length} mutants are loaded by their own tests`);
  process.exit(stale.length || unloaded.length ? 1 : 0);
}
const onlyAt = args.indexOf('--only');
const only = onlyAt >= 0 ? new Set((args[onlyAt + 1] ?? '').split(',').filter(Boolean)) : undefined;
if (only) for (const n of only) if (!MUTANTS.some((m) => m.name === n)) fail(`unknown mutant "${n}" (see --list)`);
const selected = MUTANTS.filter((m) => !only || only.has(m.name));

function fail(message) {
  console.error(`mutate: ${message}`);
  process.exit(2);
}

/** A copy of the working tree (tracked and untracked, not ignored files), node_modules linked. */
function makeCopy() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'zot-mutate-'));
  const ls = spawnSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: ROOT, encoding: 'utf8' });
  if (ls.status !== 0) fail(`git ls-files failed: ${ls.stderr}`);
  for (const rel of ls.stdout.split('\0').filter(Boolean)) {
    const from = path.join(ROOT, rel);
    if (!fs.existsSync(from)) continue; // deleted in the working tree
    fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    fs.copyFileSync(from, path.join(dir, rel));
  }
  fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules'));
  return dir;
}

/** Marks every process a run starts (extensions run in groups of their own, and inherit it). */
const MARK = 'ZOT_MUTATE_COPY';

/** Kills what a run left behind (a mutant may leave stubborn processes): only processes carrying this copy's mark. */
function reapMarked(copy) {
  const mark = `${MARK}=${copy}\0`;
  for (const e of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(e) || Number(e) === process.pid) continue;
    let env;
    try { env = fs.readFileSync(`/proc/${e}/environ`, 'latin1'); } catch { continue; }
    if (env.includes(mark)) try { process.kill(Number(e), 'SIGKILL'); } catch { /* gone */ }
  }
}

/** Runs a command in its own process group; kills the whole group past `boundMs`. */
function run(cmd, argv, cwd, boundMs) {
  return new Promise((resolve) => {
    const started = Date.now();
    const child = spawn(cmd, argv, { cwd, detached: true, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, [MARK]: cwd } });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    let hung = false;
    const timer = setTimeout(() => {
      hung = true;
      try { process.kill(-child.pid, 'SIGKILL'); } catch { /* gone */ }
    }, boundMs);
    child.on('close', (code) => {
      clearTimeout(timer);
      // Whatever the tests left in this group goes with it.
      try { process.kill(-child.pid, 'SIGKILL'); } catch { /* gone */ }
      reapMarked(cwd);
      resolve({ code, out, hung, ms: Date.now() - started });
    });
  });
}

async function build(dir) {
  const b = await run(process.execPath, ['esbuild.mjs'], dir, 120_000);
  return b.code === 0 ? undefined : b.out.slice(-2000);
}

/** Every host test file of the copy (protocol, host, CLI). */
function allTestFiles(dir) {
  return TEST_FILES.flatMap((d) => fs.readdirSync(path.join(dir, d)).filter((f) => f.endsWith('.test.mjs')).map((f) => `${d}/${f}`));
}

/** The given test files, or only the named tests in them. */
async function runTests(dir, files, names = [], boundMs = RUN_BOUND_MS) {
  const patterns = names.flatMap((n) => ['--test-name-pattern', `^${n.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}$`]);
  const r = await run(process.execPath, ['--test', '--test-timeout=300000', '--test-force-exit', '--import', './test/per-test-timeout.mjs', '--test-reporter=tap', ...patterns, ...files], dir, boundMs);
  // TAP writes a name's backslashes and hashes escaped (\\ and \#): the names as the tests have them.
  const failing = [...r.out.matchAll(/^not ok \d+ - (.*)$/gm)].map((m) => m[1].replace(/\\(.)/g, '$1')).filter((n) => !n.endsWith('.test.mjs'));
  const counts = /^# pass (\d+)$/m.exec(r.out)?.[1];
  const failCount = /^# fail (\d+)$/m.exec(r.out)?.[1];
  return { code: r.code, hung: r.hung, ms: r.ms, failing, passCount: counts, ran: Number(counts ?? 0) + Number(failCount ?? 0), out: r.out };
}

/**
 * Runs `files` against the mutated copy and judges it. A failure that does not
 * repeat is the machine's load, not the mutant: the failing tests run again and
 * only what fails twice counts as a catch.
 */
async function judge(dir, files, logName, boundMs = RUN_BOUND_MS) {
  let r = await runTests(dir, files, [], boundMs);
  fs.writeFileSync(path.join(logs, `${logName}.tap`), r.out);
  if (r.hung) {
    // Past the bound: maybe the machine, maybe the mutant. Once more; a second hang is reported, never counted as a catch.
    const first = r.ms;
    r = await runTests(dir, files, [], boundMs);
    fs.writeFileSync(path.join(logs, `${logName}.rerun.tap`), r.out);
    if (r.hung) return { caught: false, hung: true, ms: first + r.ms, why: `the run went past its ${boundMs / 1000} s bound twice` };
    r = { ...r, ms: first + r.ms };
  }
  let again = !r.hung && r.code !== 0 && r.failing.length ? await runTests(dir, files, r.failing, boundMs) : undefined;
  // A re-run that found none of the named tests says nothing about them: run the files whole again.
  if (again && !again.hung && again.ran === 0) again = await runTests(dir, files, [], boundMs);
  if (again) fs.writeFileSync(path.join(logs, `${logName}.again.tap`), again.out);
  const repeated = again ? r.failing.filter((n) => again.hung || again.failing.includes(n)) : [];
  const ms = r.ms + (again?.ms ?? 0);
  if (r.code !== 0 && !r.failing.length) return { caught: true, ms, why: `exit ${r.code}` };
  if (repeated.length) return { caught: true, ms, why: `failed twice: ${repeated.slice(0, 3).join(' | ')}${repeated.length > 3 ? ` (+${repeated.length - 3})` : ''}` };
  if (r.code !== 0) return { caught: false, ms, why: `failures did not repeat: ${r.failing.join(' | ')}` };
  return { caught: false, ms, why: `all ${r.passCount} tests passed` };
}

const dir = makeCopy();
process.on('exit', () => fs.rmSync(dir, { recursive: true, force: true }));
process.on('SIGINT', () => process.exit(130));
/** Each run's TAP output is kept here, to read why a mutant was caught. */
const logs = fs.mkdtempSync(path.join(os.tmpdir(), 'zot-mutate-logs-'));
console.log(`copy: ${dir}\nlogs: ${logs}`);
const originals = new Map();
const readOriginal = (file) => {
  if (!originals.has(file)) originals.set(file, fs.readFileSync(path.join(dir, file), 'utf8'));
  return originals.get(file);
};
const ALL = allTestFiles(dir);
for (const m of MUTANTS) for (const t of m.tests) if (!ALL.includes(t)) fail(`mutant "${m.name}" names a test file that does not exist: ${t}`);

const baseBuild = await build(dir);
if (baseBuild) fail(`the unmutated copy does not build:\n${baseBuild}`);
/** Test files the unmutated copy was seen to pass. */
const passed = new Set();
/** The unmutated copy must pass `files` before a mutant is judged by them: a failure there is not the mutant's. */
async function baseline(files) {
  const todo = files.filter((f) => !passed.has(f));
  if (!todo.length) return;
  const base = await runTests(dir, todo, [], ALL_BOUND_MS);
  fs.appendFileSync(path.join(logs, 'baseline.tap'), base.out);
  if (base.code !== 0 || base.hung) {
    console.log(base.out);
    fail(`the unmutated copy does not pass its tests (${base.hung ? 'hung' : `exit ${base.code}`}); fix that first`);
  }
  for (const f of todo) passed.add(f);
  console.log(`baseline: ${base.passCount} tests of ${todo.length} files pass in ${(base.ms / 1000).toFixed(0)} s\n`);
}
await baseline([...new Set(selected.flatMap((m) => m.tests))]);

const results = [];
for (const m of selected) {
  const text = readOriginal(m.file);
  const at = text.indexOf(m.find);
  const started = Date.now();
  let result;
  if (at < 0 || text.indexOf(m.find, at + 1) >= 0) {
    result = { verdict: 'not applicable', why: at < 0 ? 'snippet not found' : 'snippet found more than once' };
  } else {
    fs.writeFileSync(path.join(dir, m.file), text.slice(0, at) + m.replace + text.slice(at + m.find.length));
    const broken = await build(dir);
    if (broken) {
      result = { verdict: 'build failed', why: broken };
    } else {
      // The module's own tests first; a survivor must also pass every other test
      // file before it counts as survived, so a narrow selection never flatters the score.
      const narrow = await judge(dir, m.tests, m.name);
      const rest = ALL.filter((f) => !m.tests.includes(f));
      let wide;
      if (!narrow.caught && !narrow.hung) {
        if (rest.some((f) => !passed.has(f))) {
          // The first survivor: the unmutated copy, built again, passes the wider set first.
          fs.writeFileSync(path.join(dir, m.file), text);
          if (await build(dir)) fail('the unmutated copy no longer builds');
          await baseline(rest);
          fs.writeFileSync(path.join(dir, m.file), text.slice(0, at) + m.replace + text.slice(at + m.find.length));
          if (await build(dir)) fail(`${m.name} built once and not again`);
        }
        wide = await judge(dir, rest, `${m.name}.all`, ALL_BOUND_MS);
      }
      const final = wide ?? narrow;
      result = { verdict: final.caught ? 'caught' : final.hung ? 'hung' : 'survived', why: `${wide ? 'its tests, then every other test file' : 'its tests'}: ${final.why}` };
    }
    fs.writeFileSync(path.join(dir, m.file), text);
    result.ms = Date.now() - started;
  }
  results.push({ ...m, ...result });
  console.log(`${result.verdict.toUpperCase().padEnd(15)} ${m.name}: ${m.description}\n${' '.repeat(16)}${result.why}${result.ms ? ` [${(result.ms / 1000).toFixed(0)} s]` : ''}`);
}

const applicable = results.filter((r) => r.verdict === 'caught' || r.verdict === 'survived' || r.verdict === 'hung');
const caught = applicable.filter((r) => r.verdict === 'caught').length;
const totalMs = results.reduce((t, r) => t + (r.ms ?? 0), 0);
console.log(`\nscore: ${caught}/${applicable.length} caught${applicable.length ? ` (${Math.round((100 * caught) / applicable.length)}%)` : ''}; ` +
  `${results.filter((r) => r.verdict === 'hung').length} hung (counted as not caught); ` +
  `${results.filter((r) => r.verdict === 'not applicable').length} not applicable, ${results.filter((r) => r.verdict === 'build failed').length} failed to build (the compiler's, counted apart); ` +
  `${(totalMs / 60000).toFixed(1)} min for the mutants`);
for (const r of results.filter((x) => x.verdict === 'survived' || x.verdict === 'hung')) console.log(`  ${r.verdict}: ${r.name}`);
process.exit(applicable.length === caught ? 0 : 1);

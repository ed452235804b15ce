/**
 * Commands carried out through the UI, as zot does for a typed slash
 * command: the command run through the agent's path, then its response
 * (a prompt, an insert, a panel, a tool's result with a prompt) shown by the
 * UI, except what a front end renders itself; and an extension's
 * `submit_slash`, run as if typed.
 */
import type { CommandResponseFromExt } from '../../protocol/index.js';
import type { AgentPath } from './agentPath.js';
import { actionOf, carryOut, type ActionTaken, type CommandRenderer } from '../ui/commandResponse.js';
import { toolPromptText } from '../ui/toolPrompt.js';
import type { Panels } from '../ui/panels.js';
import type { ExtensionRuntime } from '../extension/runtime.js';
import type { Registry } from '../registry/registry.js';
import type { CallOptions } from '../options.js';
import { outcomeLabel, type CommandOutcome } from '../results/outcomes.js';
import type { HostUI } from '../port.js';

export class CommandPath {
  constructor(private readonly registry: Registry, private readonly agent: AgentPath, private readonly ui: HostUI, private readonly panels: Panels) {}

  /** Invokes a command and carries out its response through the UI. */
  async run(name: string, args: string, opts: CallOptions = {}): Promise<CommandOutcome> {
    const outcome = await this.agent.invokeCommand(name, args, opts);
    if (outcome.outcome === 'completed') await this.apply(outcome.extension, outcome.response);
    return outcome;
  }

  /**
   * Carries out a command's response: through the UI, except the actions a
   * front end renders itself (`render`). Returns the action taken.
   */
  async apply(extension: string, r: CommandResponseFromExt, render: Partial<CommandRenderer<void | Promise<void>>> = {}): Promise<ActionTaken> {
    const rt = this.registry.get(extension);
    if (!rt) return 'noop';
    const ui = this.ui;
    const inUi: CommandRenderer<void | Promise<void>> = {
      error: (m) => ui.notify(rt, 'error', `/${rt.name}: ${m}`),
      prompt: (t) => ui.submit(rt, t),
      insert: (t) => ui.insert(rt, t),
      display: (t) => ui.display(rt, t),
      openPanel: (spec) => this.panels.openPanel(rt, spec, true),
      // Without a front end's own rendering: the tool runs through the door, and its result goes with the prompt to the UI's model.
      toolPrompt: async (p) => {
        const o = await this.agent.runToolCall(p.tool, p.args);
        await ui.submit(rt, toolPromptText(p, o));
      },
      noop: () => undefined,
    };
    await Promise.resolve(carryOut(r, { ...inUi, ...render })).finally(() => r.open_panel && this.panels.settled(rt, r.open_panel.id));
    return actionOf(r);
  }

  /**
   * An extension's submit_slash: `/name args` run as a typed slash command,
   * its response carried out through the UI; what goes wrong is a note of
   * the extension that asked. A host without UI says so and runs nothing.
   */
  async slash(from: ExtensionRuntime, text: string): Promise<void> {
    const ui = this.ui;
    if (!ui.interactive) return ui.notify(from, 'info', `asked to run ${text}; not interactive, ignored`);
    const m = /^\/(\S+)\s*([\s\S]*)$/.exec(text);
    if (!m) return;
    const name = m[1]!;
    if (!this.registry.command(name)) return ui.notify(from, 'warn', `asked to run /${name}, but no running extension provides that command`);
    const o = await this.run(name, m[2] ?? '');
    if (o.outcome !== 'completed' && o.outcome !== 'canceled' && o.outcome !== 'abandoned') await ui.notify(from, 'error', `/${name}: ${o.message || outcomeLabel(o.outcome)}`);
  }
}

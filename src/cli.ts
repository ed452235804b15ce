/** The zot-host executable: the verbs live in src/cli/. */
import { run } from './cli/main.js';

export { hookAlone, main, run } from './cli/main.js';
export { parseArgs } from './cli/args.js';

if (require.main === module) run(process.argv.slice(2));

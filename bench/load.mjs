// The machine's 1-minute load average over a run: sampled at every section
// and every 10 s, so a figure can be read against how busy the machine was.
import * as os from 'node:os';
import { median, round } from './util.mjs';

export function loadSampler(everyMs = 10_000) {
  const samples = [];
  const sample = () => samples.push(round(os.loadavg()[0], 2));
  sample();
  const timer = setInterval(sample, everyMs);
  timer.unref();
  return {
    sample,
    /** Stops sampling: { min, max, median, samples } of the 1-minute load average. */
    stop() {
      clearInterval(timer);
      sample();
      return { min: Math.min(...samples), max: Math.max(...samples), median: median(samples), samples };
    },
  };
}

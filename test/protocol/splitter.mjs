// A LineSplitter whose lines and oversized reports are collected as text,
// for the tests of how lines are split and bounded.
import { lib } from '../helpers.mjs';

const dec = new TextDecoder();

/**
 * A splitter with line limit `max` (the default when not given), and what it has put out so far.
 * @param {number} [max]
 */
export function collect(max) {
  /** @type {string[]} */
  const lines = [];
  /** @type {{ n: number, head: string }[]} */
  const oversized = [];
  const s = new lib.LineSplitter({ line: (b, start, end) => lines.push(dec.decode(b.subarray(start, end))), oversized: (n, head) => oversized.push({ n, head: dec.decode(head) }) }, max);
  return { s, lines, oversized };
}

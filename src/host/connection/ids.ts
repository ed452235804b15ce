/**
 * Correlation ids: a process-wide counter, so ids are unique across every
 * extension and every host in this process for its whole life (never derived
 * from the clock, which collides under concurrency).
 */
let counter = 0;

export function nextId(): string {
  counter += 1;
  return String(counter);
}

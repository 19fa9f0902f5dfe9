/**
 * Moves the files known to run long to the front of the list, in their given order, leaving the
 * others in theirs (test/setup/sequencer.ts). vitest queues a project's files after those of the
 * projects named before it, so the program-starting files (project `unit-isolated`) come last;
 * the hostile-input fuzz (about a minute of one core) then started when the other files were
 * done and ended the run alone while the other workers sat idle (68 s on a fresh clone).
 *
 *   longFirst(['a1', 'b1', 'a2', 'a3'], (f) => f === 'a3' || f === 'b1')
 *   // ['b1', 'a3', 'a1', 'a2']
 */
export function longFirst<T>(files: T[], isLong: (f: T) => boolean): T[] {
  return [...files.filter(isLong), ...files.filter((f) => !isLong(f))]
}

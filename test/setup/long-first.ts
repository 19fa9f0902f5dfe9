/**
 * Moves the files known to run long to the front of the list, ordered by their rank (0 first),
 * leaving the others in their order (test/setup/sequencer.ts). On a fresh clone vitest has no
 * durations and queues files by size, and a project's files after those of the projects named
 * before it: the program-starting files (project `unit-isolated`) came last, and the hostile-input
 * fuzz (about a minute of one core) ended a fresh-clone run alone for 68 s while the other workers
 * sat idle; the longest end-to-end files started late and ended it too.
 *
 *   longFirst(['a1', 'b1', 'a2', 'a3'], (f) => ({ a3: 1, b1: 0 })[f])
 *   // ['b1', 'a3', 'a1', 'a2']
 */
export function longFirst<T>(files: T[], rank: (f: T) => number | undefined): T[] {
  const long = files.filter((f) => rank(f) !== undefined)
  long.sort((a, b) => (rank(a) as number) - (rank(b) as number))
  return [...long, ...files.filter((f) => rank(f) === undefined)]
}

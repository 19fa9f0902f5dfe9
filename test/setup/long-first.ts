/**
 * Moves the files known to run long to the front of their own project's files, leaving every other
 * file where it was (test/setup/sequencer.ts). Without a previous run's durations (a fresh clone)
 * vitest orders files by size, and a small file that runs long (the hostile-input fuzz: 35 s)
 * would start last and end the run alone while the other workers sit idle.
 *
 *   longFirst(['a1', 'b1', 'a2', 'a3'], (f) => f.startsWith('a'), (f) => f === 'a3')
 *   // ['a3', 'b1', 'a1', 'a2']
 */
export function longFirst<T>(files: T[], inProject: (f: T) => boolean, isLong: (f: T) => boolean) {
  const slots = files.flatMap((f, i) => (inProject(f) ? [i] : []))
  const own = slots.map((i) => files[i] as T)
  const ordered = [...own.filter(isLong), ...own.filter((f) => !isLong(f))]
  const out = [...files]
  slots.forEach((slot, k) => {
    out[slot] = ordered[k] as T
  })
  return out
}

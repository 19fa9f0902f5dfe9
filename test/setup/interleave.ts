/**
 * The order in which the one shared worker pool takes test files (test/setup/sequencer.ts): the
 * first `lead` slow files (end-to-end files, which mostly wait on a stack) go first, the other
 * slow files are spread evenly over the first `spread` share of the fast ones (unit files, which
 * mostly use the CPU), and the rest of the fast files close the queue. So a few stacks run at a
 * time beside the unit files all along, instead of every stack at once and the unit files after,
 * and the last slow file starts well before the queue runs dry.
 *
 *   interleave(['e1', 'e2', 'e3'], ['u1', 'u2', 'u3', 'u4'], { lead: 1, spread: 1 })
 *   // ['e1', 'u1', 'u2', 'e2', 'u3', 'u4', 'e3']
 */

export type InterleaveOptions = {
  /** Slow files at the head of the queue. */
  lead: number
  /** Share (0..1] of the fast files the remaining slow files are spread over. */
  spread: number
}

export function interleave<T>(slow: T[], fast: T[], opts: InterleaveOptions): T[] {
  const head = slow.slice(0, Math.max(0, opts.lead))
  const rest = slow.slice(head.length)
  if (rest.length === 0) return [...head, ...fast]
  const over = Math.ceil(fast.length * Math.min(1, Math.max(0, opts.spread)))
  const out = [...head]
  let taken = 0
  rest.forEach((file, i) => {
    // The fast files before slow file i: its even share of the first `over` fast files.
    const upTo = Math.round((over * (i + 1)) / rest.length)
    out.push(...fast.slice(taken, upTo), file)
    taken = Math.max(taken, upTo)
  })
  out.push(...fast.slice(taken))
  return out
}

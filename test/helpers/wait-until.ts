/**
 * Waits until `ready()` holds, checking every `everyMs` (25), for at most `withinMs` (15 s, under
 * the unit tests' 20 s timeout), and says whether it came. For things that must happen (a process
 * printing, restarting, noticing), not a claim about how fast: a process started on a loaded
 * machine can take seconds, and the caller's assertion after the wait still names what did not
 * happen.
 */
export async function waitUntil(
  ready: () => boolean | Promise<boolean>,
  opts: { withinMs?: number; everyMs?: number } = {}
): Promise<boolean> {
  const deadline = Date.now() + (opts.withinMs ?? 15_000)
  for (;;) {
    if (await ready()) return true
    if (Date.now() >= deadline) return false
    await new Promise((r) => setTimeout(r, opts.everyMs ?? 25))
  }
}

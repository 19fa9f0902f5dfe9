/**
 * Notices when the program that started us goes away. `npm start` runs this program under
 * `sh -c`; a SIGTERM sent to npm kills the shell but never reaches us, so we would run on as an
 * orphan (re-parented, our parent pid changes). Polling the parent pid turns that into a normal
 * stop.
 */

export type ParentWatch = { stop(): void }

export function watchParent(onGone: () => void, intervalMs = 1000): ParentWatch {
  const initial = process.ppid
  const timer = setInterval(() => {
    if (process.ppid !== initial) {
      clearInterval(timer)
      onGone()
    }
  }, intervalMs)
  timer.unref()
  return { stop: () => clearInterval(timer) }
}

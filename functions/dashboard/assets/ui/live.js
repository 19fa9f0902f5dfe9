/**
 * Keeps the page current: reads the space's watch (`GET /ui/api/watch`, newline-delimited JSON)
 * and asks for a re-fetch of what is in view on each change (coalesced, at most once a second);
 * reconnects when the stream ends or fails, after 1 s doubling to 30 s (back to 1 s after a
 * connection that lasted); re-fetches every 15 s anyway so staleness and ages move; ticks every
 * second so ages shown update. The indicator says connected or reconnecting.
 */
import { api, isAbort, query } from './api.js'

const MIN_DELAY = 1000
const MAX_DELAY = 30000
const REFRESH_EVERY = 15000
const MIN_GAP = 1000
const LASTED = 30000

/** Calls `onLine` with each complete line of a byte stream. */
export async function readLines(body, onLine) {
  const reader = body.getReader()
  const decoder = new TextDecoder()
  let buffered = ''
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    buffered += decoder.decode(value, { stream: true })
    let at = buffered.indexOf('\n')
    while (at >= 0) {
      const line = buffered.slice(0, at).trim()
      buffered = buffered.slice(at + 1)
      if (line) onLine(line)
      at = buffered.indexOf('\n')
    }
  }
  const rest = (buffered + decoder.decode()).trim()
  if (rest) onLine(rest)
}

const sleep = (ms, signal) =>
  new Promise((resolve) => {
    const t = setTimeout(resolve, ms)
    signal.addEventListener('abort', () => {
      clearTimeout(t)
      resolve()
    })
  })

/** opts: indicator (element), onRefresh(), onTick(). Returns start(space), stop(). */
export function createLive(opts) {
  let ctrl = null
  let timer = 0
  let last = 0
  let intervals = []

  let first = true

  function setState(state) {
    if (state === 'connected') first = false
    opts.indicator.dataset.state = state
    opts.indicator.title = state === 'connected' ? 'Live: watching for changes' : 'Reconnecting…'
    opts.indicator.querySelector('.live-text').textContent =
      state === 'connected' ? 'Live' : first ? 'Connecting' : 'Reconnecting'
  }

  /** Asks for a re-fetch, coalescing bursts: at most one per MIN_GAP. */
  function schedule() {
    if (timer) return
    const wait = Math.max(150, last + MIN_GAP - Date.now())
    timer = setTimeout(() => {
      timer = 0
      last = Date.now()
      opts.onRefresh()
    }, wait)
  }

  function onLine(line) {
    let event
    try {
      event = JSON.parse(line)
    } catch {
      return
    }
    if (event?.type !== 'BOOKMARK') schedule()
  }

  async function run(space, signal) {
    let delay = MIN_DELAY
    let connectedBefore = false
    while (!signal.aborted) {
      const opened = Date.now()
      try {
        const res = await api(`watch${query({ space })}`, { stream: true, signal })
        setState('connected')
        if (connectedBefore) schedule()
        connectedBefore = true
        await readLines(res.body, onLine)
      } catch (e) {
        if (isAbort(e) || signal.aborted) return
        if (e?.code === 401) return
      }
      if (signal.aborted) return
      setState('reconnecting')
      if (Date.now() - opened > LASTED) delay = MIN_DELAY
      await sleep(delay, signal)
      delay = Math.min(MAX_DELAY, delay * 2)
    }
  }

  function stop() {
    ctrl?.abort()
    ctrl = null
    clearTimeout(timer)
    timer = 0
    for (const i of intervals) clearInterval(i)
    intervals = []
  }

  return {
    /** Watches `space` (none: only the periodic re-fetch), replacing any earlier watch. */
    start(space) {
      stop()
      first = true
      setState('reconnecting')
      intervals = [setInterval(opts.onTick, 1000), setInterval(schedule, REFRESH_EVERY)]
      if (!space) return
      ctrl = new AbortController()
      run(space, ctrl.signal)
    },
    stop,
  }
}

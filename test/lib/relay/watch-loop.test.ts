import { describe, expect, it } from 'vitest'
import { expired } from '../../../lib/errors.ts'
import type { KubeObject } from '../../../lib/kube/types.ts'
import { silentLogger } from '../../../lib/log.ts'
import {
  isGone,
  type RawWatchEvent,
  runWatchLoop,
  type WatchLoopOptions,
} from '../../../lib/relay/watch-loop.ts'

const item = (name: string, rv: string): KubeObject => ({
  apiVersion: 'edge.kcp.io/v1alpha1',
  kind: 'Location',
  metadata: { name, resourceVersion: rv },
})
const ev = (type: string, name: string, rv: string): RawWatchEvent => ({
  type,
  object: item(name, rv),
})
const gone410: RawWatchEvent = {
  type: 'ERROR',
  object: { apiVersion: 'v1', kind: 'Status', metadata: {}, code: 410, reason: 'Expired' },
}

/** One scripted watch connection: events to yield, then optionally an error to throw. */
type Conn = { events?: RawWatchEvent[]; fail?: unknown }

function harness(opts: {
  saved?: string
  conns: Conn[]
  lists?: { items: KubeObject[]; resourceVersion: string }[]
  listFails?: number
  listOnStart?: boolean
  listedHook?: boolean
}) {
  const controller = new AbortController()
  const opened: string[] = []
  const handled: string[] = []
  const commits: string[] = []
  const sleeps: number[] = []
  let lists = 0
  let listFails = opts.listFails ?? 0
  const conns = [...opts.conns]
  const options: WatchLoopOptions = {
    resource: 'locations',
    ...(opts.listOnStart ? { listOnStart: true } : {}),
    ...(opts.listedHook
      ? {
          onListed: async (items: KubeObject[]) => {
            handled.push(`LISTED ${items.map((i) => i.metadata.name).join(',')}`)
            return { delivered: Promise.resolve(true) }
          },
        }
      : {}),
    signal: controller.signal,
    log: silentLogger,
    random: () => 0.999999,
    backoff: { baseMs: 100, maxMs: 400 },
    sleep: async (ms) => {
      sleeps.push(ms)
    },
    cursor: {
      load: async () => opts.saved,
      commit: (rv, delivered) => {
        void delivered.then((ok) => ok && commits.push(rv))
      },
    },
    list: async () => {
      if (listFails > 0) {
        listFails -= 1
        throw new Error('list failed')
      }
      const l = opts.lists?.[lists] ?? { items: [], resourceVersion: '0' }
      lists += 1
      return l
    },
    onEvent: async (e) => {
      handled.push(`${e.type} ${e.object.metadata.name}`)
      return { delivered: Promise.resolve(true) }
    },
    openWatch(rv, signal) {
      opened.push(rv)
      const conn = conns.shift()
      return (async function* () {
        if (!conn) {
          controller.abort()
          return
        }
        for (const e of conn.events ?? []) {
          if (signal.aborted) return
          yield e
        }
        if (conn.fail !== undefined) throw conn.fail
      })()
    },
  }
  const run = async () => {
    await runWatchLoop(options)
    await new Promise((r) => setImmediate(r))
    return { opened, handled, commits, sleeps, lists }
  }
  return { run, controller }
}

describe('runWatchLoop', () => {
  it('without a cursor lists everything, then watches from the list resourceVersion', async () => {
    const r = await harness({
      lists: [{ items: [item('a', '3'), item('b', '5')], resourceVersion: '9' }],
      conns: [{ events: [ev('MODIFIED', 'a', '10'), ev('DELETED', 'b', '11')] }],
    }).run()
    expect(r.handled).toEqual(['ADDED a', 'ADDED b', 'MODIFIED a', 'DELETED b'])
    expect(r.opened).toEqual(['9', '11'])
    expect(r.commits).toEqual(['9', '10', '11'])
  })

  it('resumes from the saved cursor without listing', async () => {
    const r = await harness({
      saved: '42',
      conns: [{ events: [ev('ADDED', 'c', '43'), ev('BOOKMARK', '', '50')] }],
    }).run()
    expect(r.lists).toBe(0)
    expect(r.opened).toEqual(['42', '50'])
    expect(r.handled).toEqual(['ADDED c'])
    expect(r.commits).toEqual(['43', '50'])
  })

  it('relists on an ERROR 410 event and watches from the new list', async () => {
    const r = await harness({
      saved: '5',
      lists: [{ items: [item('x', '70')], resourceVersion: '80' }],
      conns: [{ events: [ev('ADDED', 'a', '6'), gone410] }, { events: [ev('ADDED', 'y', '81')] }],
    }).run()
    expect(r.lists).toBe(1)
    expect(r.opened).toEqual(['5', '80', '81'])
    expect(r.handled).toEqual(['ADDED a', 'ADDED x', 'ADDED y'])
    expect(r.commits).toEqual(['6', '80', '81'])
    expect(r.sleeps).toEqual([])
  })

  it('backs off when a fresh list is refused as expired again', async () => {
    const r = await harness({
      saved: '5',
      lists: [
        { items: [], resourceVersion: '90' },
        { items: [], resourceVersion: '95' },
      ],
      conns: [
        { fail: expired('too old') },
        { fail: expired('too old') },
        { events: [ev('ADDED', 'z', '96')] },
      ],
    }).run()
    expect(r.opened).toEqual(['5', '90', '95', '96'])
    expect(r.sleeps).toHaveLength(1)
  })

  it('relists when opening the watch fails with Expired', async () => {
    const r = await harness({
      saved: '5',
      lists: [{ items: [], resourceVersion: '90' }],
      conns: [{ fail: expired('too old') }, { events: [ev('ADDED', 'z', '91')] }],
    }).run()
    expect(r.opened).toEqual(['5', '90', '91'])
    expect(r.commits).toEqual(['90', '91'])
  })

  it('backs off exponentially on errors and reconnects from the last resourceVersion', async () => {
    const r = await harness({
      saved: '1',
      conns: [
        { events: [ev('ADDED', 'a', '2')], fail: new Error('reset') },
        { fail: new Error('refused') },
        { fail: new Error('refused') },
        { fail: new Error('refused') },
        { events: [ev('ADDED', 'b', '3')], fail: new Error('reset') },
      ],
    }).run()
    expect(r.opened).toEqual(['1', '2', '2', '2', '2', '3'])
    expect(r.sleeps).toEqual([100, 200, 400, 400, 100])
    expect(r.commits).toEqual(['2', '3'])
  })

  it('treats a non-410 ERROR event and an empty stream as failures', async () => {
    const status: RawWatchEvent = {
      type: 'ERROR',
      object: { apiVersion: 'v1', kind: 'Status', metadata: {}, code: 500 },
    }
    const r = await harness({ saved: '1', conns: [{ events: [status] }, {}] }).run()
    expect(r.opened).toEqual(['1', '1', '1'])
    expect(r.sleeps).toEqual([100, 200])
  })

  it('retries a failing list with backoff', async () => {
    const r = await harness({
      listFails: 2,
      lists: [{ items: [item('a', '1')], resourceVersion: '4' }],
      conns: [],
    }).run()
    expect(r.sleeps).toEqual([100, 200])
    expect(r.handled).toEqual(['ADDED a'])
    expect(r.opened).toEqual(['4'])
  })

  it('lists first despite a saved cursor with listOnStart, then hands the list to onListed', async () => {
    const r = await harness({
      saved: '42',
      listOnStart: true,
      listedHook: true,
      lists: [
        { items: [item('a', '50')], resourceVersion: '60' },
        { items: [item('b', '70')], resourceVersion: '80' },
      ],
      conns: [{ events: [ev('ADDED', 'c', '61'), gone410] }, { events: [ev('ADDED', 'd', '81')] }],
    }).run()
    expect(r.opened).toEqual(['60', '80', '81'])
    expect(r.handled).toEqual(['ADDED a', 'LISTED a', 'ADDED c', 'ADDED b', 'LISTED b', 'ADDED d'])
    expect(r.commits).toEqual(['60', '61', '80', '81'])
  })

  it('does nothing once the signal is aborted', async () => {
    const h = harness({ saved: '1', conns: [{ events: [ev('ADDED', 'a', '2')] }] })
    h.controller.abort()
    const r = await h.run()
    expect(r.opened).toEqual([])
    expect(r.handled).toEqual([])
  })
})

describe('isGone', () => {
  it('recognises 410s and Expired in errors and Status bodies only', () => {
    expect(isGone(expired('old'))).toBe(true)
    expect(isGone({ statusCode: 410 })).toBe(true)
    expect(isGone({ reason: 'Gone' })).toBe(true)
    expect(isGone({ code: 500 })).toBe(false)
    expect(isGone(new Error('410'))).toBe(false)
    expect(isGone(null)).toBe(false)
    expect(isGone('410')).toBe(false)
  })
})

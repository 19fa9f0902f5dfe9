import { describe, expect, it } from 'vitest'
import { createCrdTargets } from '../../../lib/relay/crd-targets.ts'
import { createSliceIndex } from '../../../lib/relay/slice-index.ts'
import { createWatchSet, desiredTargets } from '../../../lib/relay/watch-set.ts'
import { CORE_TARGETS, targetPath, type WatchTarget } from '../../../lib/relay/watch-targets.ts'
import { createFakeClock } from './fake-clock.ts'

const CONFIGMAPS: WatchTarget = { group: '', version: 'v1', resource: 'configmaps' }
const ALL = [...CORE_TARGETS, CONFIGMAPS]

function setup(lingerMs = 1000) {
  const clock = createFakeClock()
  const log: string[] = []
  const set = createWatchSet({
    lingerMs,
    setTimer: clock.setTimer,
    start(t) {
      log.push(`start ${targetPath(t)}`)
      return {
        stop: async () => {
          log.push(`stop ${targetPath(t)}`)
        },
      }
    },
  })
  return { clock, log, set, paths: () => set.running().map(targetPath).sort() }
}

describe('desiredTargets', () => {
  it('runs the core watches alone until a space holds a slice with a destination', () => {
    const index = createSliceIndex()
    const crds = createCrdTargets({ espwSpaceId: 'espw', isBuiltin: () => false })
    crds.apply({
      type: 'ADDED',
      object: {
        apiVersion: 'apiextensions.k8s.io/v1',
        kind: 'CustomResourceDefinition',
        metadata: { name: 'widgets.example.com', annotations: { 'kcp.io/cluster': 'ws1' } },
        spec: {
          group: 'example.com',
          names: { plural: 'widgets' },
          versions: [{ name: 'v1', served: true, storage: true }],
        },
      },
    })
    expect(desiredTargets(ALL, index, crds)).toEqual(CORE_TARGETS)
    index.set('ws2', 'p', [])
    expect(desiredTargets(ALL, index, crds)).toEqual(CORE_TARGETS)
    index.set('ws2', 'p', ['m'])
    expect(desiredTargets(ALL, index, crds)).toEqual(ALL)
    index.set('ws1', 'p', ['m'])
    expect(desiredTargets(ALL, index, crds).map(targetPath).at(-1)).toBe(
      '/clusters/ws1/apis/example.com/v1/widgets'
    )
  })
})

describe('createWatchSet', () => {
  it('starts what is wanted and stops the rest after lingering', async () => {
    const { clock, log, set, paths } = setup()
    set.update([CONFIGMAPS, CORE_TARGETS[0] as WatchTarget])
    expect(paths()).toHaveLength(2)
    set.update([CORE_TARGETS[0] as WatchTarget])
    await clock.advance(999)
    expect(paths()).toHaveLength(2)
    await clock.advance(1)
    expect(paths()).toEqual([targetPath(CORE_TARGETS[0] as WatchTarget)])
    expect(log.filter((l) => l.startsWith('stop'))).toEqual(['stop /clusters/*/api/v1/configmaps'])
  })

  it('keeps a lingering watch that is wanted again', async () => {
    const { clock, log, set } = setup()
    set.update([CONFIGMAPS])
    set.update([])
    await clock.advance(500)
    set.update([CONFIGMAPS])
    await clock.advance(5000)
    expect(log).toEqual(['start /clusters/*/api/v1/configmaps'])
  })

  it('stops at once without lingering, and stopAll stops everything and refuses updates', async () => {
    const { log, set, paths } = setup(0)
    set.update([CONFIGMAPS])
    set.update([])
    expect(paths()).toEqual([])
    set.update([CONFIGMAPS])
    await set.stopAll()
    set.update([CONFIGMAPS])
    expect(paths()).toEqual([])
    expect(log).toEqual([
      'start /clusters/*/api/v1/configmaps',
      'stop /clusters/*/api/v1/configmaps',
      'start /clusters/*/api/v1/configmaps',
      'stop /clusters/*/api/v1/configmaps',
    ])
  })
})

/**
 * A Pod's phase and containers over several edges (lib/summarize/multi-edge-pod.ts): Failed
 * anywhere, Succeeded everywhere, Running everywhere, else Pending; a container ready only where
 * it is ready at every edge, with the most restarts and the state of an edge where it is not.
 */
import { describe, expect, it } from 'vitest'
import type { JsonObject } from '../../../lib/kube/types.ts'
import { aggregateContainers, aggregatePhase } from '../../../lib/summarize/multi-edge-pod.ts'

const phases: [string, (string | undefined)[], string][] = [
  ['Running at every edge', ['Running', 'Running'], 'Running'],
  ['done at one, running at the other', ['Succeeded', 'Running'], 'Running'],
  ['Succeeded at every edge', ['Succeeded', 'Succeeded'], 'Succeeded'],
  ['Failed at one edge', ['Running', 'Failed'], 'Failed'],
  ['not reported at one edge', ['Running', undefined], 'Pending'],
  ['no edge', [], 'Pending'],
]

describe('aggregatePhase', () => {
  it.each(phases)('%s', (_name, list, want) => {
    expect(aggregatePhase(list.map((phase) => (phase ? { phase } : undefined)))).toBe(want)
  })
})

const running = { running: { startedAt: '2026-12-01T10:00:00Z' } }
const waiting = { waiting: { reason: 'ImagePullBackOff' } }
const container = (ready: boolean, restartCount: number, state: JsonObject): JsonObject => ({
  name: 'main',
  image: 'nginx:1',
  ready,
  started: ready,
  restartCount,
  state,
  containerID: 'containerd://x',
})

describe('aggregateContainers', () => {
  it('is ready when ready at every edge, with the most restarts', () => {
    const s = [
      { containerStatuses: [container(true, 0, running)] },
      { containerStatuses: [container(true, 2, running)] },
    ]
    expect(aggregateContainers(s)).toEqual([
      {
        name: 'main',
        image: 'nginx:1',
        ready: true,
        started: true,
        restartCount: 2,
        state: running,
      },
    ])
  })

  it('is not ready when one edge’s is not, with that edge’s state', () => {
    const s = [
      { containerStatuses: [container(true, 0, running)] },
      { containerStatuses: [container(false, 0, waiting)] },
    ]
    expect(aggregateContainers(s)).toEqual([
      {
        name: 'main',
        image: 'nginx:1',
        ready: false,
        started: false,
        restartCount: 0,
        state: waiting,
      },
    ])
  })

  it('is not ready where an edge has not reported it', () => {
    const s = [{ containerStatuses: [container(true, 1, running)] }, undefined]
    expect(aggregateContainers(s)).toMatchObject([{ name: 'main', ready: false, restartCount: 1 }])
  })
})

/**
 * The part `placementStatus` (reconcile-placement-status.ts) over plain inputs: what it asks to be
 * written — the summary of where each object stands, Ready's facts — and what it reports done.
 */
import { describe, expect, it } from 'vitest'
import type { PlacementStatusWant } from '../../../functions/reconcile-summarize/placement-status.ts'
import { placementStatusPart } from '../../../functions/reconcile-summarize/reconcile-placement-status.ts'
import type { RunInput } from '../../../functions/reconcile-summarize/run-input.ts'
import {
  configMap,
  deployment,
  dest,
  noRemovals,
  recorder,
  runInput,
  type Table,
} from './part-fixtures.ts'

const web = deployment('web', 2)
const cfg = configMap('cfg')
const ready = { updatedReplicas: 2, availableReplicas: 2, replicas: 2 }

type Want = {
  done: string[]
  /** undefined: nothing asked to be written. */
  write?: {
    totals: Record<string, number>
    failed: [string, number][]
    outdated: number
    /** The threshold Ready's message states (default: the default rule's). */
    staleAfterMs?: number
  }
}

type Case = {
  name: string
  table: Table
  over?: Partial<RunInput> & { mine?: boolean }
  /** The writer's answer (wrote or found it holding). */
  wrote?: boolean
  want: Want
}

const two = [dest('e1'), dest('e2')]

const cases: Case[] = [
  {
    name: 'no placement of its own: nothing to write',
    table: { objects: [web], destinations: two, held: {} },
    over: { mine: false },
    want: { done: [] },
  },
  {
    name: 'counts each pair once; Ready facts name the failed reasons',
    table: {
      objects: [web, cfg],
      destinations: two,
      held: {
        web: { e1: { status: ready }, e2: { status: { updatedReplicas: 1 } } },
        cfg: { e1: { status: {} }, e2: { problem: { reason: 'ApplyFailed', message: 'no' } } },
      },
    },
    wrote: true,
    want: {
      done: ['status updated'],
      write: {
        totals: { pending: 0, applied: 1, ready: 2, failed: 1, removing: 0, stale: 0 },
        failed: [['ApplyFailed', 1]],
        outdated: 0,
      },
    },
  },
  {
    name: 'a stale edge and a copy of an older spec; the writer found it holding',
    table: {
      objects: [web],
      destinations: two,
      held: { web: { e1: { status: ready, outdatedSpec: true }, e2: { status: ready } } },
      stale: ['e2'],
    },
    wrote: false,
    want: {
      done: [],
      write: {
        totals: { pending: 0, applied: 0, ready: 1, failed: 0, removing: 0, stale: 1 },
        failed: [],
        outdated: 1,
      },
    },
  },
  {
    name: 'Ready’s facts carry the staleness threshold the hub is configured with',
    table: {
      objects: [cfg],
      destinations: two,
      held: { cfg: { e1: { status: {} }, e2: { status: {} } } },
      stale: ['e2'],
    },
    over: { rule: { heartbeatMs: 10_000, staleAfterMs: 30_000 } },
    wrote: true,
    want: {
      done: ['status updated'],
      write: {
        totals: { pending: 0, applied: 0, ready: 1, failed: 0, removing: 0, stale: 1 },
        failed: [],
        outdated: 0,
        staleAfterMs: 30_000,
      },
    },
  },
  {
    name: 'copies leaving count as removing',
    table: { objects: [web], destinations: two, held: { web: { e1: { removing: true } } } },
    over: {
      removals: noRemovals({
        removingOf: () => [
          {
            key: { group: '', resource: 'configmaps', namespace: 'app', name: 'gone' },
            mailbox: 'x',
          },
        ],
      }),
    },
    wrote: true,
    want: {
      done: ['status updated'],
      write: {
        totals: { pending: 1, applied: 0, ready: 0, failed: 0, removing: 2, stale: 0 },
        failed: [],
        outdated: 0,
      },
    },
  },
]

describe('placementStatus', () => {
  it.each(cases)('$name', async (c) => {
    const writes = recorder(async (_w: Omit<PlacementStatusWant, 'now'>) => c.wrote ?? false)
    const upsyncs = recorder(async () => undefined)
    const part = placementStatusPart({ upsync: upsyncs.fn, write: writes.fn })
    const input = await runInput(c.table, c.over)
    const r = await part.run(input)
    expect(r).toEqual({ done: c.want.done })
    if (!c.want.write) {
      expect(writes.calls).toEqual([])
      expect(upsyncs.calls).toEqual([])
      return
    }
    expect(writes.calls).toHaveLength(1)
    const [w] = writes.calls[0]!
    expect(w.spaceId).toBe(input.spaceId)
    expect(w.summary.totals).toEqual(c.want.write.totals)
    expect(w.summary.destinations).toBe(2)
    expect([...w.facts.failedByReason]).toEqual(c.want.write.failed)
    expect(w.facts.outdated).toBe(c.want.write.outdated)
    expect(w.facts.generation).toBe(1)
    expect(w.facts.staleAfterMs).toBe(c.want.write.staleAfterMs ?? 180_000)
  })
})

describe('placementStatus: the Rollouts stamped on the copies', () => {
  it('lists them by name with the destinations at each lowest revision; none without stamps', async () => {
    const summaryOf = async (t: Table) => {
      const writes = recorder(async (_w: Omit<PlacementStatusWant, 'now'>) => true)
      const part = placementStatusPart({ upsync: async () => undefined, write: writes.fn })
      await part.run(await runInput(t))
      return writes.calls[0]?.[0].summary
    }
    const stamped: Table = {
      objects: [web, cfg],
      destinations: two,
      held: {
        web: { e1: { status: ready, stamp: 'shop/2' }, e2: { stamp: 'cart/1' } },
        cfg: { e1: { status: {}, stamp: 'shop/3' }, e2: { status: {}, stamp: 'shop/3' } },
      },
    }
    expect((await summaryOf(stamped))?.rollouts).toEqual([
      { name: 'cart', revisions: [{ revision: 1, destinations: 1 }] },
      {
        name: 'shop',
        revisions: [
          { revision: 2, destinations: 1 },
          { revision: 3, destinations: 1 },
        ],
      },
    ])
    const plain: Table = { objects: [web], destinations: two, held: { web: { e1: {} } } }
    expect(await summaryOf(plain)).not.toHaveProperty('rollouts')
  })
})

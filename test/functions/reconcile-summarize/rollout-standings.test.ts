/**
 * Where each destination stands for each Rollout stamped on its copies
 * (functions/reconcile-summarize/rollout-standings.ts), from table inputs as the run reads them.
 */
import { describe, expect, it } from 'vitest'
import { rolloutStandings } from '../../../functions/reconcile-summarize/rollout-standings.ts'
import type { Standings } from '../../../lib/rollout/standing-store.ts'
import { configMap, deployment, dest, runInput, type Table } from './part-fixtures.ts'

const web = deployment('web', 2)
const cfg = configMap('cfg')
const ready = { updatedReplicas: 2, availableReplicas: 2, replicas: 2 }
const two = [dest('e1'), dest('e2')]

async function standingsOf(t: Table): Promise<Record<string, Record<string, unknown>>> {
  const input = await runInput(t)
  const got: Standings = rolloutStandings(t.objects, input.own, input.condition, input.seen)
  expect(input.standings).toEqual(got)
  return Object.fromEntries(
    [...got].map(([mb, row]) => [mb.replace(/^imw-1-mb-uid-/, ''), Object.fromEntries(row)])
  )
}

describe('rolloutStandings', () => {
  it('none without stamps', async () => {
    const t: Table = {
      objects: [web, cfg],
      destinations: two,
      held: { web: { e1: { status: ready } }, cfg: { e1: { status: {} } } },
    }
    expect(await standingsOf(t)).toEqual({})
  })

  it('ready, failed with its reason, pending; a malformed stamp adds nothing', async () => {
    const t: Table = {
      objects: [web, cfg],
      destinations: [...two, dest('e3')],
      held: {
        web: {
          e1: { status: ready, stamp: 'shop/2' },
          e2: { problem: { reason: 'ErrImagePull', message: 'no such image' }, stamp: 'shop/2' },
          e3: { stamp: 'shop/2' },
        },
        cfg: { e1: { status: {}, stamp: 'Shop/x' } },
      },
    }
    expect(await standingsOf(t)).toEqual({
      e1: { shop: { revision: 2, state: 'ready' } },
      e2: {
        shop: { revision: 2, state: 'failed', reason: 'ErrImagePull', message: 'no such image' },
      },
      e3: { shop: { revision: 2, state: 'pending' } },
    })
  })

  it('mixed revisions give the lowest; applied (not ready yet) counts pending; two Rollouts apart', async () => {
    const t: Table = {
      objects: [web, cfg],
      destinations: two,
      held: {
        web: {
          e1: { status: { updatedReplicas: 1 }, stamp: 'shop/3' },
          e2: { status: ready, stamp: 'shop/3' },
        },
        cfg: { e1: { status: {}, stamp: 'shop/2' }, e2: { status: {}, stamp: 'cart/7' } },
      },
    }
    expect(await standingsOf(t)).toEqual({
      e1: { shop: { revision: 2, state: 'pending' } },
      e2: { shop: { revision: 3, state: 'ready' }, cart: { revision: 7, state: 'ready' } },
    })
  })

  it('a stale destination is stale; a copy leaving is pending', async () => {
    const t: Table = {
      objects: [web, cfg],
      destinations: two,
      stale: ['e1'],
      held: {
        web: { e1: { status: ready, stamp: 'shop/2' }, e2: { status: ready, stamp: 'shop/2' } },
        cfg: { e2: { status: {}, removing: true, stamp: 'shop/2' } },
      },
    }
    expect(await standingsOf(t)).toEqual({
      e1: { shop: { revision: 2, state: 'stale' } },
      e2: { shop: { revision: 2, state: 'pending' } },
    })
  })
})

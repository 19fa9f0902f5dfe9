/**
 * Phase 3: DynamoDB requests per hub operation, by operation name, from the main hub's request
 * counter: create (POST), update (PUT of the object as read, with its resourceVersion), merge
 * PATCH, delete, get, and list (a small and a big namespace, and a first page). Each operation is run
 * `samples` times one after another with the counter reset before and read after the hub's
 * background work settled; the figures are averages per HTTP request (auth and registry reads
 * included). `measure` is also how the edge phase counts its idle polls.
 */
import { configMapPath, type HubClient } from './hub-client.ts'
import { createNamespace } from './hub-crud.ts'
import { configMap } from './payload.ts'
import type { Counter } from './stack.ts'

export type RequestCost = {
  operation: string
  samples: number
  /** Average requests per operation, by DynamoDB operation name. */
  perOperation: Record<string, number>
  total: number
}

export type CostDeps = {
  hub: HubClient
  /** The main hub's request counter. */
  counter: Counter
  /** Waits for the hub's background work. */
  settle: () => Promise<void>
  progress: (message: string) => void
}

export type CostOptions = {
  samples: number
  itemBytes: number
  /** A namespace filled beforehand, and how many objects it holds, for the big list. */
  listNamespace: string
  listSize: number
}

/**
 * Runs `op(0) .. op(samples - 1)` one after another between two settles of the hub's background
 * work, and averages the hub's DynamoDB requests per op (the edge phase counts its polls with it).
 */
export async function measure(
  deps: Pick<CostDeps, 'counter' | 'settle' | 'progress'>,
  operation: string,
  samples: number,
  op: (i: number) => Promise<unknown>
): Promise<RequestCost> {
  const { counter, settle } = deps
  deps.progress(`requests: ${operation} x${samples}`)
  await settle()
  counter.reset()
  for (let i = 0; i < samples; i++) await op(i)
  await settle()
  const counts = counter.snapshot()
  const perOperation: Record<string, number> = {}
  for (const key of Object.keys(counts).sort()) perOperation[key] = (counts[key] ?? 0) / samples
  return { operation, samples, perOperation, total: counter.total() / samples }
}

/** Requests per create, get, update, merge patch, list and delete, in that order. */
export async function measureRequestCosts(
  deps: CostDeps,
  opts: CostOptions
): Promise<RequestCost[]> {
  const { hub } = deps
  const ns = 'bench-cost'
  const n = opts.samples
  const name = (i: number) => `cost-${i}`
  const path = (i: number) => configMapPath(ns, name(i))
  const m = (operation: string, op: (i: number) => Promise<unknown>) =>
    measure(deps, operation, n, op)
  await createNamespace(hub, ns)
  const out: RequestCost[] = []
  out.push(
    await m('create (POST)', (i) =>
      hub.call('POST', configMapPath(ns), {
        body: configMap(ns, name(i), opts.itemBytes, i),
        expect: 201,
      })
    )
  )
  out.push(await m('get', (i) => hub.call('GET', path(i))))
  const current = await Promise.all(Array.from({ length: n }, (_, i) => hub.call('GET', path(i))))
  out.push(
    await m('update (PUT)', (i) => {
      const obj = current[i] as { data: Record<string, string> }
      return hub.call('PUT', path(i), { body: { ...obj, data: { ...obj.data, step: 'put' } } })
    })
  )
  out.push(
    await m('patch (merge)', (i) =>
      hub.call('PATCH', path(i), {
        body: { data: { step: `patch-${i}` } },
        contentType: 'application/merge-patch+json',
      })
    )
  )
  out.push(await m(`list (${n} objects)`, () => hub.call('GET', configMapPath(ns))))
  out.push(
    await m(`list (${opts.listSize} objects)`, () =>
      hub.call('GET', configMapPath(opts.listNamespace))
    )
  )
  out.push(await m('list (limit=1)', () => hub.call('GET', `${configMapPath(ns)}?limit=1`)))
  out.push(await m('delete', (i) => hub.call('DELETE', path(i))))
  return out
}

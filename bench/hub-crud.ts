/**
 * Phase 2: the hub over HTTP. Creates ~1 KB ConfigMaps (POST) into one namespace sequentially and
 * into another with N concurrent workers, reads them back (GET) both ways, and lists the first
 * namespace (all N objects, and a first page of `listLimit`) both ways. Every response's status is
 * checked, and the full list must hold every object, so errors cannot pass for speed.
 */
import { configMapPath, type HubClient, NAMESPACES_PATH } from './hub-client.ts'
import { type LoadResult, runLoad } from './load.ts'
import { configMap } from './payload.ts'

export type HubCrudResults = {
  createSequential: LoadResult
  createConcurrent: LoadResult
  getSequential: LoadResult
  getConcurrent: LoadResult
  listAllSequential: LoadResult
  listAllConcurrent: LoadResult
  listLimitSequential: LoadResult
  listLimitConcurrent: LoadResult
}

export type HubCrudOptions = {
  objects: number
  concurrency: number
  listOps: number
  listLimit: number
  itemBytes: number
}

/** The namespace the sequential creates fill and the lists read: `objects` ConfigMaps. */
export const LIST_NAMESPACE = 'bench-seq'

/** Creates a Namespace in root (201). */
export async function createNamespace(hub: HubClient, name: string): Promise<void> {
  const body = { apiVersion: 'v1', kind: 'Namespace', metadata: { name } }
  await hub.call('POST', NAMESPACES_PATH, { body, expect: 201 })
}

function itemCount(body: unknown): number {
  const items = body && typeof body === 'object' ? (body as { items?: unknown }).items : undefined
  return Array.isArray(items) ? items.length : -1
}

/** Runs the create, get and list loads (phase 2) and returns each one's figures. */
export async function runHubCrud(
  hub: HubClient,
  opts: HubCrudOptions,
  progress: (message: string) => void
): Promise<HubCrudResults> {
  const { objects: n, concurrency } = opts
  const seqNs = LIST_NAMESPACE
  const concNs = 'bench-conc'
  await createNamespace(hub, seqNs)
  await createNamespace(hub, concNs)
  const create = (ns: string) => (i: number) =>
    hub.call('POST', configMapPath(ns), {
      body: configMap(ns, `cm-${i}`, opts.itemBytes, i),
      expect: 201,
    })
  const get = (ns: string) => (i: number) => hub.call('GET', configMapPath(ns, `cm-${i % n}`))
  const list = (query: string, expected: number) => async () => {
    const body = await hub.call('GET', `${configMapPath(seqNs)}${query}`)
    const count = itemCount(body)
    if (count !== expected) throw new Error(`list${query} returned ${count} items, not ${expected}`)
  }
  const seq = (count: number) => ({ count, concurrency: 1 })
  const conc = (count: number) => ({ count, concurrency })

  progress(`hub: create x${n} sequential`)
  const createSequential = await runLoad(seq(n), create(seqNs))
  progress(`hub: create x${n} with ${concurrency} concurrent`)
  const createConcurrent = await runLoad(conc(n), create(concNs))
  progress(`hub: get x${n} sequential`)
  const getSequential = await runLoad(seq(n), get(seqNs))
  progress(`hub: get x${n} with ${concurrency} concurrent`)
  const getConcurrent = await runLoad(conc(n), get(concNs))
  const all = list('', n)
  const limit = Math.min(opts.listLimit, n)
  const page = list(`?limit=${opts.listLimit}`, limit)
  progress(`hub: list of ${n} objects x${opts.listOps} sequential`)
  const listAllSequential = await runLoad(seq(opts.listOps), all)
  progress(`hub: list of ${n} objects x${opts.listOps} with ${concurrency} concurrent`)
  const listAllConcurrent = await runLoad(conc(opts.listOps), all)
  progress(`hub: list ?limit=${opts.listLimit} x${opts.listOps * 5} sequential`)
  const listLimitSequential = await runLoad(seq(opts.listOps * 5), page)
  progress(`hub: list ?limit=${opts.listLimit} x${opts.listOps * 5} with ${concurrency} concurrent`)
  const listLimitConcurrent = await runLoad(conc(opts.listOps * 5), page)
  return {
    createSequential,
    createConcurrent,
    getSequential,
    getConcurrent,
    listAllSequential,
    listAllConcurrent,
    listLimitSequential,
    listLimitConcurrent,
  }
}

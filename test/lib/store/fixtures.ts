/**
 * Shared fixtures for the store tests: object and key builders, a manual clock, a programmable
 * fault hook for the DynamoDB client (fail or hold the next matching command), and `apiError()`
 * to capture the ApiError a promise rejects with, `contextOf()` to reach the inner modules, and
 * `storeWithReplacedPut()` for a write whose outcome the writer cannot know.
 */
import { ApiError } from '../../../lib/errors.ts'
import type { KubeObject } from '../../../lib/kube/types.ts'
import type { StoreContext } from '../../../lib/store/context.ts'
import type { FaultCall } from '../../../lib/store/dynamo-client.ts'
import type { ObjectKey, ObjectStore } from '../../../lib/store/types.ts'
import { createTestStore } from '../../helpers/dynalite.ts'

export function configMap(
  name: string,
  namespace = 'default',
  data: Record<string, string> = {}
): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name, namespace, uid: `uid-${namespace}-${name}`, labels: { app: name } },
    data,
  }
}

export function cmKey(name: string, namespace = 'default', cluster = 'c1'): ObjectKey {
  return { cluster, group: '', resource: 'configmaps', namespace, name }
}

export const configMaps = (cluster = 'c1', namespace?: string) => ({
  cluster,
  group: '',
  resource: 'configmaps',
  ...(namespace === undefined ? {} : { namespace }),
})

/** A clock that only moves when told to. */
/**
 * Five ConfigMaps over two spaces (c1: default/a, default/b, kube-system/k; c2: default/z,
 * other/o), created out of key order, and c1's Namespace `default`: what the list tests read.
 */
export async function seedLists(objects: ObjectStore): Promise<void> {
  for (const [ns, name, cluster] of [
    ['default', 'b', 'c1'],
    ['default', 'a', 'c1'],
    ['kube-system', 'k', 'c1'],
    ['default', 'z', 'c2'],
    ['other', 'o', 'c2'],
  ] as const) {
    await objects.create(cmKey(name, ns, cluster), configMap(name, ns))
  }
  await objects.create(
    { cluster: 'c1', group: '', resource: 'namespaces', namespace: '', name: 'default' },
    { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'default' } }
  )
}

export function manualClock(start = 1_800_000_000_000) {
  let t = start
  return {
    now: () => t,
    advance: (ms: number) => {
      t += ms
    },
  }
}

type Rule = {
  op: string
  phase: FaultCall['phase']
  match?: (input: Record<string, unknown>) => boolean
  action: () => void | Promise<void>
}

/** A fault hook whose rules fire once each, on the first matching command. */
export function faultHook() {
  const rules: Rule[] = []
  const hook = async (call: FaultCall) => {
    const input = call.input as Record<string, unknown>
    const i = rules.findIndex(
      (r) => r.op === call.op && r.phase === call.phase && (!r.match || r.match(input))
    )
    if (i < 0) return
    const [rule] = rules.splice(i, 1)
    await rule?.action()
  }
  return {
    hook,
    /** Throw on the next matching command (before it is sent, or after it landed). */
    fail(op: string, phase: FaultCall['phase'], match?: Rule['match']) {
      rules.push({
        op,
        phase,
        match,
        action: () => {
          throw new Error(`injected ${op} failure (${phase})`)
        },
      })
    },
    /** Run `action` on the next matching command (throwing from it fails the command). */
    on(
      op: string,
      phase: FaultCall['phase'],
      action: () => void | Promise<void>,
      match?: Rule['match']
    ) {
      rules.push({ op, phase, match, action })
    },
    /** Hold the next matching command until the returned function is called. */
    hold(op: string, match?: Rule['match']): () => void {
      let release = () => {}
      const gate = new Promise<void>((resolve) => {
        release = resolve
      })
      rules.push({ op, phase: 'before', match, action: () => gate })
      return release
    },
    pending: () => rules.length,
  }
}

/** Matches a PutItem into the change log (pk `l#…`) or an object head (pk `o#…`). */
export const putsInto = (prefix: string) => (input: Record<string, unknown>) => {
  const item = input.Item as Record<string, { S?: string }> | undefined
  return item?.pk?.S?.startsWith(prefix) ?? false
}

/** The ApiError `promise` rejects with; fails the test when it resolves or throws something else. */
export async function apiError(promise: Promise<unknown>): Promise<ApiError> {
  try {
    await promise
  } catch (e) {
    if (e instanceof ApiError) return e
    throw e
  }
  throw new Error('expected an ApiError, but the call succeeded')
}

/** A StoreContext on a test store's table, for testing the store's inner modules directly. */
export function contextOf(store: {
  client: StoreContext['client']
  tableName: string
}): StoreContext {
  return {
    client: store.client,
    table: store.tableName,
    now: Date.now,
    retentionMs: 60_000,
    settleMs: 0,
  }
}

/**
 * A test store holding ConfigMap `a` (`v1`, data v=1) whose next object-head put lands (rv 2) and is
 * replaced by another writer (data v=other) before the put fails with `error()`. The caller closes
 * the store.
 */
export async function storeWithReplacedPut(error: () => Error) {
  const faults = faultHook()
  const store = await createTestStore({ fault: faults.hook })
  const v1 = await store.objects.create(cmKey('a'), configMap('a', 'default', { v: '1' }))
  faults.on(
    'PutItem',
    'after',
    async () => {
      await store.objects.update(cmKey('a'), { ...v1, data: { v: 'other' } }, '2')
      throw error()
    },
    putsInto('o#')
  )
  return { store, v1 }
}

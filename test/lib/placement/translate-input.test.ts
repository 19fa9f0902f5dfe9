/**
 * translateInput: equal across the summarize step's own writes on a workload object (checked
 * against the real step over the in-process hub), different for every change an author makes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { EDGE_REMOVAL_FINALIZER } from '../../../lib/deletion/lifecycle.ts'
import type { KubeObject } from '../../../lib/kube/types.ts'
import { canonicalJson } from '../../../lib/patch/json-values.ts'
import {
  EXECUTING_COUNT_ANNOTATION,
  STATUS_FROM_ANNOTATION,
} from '../../../lib/placement/annotations.ts'
import { translateInput } from '../../../lib/placement/translate-input.ts'
import { CONTROLLER_MANAGER } from '../../../lib/reconcile/types.ts'
import {
  CFG_REPORTED,
  CM,
  createWorld,
  placeOneConfigMap,
  type World,
  WS,
} from '../../functions/reconcile-summarize/world.ts'

const same = (a: KubeObject, b: KubeObject) =>
  canonicalJson(translateInput(a)) === canonicalJson(translateInput(b))

const authored: KubeObject = {
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: {
    name: 'cfg',
    namespace: 'app',
    uid: 'u1',
    resourceVersion: '10',
    labels: { app: 'web' },
    annotations: { note: 'x' },
    finalizers: ['example.com/keep'],
    managedFields: [
      { manager: 'kubectl', operation: 'Apply', time: '2026-01-01T00:00:00Z', fieldsV1: {} },
    ],
  },
  data: { a: '1' },
}

describe('translateInput', () => {
  it('leaves out the resourceVersion and what the steps write', () => {
    const m = authored.metadata
    const stepped: KubeObject = {
      ...authored,
      metadata: {
        ...m,
        resourceVersion: '11',
        annotations: {
          ...m.annotations,
          [EXECUTING_COUNT_ANNOTATION]: '3',
          [STATUS_FROM_ANNOTATION]: '1/3',
        },
        finalizers: [...(m.finalizers ?? []), EDGE_REMOVAL_FINALIZER],
        managedFields: [
          ...(m.managedFields ?? []),
          { manager: CONTROLLER_MANAGER, operation: 'Update', time: '2026-01-02T00:00:00Z' },
        ],
      },
    }
    expect(same(authored, stepped)).toBe(true)
    expect(translateInput(stepped).metadata).toEqual({
      name: 'cfg',
      namespace: 'app',
      uid: 'u1',
      labels: { app: 'web' },
      annotations: { note: 'x' },
      finalizers: ['example.com/keep'],
      managedFields: m.managedFields,
    })
  })

  const m = authored.metadata
  const changes: [string, KubeObject][] = [
    ['data', { ...authored, data: { a: '2' } }],
    ['a label', { ...authored, metadata: { ...m, labels: { app: 'api' } } }],
    ['another annotation', { ...authored, metadata: { ...m, annotations: { note: 'y' } } }],
    ['an author finalizer', { ...authored, metadata: { ...m, finalizers: [] } }],
    [
      'the deletion',
      { ...authored, metadata: { ...m, deletionTimestamp: '2026-01-03T00:00:00Z' } },
    ],
    ['the uid (re-created)', { ...authored, metadata: { ...m, uid: 'u2' } }],
    ['the status', { ...authored, status: { phase: 'x' } }],
    [
      "an author's managedFields time (the merge orders sources by it)",
      {
        ...authored,
        metadata: {
          ...m,
          managedFields: [{ manager: 'kubectl', operation: 'Apply', time: '2026-02-01T00:00:00Z' }],
        },
      },
    ],
  ]
  it.each(changes)('changes with %s', (_what, changed) => {
    expect(same(authored, changed)).toBe(false)
  })
})

describe("translateInput across the summarize step's writes (in-process hub)", () => {
  let w: World
  beforeAll(async () => {
    w = await createWorld()
    await placeOneConfigMap(w, 'p', [{ matchLabels: { env: 'prod' } }])
  }, 120_000)
  afterAll(() => w?.close())

  it('stays equal while summarize writes the executing count and the finalizer', async () => {
    const before = (await w.client.get(WS, CM, 'cfg', 'app')) as KubeObject
    await w.summarize()
    const after = (await w.client.get(WS, CM, 'cfg', 'app')) as KubeObject
    expect(after.metadata.resourceVersion).not.toBe(before.metadata.resourceVersion)
    expect(after.metadata.annotations?.[EXECUTING_COUNT_ANNOTATION]).toBe('0')
    expect(after.metadata.finalizers).toContain(EDGE_REMOVAL_FINALIZER)
    expect(same(before, after)).toBe(true)
    await w.report('e1', {
      heartbeat: true,
      statuses: [CFG_REPORTED],
    })
    await w.summarize()
    const counted = (await w.client.get(WS, CM, 'cfg', 'app')) as KubeObject
    expect(counted.metadata.annotations?.[EXECUTING_COUNT_ANNOTATION]).toBe('1')
    expect(same(before, counted)).toBe(true)
  })
})

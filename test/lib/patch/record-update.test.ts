/**
 * Tests for managed-field bookkeeping of ordinary writes: ownership on create (with "." on
 * objects the write created), moving ownership of changed fields, forgetting removed fields,
 * no-op writes, subresource entries and client resets of managedFields.
 */
import { describe, expect, it } from 'vitest'
import type { KubeObject, ManagedFieldsEntry } from '../../../lib/kube/types.ts'
import { recordUpdate } from '../../../lib/patch/record-update.ts'

const T0 = '2026-01-01T00:00:00Z'
const T1 = '2026-01-01T00:01:00Z'

const cm = (data: Record<string, string>, managedFields?: ManagedFieldsEntry[]): KubeObject => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: {
    name: 'cm',
    namespace: 'ns',
    uid: 'u',
    resourceVersion: '1',
    labels: { app: 'x' },
    ...(managedFields ? { managedFields } : {}),
  },
  data,
})

const created = recordUpdate({
  before: undefined,
  after: cm({ a: '1' }),
  manager: 'kubectl-create',
  operation: 'Update',
  now: T0,
})

describe('recordUpdate', () => {
  it('gives the creator every tracked field, with "." on the objects it created', () => {
    expect(created.metadata.managedFields).toEqual([
      {
        manager: 'kubectl-create',
        operation: 'Update',
        apiVersion: 'v1',
        time: T0,
        fieldsType: 'FieldsV1',
        fieldsV1: {
          'f:data': { '.': {}, 'f:a': {} },
          'f:metadata': { 'f:labels': { '.': {}, 'f:app': {} } },
        },
      },
    ])
    expect(created.data).toEqual({ a: '1' })
  })

  it('moves changed fields to the writer and forgets removed ones', () => {
    const after = {
      ...cm({ a: '2', b: '1' }, created.metadata.managedFields),
      metadata: { ...created.metadata, labels: {} },
    }
    const out = recordUpdate({
      before: created,
      after,
      manager: 'editor',
      operation: 'Update',
      now: T1,
    })
    const byManager = Object.fromEntries(
      (out.metadata.managedFields ?? []).map((e) => [e.manager, e.fieldsV1])
    )
    expect(byManager).toEqual({
      // still the owner of the two maps themselves: a member with nothing below is `{}`
      'kubectl-create': { 'f:data': {}, 'f:metadata': { 'f:labels': {} } },
      editor: { 'f:data': { 'f:a': {}, 'f:b': {} } },
    })
  })

  it('changes nothing for a write that changes nothing', () => {
    const out = recordUpdate({
      before: created,
      after: created,
      manager: 'kubectl-create',
      operation: 'Update',
      now: T1,
    })
    expect(out.metadata.managedFields).toEqual(created.metadata.managedFields)
    const other = recordUpdate({
      before: created,
      after: created,
      manager: 'someone',
      operation: 'Update',
      now: T1,
    })
    expect(other.metadata.managedFields).toEqual(created.metadata.managedFields)
  })

  it('keeps a separate entry for status writes', () => {
    const after = { ...created, status: { phase: 'Ready' } }
    const out = recordUpdate({
      before: created,
      after,
      manager: 'ctrl',
      operation: 'Update',
      now: T1,
      subresource: 'status',
    })
    const status = out.metadata.managedFields?.find((e) => e.manager === 'ctrl')
    expect(status).toMatchObject({
      subresource: 'status',
      fieldsV1: { 'f:status': { '.': {}, 'f:phase': {} } },
    })
  })

  it('keeps the stored managedFields when the write sends none or an empty list', () => {
    const after = { ...created, metadata: { ...created.metadata, managedFields: [] } }
    const out = recordUpdate({ before: created, after, manager: 'x', operation: 'Update', now: T1 })
    expect(out.metadata.managedFields).toEqual(created.metadata.managedFields)
  })

  it('lets a client reset managedFields with [{}]', () => {
    const after = { ...created, metadata: { ...created.metadata, managedFields: [{}] } }
    const out = recordUpdate({ before: created, after, manager: 'x', operation: 'Update', now: T1 })
    expect(out.metadata.managedFields).toBeUndefined()
  })

  it('lets a client replace managedFields with different ones', () => {
    const replacement: ManagedFieldsEntry[] = [
      {
        manager: 'mine',
        operation: 'Apply',
        apiVersion: 'v1',
        fieldsType: 'FieldsV1',
        fieldsV1: { 'f:data': { 'f:a': {} } },
      },
    ]
    const after = { ...created, metadata: { ...created.metadata, managedFields: replacement } }
    const out = recordUpdate({ before: created, after, manager: 'x', operation: 'Update', now: T1 })
    expect(out.metadata.managedFields).toEqual(replacement)
  })

  it('does not mutate its inputs', () => {
    const before = structuredClone(created)
    const after = cm({ z: '1' }, created.metadata.managedFields)
    const afterCopy = structuredClone(after)
    recordUpdate({ before: created, after, manager: 'y', operation: 'Update', now: T1 })
    expect(created).toEqual(before)
    expect(after).toEqual(afterCopy)
  })
})

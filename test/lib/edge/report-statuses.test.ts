/**
 * Statuses and problems of edge reports landing on the mailbox copies: rendered status with the
 * reported observedGeneration, associated objects and problems as annotations, no writes for a
 * repeated report, states surviving spec changes, retry after a lost race, rejections (unknown
 * copies, too large states, a generation newer than the copy's).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { applyReport, parseReport } from '../../../lib/edge/apply-report.ts'
import {
  ASSOCIATED_ANNOTATION,
  SYNC_PROBLEM_ANNOTATION,
} from '../../../lib/store/projection-render.ts'
import { createEdgeFixture, DESIRED, type EdgeFixture } from './edge-fixture.ts'

let f: EdgeFixture
beforeAll(async () => {
  f = await createEdgeFixture()
})
afterAll(() => f.close())

const D = { group: 'apps', version: 'v1', resource: 'deployments', namespace: 'ns', name: 'd' }
const C = { group: '', version: 'v1', resource: 'configmaps', namespace: 'ns', name: 'c' }
const DEPLOY = 'apps/v1/namespaces/ns/deployments/d'
const CM = 'v1/namespaces/ns/configmaps/c'

const send = (body: Record<string, unknown>) =>
  applyReport(f.env, f.mailbox, parseReport({ kind: 'Report', ...body }))

const dStatus = (observedGeneration: number, ready: number) => ({
  ...D,
  observedGeneration,
  status: { replicas: 1, readyReplicas: ready, observedGeneration: 7 },
  associated: [{ kind: 'ReplicaSet', namespace: 'ns', name: 'd-5f7', ready: ready > 0 }],
})

describe('statuses', () => {
  it('lands on the copy with the reported generation and associated objects', async () => {
    const before = await f.getCopy(DEPLOY)
    f.counter.reset()
    const result = await send({ statuses: [dStatus(1, 1)] })
    expect(result).toEqual({ kind: 'ReportResult', accepted: 1, rejected: [] })
    expect(f.counter.snapshot()).toEqual({
      GetItem: 2,
      BatchGetItem: 1,
      UpdateItem: 1,
      PutItem: 1,
      BatchWriteItem: 1,
    })
    const copy = await f.getCopy(DEPLOY)
    expect(copy.status).toEqual({ replicas: 1, readyReplicas: 1, observedGeneration: 1 })
    expect(JSON.parse(copy.metadata.annotations?.[ASSOCIATED_ANNOTATION] ?? '')).toEqual([
      { kind: 'ReplicaSet', namespace: 'ns', name: 'd-5f7', ready: true },
    ])
    expect(Number(copy.metadata.resourceVersion)).toBeGreaterThan(
      Number(before.metadata.resourceVersion)
    )
    expect(copy.metadata.uid).toBe(before.metadata.uid)
    expect(copy.spec).toEqual(before.spec)
  })

  it('writes nothing for a repeated report: one manifest read and one state read', async () => {
    f.counter.reset()
    const result = await send({ statuses: [dStatus(1, 1)] })
    expect(result).toEqual({ kind: 'ReportResult', accepted: 1, rejected: [] })
    expect(f.writes()).toBe(0)
    expect(f.counter.snapshot()).toEqual({ GetItem: 1, BatchGetItem: 1 })
  })

  it('keeps the state across a spec change; observedGeneration tells it is stale', async () => {
    await f.rewrite(DESIRED(2))
    const changed = await f.getCopy(DEPLOY)
    expect(changed.metadata.generation).toBe(2)
    expect(changed.status).toEqual({ replicas: 1, readyReplicas: 1, observedGeneration: 1 })
    // the manifest write's MODIFIED event carries the state too
    const { events } = await f.store.objects.changes({
      cluster: f.mailbox.space.id,
      group: 'apps',
      resource: 'deployments',
      sinceRv: Number(changed.metadata.resourceVersion) - 1,
    })
    expect(events.map((e) => [e.type, e.object.metadata.generation, e.object.status])).toEqual([
      ['MODIFIED', 2, { replicas: 1, readyReplicas: 1, observedGeneration: 1 }],
    ])
    await send({ statuses: [dStatus(2, 0)] })
    const copy = await f.getCopy(DEPLOY)
    expect(copy.status).toEqual({ replicas: 1, readyReplicas: 0, observedGeneration: 2 })
    expect(JSON.parse(copy.metadata.annotations?.[ASSOCIATED_ANNOTATION] ?? '')[0].ready).toBe(
      false
    )
  })

  it('rejects statuses of copies the mailbox does not hold, and too large ones', async () => {
    const result = await send({
      statuses: [
        { ...D, name: 'zz', observedGeneration: 1, status: {} },
        { ...C, observedGeneration: 1, status: { big: 'x'.repeat(300_000) } },
      ],
    })
    expect(result.accepted).toBe(0)
    expect(result.rejected.map((r) => [r.ref, r.message.split(':')[0]])).toEqual([
      [{ ...D, name: 'zz' }, 'the mailbox has no projected copy apps/deployments/ns/zz'],
      [C, 'the status and associated objects are too large'],
    ])
  })

  it('rejects a status about an earlier copy of the name (a generation the copy never had)', async () => {
    const before = await f.getCopy(DEPLOY)
    const generation = before.metadata.generation ?? 0
    const result = await send({ statuses: [dStatus(generation + 1, 0)] })
    expect(result.accepted).toBe(0)
    expect(result.rejected).toEqual([
      {
        ref: D,
        message: `observedGeneration ${generation + 1} is newer than the copy's generation ${generation}: the report is about an earlier copy of this name`,
      },
    ])
    expect((await f.getCopy(DEPLOY)).status).toEqual(before.status)
  })
})

describe('problems', () => {
  it('shows a problem on the copy until a status report clears it', async () => {
    const problem = { ...C, reason: 'ForeignObject', message: 'configmaps ns/c exists at the edge' }
    expect(await send({ problems: [problem] })).toMatchObject({ accepted: 1, rejected: [] })
    const shown = await f.getCopy(CM)
    expect(shown.metadata.annotations?.[SYNC_PROBLEM_ANNOTATION]).toBe(
      'ForeignObject: configmaps ns/c exists at the edge'
    )
    expect(shown.status).toBeUndefined()
    f.counter.reset()
    await send({ problems: [problem] })
    expect(f.writes()).toBe(0)
    await send({ statuses: [{ ...C, observedGeneration: 1, status: { phase: 'ok' } }] })
    const cleared = await f.getCopy(CM)
    expect(cleared.metadata.annotations?.[SYNC_PROBLEM_ANNOTATION]).toBeUndefined()
    expect(cleared.status).toEqual({ phase: 'ok', observedGeneration: 1 })
  })

  it('keeps the status when a problem is reported for a copy that has one', async () => {
    const problem = { ...D, reason: 'ApplyFailed', message: 'quota exceeded' }
    await send({ problems: [problem] })
    const copy = await f.getCopy(DEPLOY)
    expect(copy.status).toEqual({ replicas: 1, readyReplicas: 0, observedGeneration: 2 })
    expect(copy.metadata.annotations?.[SYNC_PROBLEM_ANNOTATION]).toBe('ApplyFailed: quota exceeded')
  })
})

describe('races', () => {
  /** Before the next `times` state puts, another writer changes the state of the copy. */
  function interfere(times: number) {
    let left = times
    let busy = false
    f.setFault(async (call) => {
      const pk = (call.input as { Item?: { pk?: { S?: string } } }).Item?.pk?.S
      if (busy || left === 0 || call.op !== 'PutItem' || call.phase !== 'before') return
      if (!pk?.startsWith('ps#')) return
      left--
      busy = true
      const states = await f.deps.projections.getCopyStates(f.mailbox.space.id, [D])
      const stored = states.get('apps/deployments/ns/d')!
      const state = { uid: stored.uid, status: { other: `writer ${left}` } }
      await f.deps.projections.putCopyStates(f.mailbox.space.id, [
        { key: D, state, expectedRv: stored.rv },
      ])
      busy = false
    })
  }

  it('re-reads and writes again once after losing a race', async () => {
    interfere(1)
    const result = await send({ statuses: [dStatus(2, 1)] })
    f.setFault(undefined)
    expect(result).toEqual({ kind: 'ReportResult', accepted: 1, rejected: [] })
    expect((await f.getCopy(DEPLOY)).status).toEqual({
      replicas: 1,
      readyReplicas: 1,
      observedGeneration: 2,
    })
  })

  it('rejects the status when it loses twice', async () => {
    interfere(2)
    const result = await send({ statuses: [dStatus(2, 0)] })
    f.setFault(undefined)
    expect(result.accepted).toBe(0)
    expect(result.rejected).toEqual([
      { ref: D, message: 'the copy state kept changing meanwhile; report it again' },
    ])
    expect((await f.getCopy(DEPLOY)).status).toEqual({ other: 'writer 0' })
  })
})

/**
 * Upsynced objects landing in the mailbox through reports: created, updated and deleted as real
 * objects marked `edge.kcp.io/upsynced`, status included; nothing written for a repeated report;
 * objects no upsync set selects, kinds not served and foreign objects rejected and left alone; the
 * mailbox's report mark moved by a report that wrote something, only.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { applyReport, parseReport } from '../../../lib/edge/apply-report.ts'
import { UPSYNCED_ANNOTATION } from '../../../lib/edge/protocol.ts'
import { createEdgeFixture, type EdgeFixture } from './edge-fixture.ts'

let f: EdgeFixture
beforeAll(async () => {
  f = await createEdgeFixture()
})
afterAll(() => f.close())

const send = (upsync: Record<string, unknown>) =>
  applyReport(f.env, f.mailbox, parseReport({ kind: 'Report', upsync }))

const edgeCm = (name: string, data: Record<string, string>, namespace = 'ns') => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: {
    name,
    namespace,
    uid: 'edge-uid',
    resourceVersion: '12345',
    labels: { born: 'edge' },
    ownerReferences: [{ apiVersion: 'v1', kind: 'Pod', name: 'p', uid: 'edge-pod' }],
    annotations: { 'kcp.io/cluster': 'edge-cluster', note: 'hi' },
  },
  data,
})
const pv = (phase: string) => ({
  apiVersion: 'v1',
  kind: 'PersistentVolume',
  metadata: { name: 'pv1' },
  spec: {
    capacity: { storage: '1Gi' },
    accessModes: ['ReadWriteOnce'],
    hostPath: { path: '/data' },
  },
  status: { phase },
})
const CMS = 'v1/namespaces/ns/configmaps'
const ref = (name: string, namespace = 'ns') => ({
  group: '',
  version: 'v1',
  resource: 'configmaps',
  namespace,
  name,
})

describe('upsync', () => {
  it('creates edge-born objects as marked mailbox objects, status included', async () => {
    const result = await send({ apply: [edgeCm('up1', { a: '1' }), pv('Available')] })
    expect(result).toEqual({ kind: 'ReportResult', accepted: 2, rejected: [] })
    const cm = await f.getCopy(`${CMS}/up1`)
    expect(cm.data).toEqual({ a: '1' })
    expect(cm.metadata.labels).toEqual({ born: 'edge' })
    expect(cm.metadata.annotations).toEqual({
      note: 'hi',
      [UPSYNCED_ANNOTATION]: 'true',
      'kcp.io/cluster': f.mailbox.space.id,
    })
    expect(cm.metadata.uid).not.toBe('edge-uid')
    expect(cm.metadata.ownerReferences).toBeUndefined()
    const stored = await f.deps.objects.get({
      cluster: f.mailbox.space.id,
      group: '',
      resource: 'configmaps',
      namespace: 'ns',
      name: 'up1',
    })
    expect(stored?.metadata.uid).toBe(cm.metadata.uid) // a real object, not a projected copy
    const volume = await f.getCopy('v1/persistentvolumes/pv1')
    expect(volume.status).toEqual({ phase: 'Available' })
    expect(volume.metadata.annotations?.[UPSYNCED_ANNOTATION]).toBe('true')
  })

  it('writes nothing when the same objects are reported again', async () => {
    f.counter.reset()
    const result = await send({ apply: [edgeCm('up1', { a: '1' }), pv('Available')] })
    expect(result.accepted).toBe(2)
    expect(f.writes()).toBe(0)
  })

  it('updates changed objects and their status', async () => {
    const before = await f.getCopy(`${CMS}/up1`)
    const result = await send({ apply: [edgeCm('up1', { a: '2' }), pv('Bound')] })
    expect(result).toMatchObject({ accepted: 2, rejected: [] })
    const after = await f.getCopy(`${CMS}/up1`)
    expect(after.data).toEqual({ a: '2' })
    expect(after.metadata.uid).toBe(before.metadata.uid)
    expect((await f.getCopy('v1/persistentvolumes/pv1')).status).toEqual({ phase: 'Bound' })
  })

  it('rejects objects no upsync set selects, unserved kinds and malformed ones', async () => {
    const widget = { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w' } }
    const secret = { apiVersion: 'v1', kind: 'Secret', metadata: { name: 's', namespace: 'ns' } }
    const result = await send({
      apply: [
        edgeCm('x', {}, 'other'),
        secret,
        { ...pv('Bound'), metadata: { name: 'pv2' } },
        widget,
        { kind: 'ConfigMap' },
      ],
    })
    expect(result.accepted).toBe(0)
    const none = 'no upsync set of the SyncerConfig the-one selects this object'
    expect(result.rejected).toEqual([
      { ref: ref('x', 'other'), message: none },
      { ref: { ...ref('s'), resource: 'secrets' }, message: none },
      { ref: { ...ref('pv2', ''), resource: 'persistentvolumes' }, message: none },
      { ref: { name: 'w' }, message: 'kind Widget of example.com/v1 is not served in the mailbox' },
      { ref: {}, message: 'an upsynced object needs apiVersion, kind and metadata.name' },
    ])
    expect((await f.call('GET', f.mbPath(`${CMS}/x`).replace('/ns/', '/other/'))).status).toBe(404)
  })

  it('never overwrites or deletes objects it did not upsync', async () => {
    const own = {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'mine' },
      data: { k: 'v' },
    }
    expect((await f.call('POST', f.mbPath(CMS), own)).status).toBe(201)
    const result = await send({
      apply: [edgeCm('mine', { k: 'edge' }), edgeCm('c', { k: 'edge' })],
      delete: [ref('mine'), ref('c')],
    })
    const message = (name: string) =>
      `configmaps ns/${name} exists in the mailbox and was not upsynced; it is left alone`
    expect(result).toEqual({
      kind: 'ReportResult',
      accepted: 0,
      rejected: [
        { ref: ref('mine'), message: message('mine') },
        { ref: ref('c'), message: message('c') }, // the projected copy
        { ref: ref('mine'), message: message('mine') },
        { ref: ref('c'), message: message('c') },
      ],
    })
    expect((await f.getCopy(`${CMS}/mine`)).data).toEqual({ k: 'v' })
    expect((await f.getCopy(`${CMS}/c`)).data).toBeUndefined()
  })

  it('deletes upsynced objects, and accepts deletes of absent ones', async () => {
    const pvRef = { ...ref('pv1', ''), resource: 'persistentvolumes' }
    const result = await send({ delete: [ref('up1'), pvRef, ref('never')] })
    expect(result).toEqual({ kind: 'ReportResult', accepted: 3, rejected: [] })
    expect((await f.call('GET', f.mbPath(`${CMS}/up1`))).status).toBe(404)
    expect((await f.call('GET', f.mbPath('v1/persistentvolumes/pv1'))).status).toBe(404)
    f.counter.reset()
    expect(await send({ delete: [ref('up1')] })).toMatchObject({ accepted: 1, rejected: [] })
    expect(f.writes()).toBe(0)
  })

  it("moves the mailbox's report mark when it writes, and not for a report that writes nothing", async () => {
    const id = f.mailbox.space.id
    const mark = async () => (await f.env.deps.projections.getMailboxMarks([id])).get(id)?.reports
    const before = await mark()
    await send({ apply: [edgeCm('up2', { a: '1' })] })
    const after = await mark()
    expect(after).toBeDefined()
    expect(after).not.toBe(before)
    await send({ apply: [edgeCm('up2', { a: '1' })] })
    expect(await mark()).toBe(after)
    await send({ delete: [ref('up2')] })
    expect(await mark()).not.toBe(after)
  })
})

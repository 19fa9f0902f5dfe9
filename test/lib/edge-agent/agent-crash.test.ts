/**
 * A crash between a create and the write of its uid into the ownership record, against a real
 * edge API: the record then holds a pending entry (written before the create). The object the
 * agent did create — its marker and its server-side-apply field manager on it — is adopted and is
 * the agent's to update and prune; an object someone else made under that name in the meantime,
 * even one carrying a copied marker, is foreign: reported, left alone, never deleted.
 */
import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { DOWNSYNCED_ANNOTATION } from '../../../lib/edge/protocol.ts'
import { FIELD_MANAGER } from '../../../lib/edge-agent/apply.ts'
import { type FakeCenter, startFakeCenter } from './fake-center.ts'
import {
  cmRef,
  configMap,
  type Edge,
  namespace,
  newAgent,
  startEdge,
  tempStateDir,
} from './fixture.ts'

let edge: Edge
let center: FakeCenter
beforeAll(async () => {
  edge = await startEdge()
  await edge.call('POST', '/api/v1/namespaces', namespace('crash'))
})
afterAll(async () => {
  await edge?.close()
})
beforeEach(async () => {
  center = await startFakeCenter('mb-crash')
})
afterEach(async () => {
  await center?.close()
})

/** A state folder whose record holds a pending create of ConfigMap crash/<name>. */
async function pendingRecord(name: string): Promise<string> {
  const dir = await tempStateDir()
  await mkdir(dir, { recursive: true })
  const rec = { ...cmRef('crash', name), pendingSince: new Date().toISOString() }
  const objects = { [`/configmaps/crash/${name}`]: { ...rec, hash: '', view: '', generations: [] } }
  await writeFile(join(dir, 'owned.json'), JSON.stringify({ objects }))
  return dir
}

const marked = (name: string) => ({
  ...configMap('crash', name, { k: 'v' }),
  metadata: { name, namespace: 'crash', annotations: { [DOWNSYNCED_ANNOTATION]: 'true' } },
})

describe('a crash between create and record', () => {
  it('adopts the object it created, then updates and prunes it', async () => {
    const path = '/api/v1/namespaces/crash/configmaps/mine'
    const made = await edge.call('PATCH', `${path}?force=true`, marked('mine'), {
      contentType: 'application/apply-patch+yaml',
      manager: FIELD_MANAGER,
    })
    expect(made.status).toBe(201)
    center.put(cmRef('crash', 'mine'), configMap('crash', 'mine', { k: 'v2' }))
    const agent = await newAgent(center, edge, { stateDir: await pendingRecord('mine') })
    expect(await agent.poll()).toMatchObject({ ok: true, problems: 0, updated: 1 })
    expect(agent.inspect().owned.get('/configmaps/crash/mine')?.uid).toBe(made.body.metadata.uid)
    expect((await edge.get(cmRef('crash', 'mine')))?.data).toEqual({ k: 'v2' })
    center.remove(cmRef('crash', 'mine'))
    expect(await agent.poll()).toMatchObject({ ok: true, pruned: 1 })
    expect(await edge.get(cmRef('crash', 'mine'))).toBeUndefined()
  })

  it('leaves alone an object someone else made meanwhile, marker or not', async () => {
    const made = await edge.call('POST', '/api/v1/namespaces/crash/configmaps', marked('theirs'))
    expect(made.status).toBe(201)
    center.put(cmRef('crash', 'theirs'), configMap('crash', 'theirs', { k: 'center' }))
    const agent = await newAgent(center, edge, { stateDir: await pendingRecord('theirs') })
    expect(await agent.poll()).toMatchObject({ ok: true, problems: 1, updated: 0 })
    expect(center.reports.at(-1)?.problems).toEqual([
      expect.objectContaining({ name: 'theirs', reason: 'ForeignObject' }),
    ])
    expect(agent.inspect().owned.has('/configmaps/crash/theirs')).toBe(false)
    center.remove(cmRef('crash', 'theirs'))
    expect(await agent.poll()).toMatchObject({ ok: true, pruned: 0 })
    expect((await edge.get(cmRef('crash', 'theirs')))?.data).toEqual({ k: 'v' })
  })
})

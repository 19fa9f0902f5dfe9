/**
 * The log check (log-check.ts): replaying each object's entries must end where the store is.
 * Broken by hand through the raw client — an entry dropped, a head put back after its delete, an
 * entry past the head — each object is reported with its problem, and an object at or below the
 * watermark whose entries were swept is not; a list's resume mark in the log is no change.
 */
import {
  DeleteItemCommand,
  GetItemCommand,
  PutItemCommand,
  UpdateItemCommand,
} from '@aws-sdk/client-dynamodb'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { logPk, META_PK, objectPk, padRv, WATERMARK_SK } from '../../../lib/store/keys.ts'
import { createTestStore, type TestStore } from '../../helpers/dynalite.ts'
import { cmKey, configMap } from './fixtures.ts'

let t: TestStore
beforeAll(async () => {
  t = await createTestStore()
})
afterAll(() => t.close())

const LOG = logPk('c1', '', 'configmaps')
const key = (pk: string, sk: string) => ({ pk: { S: pk }, sk: { S: sk } })
const rvOf = (o: { metadata: { resourceVersion?: string } }) => Number(o.metadata.resourceVersion)

describe('checkLog', () => {
  it('finds nothing in a store written through its API', async () => {
    await t.objects.create(cmKey('fine'), configMap('fine'))
    const gone = await t.objects.create(cmKey('gone'), configMap('gone'))
    await t.objects.delete(cmKey('gone'), gone.metadata.resourceVersion)
    // A watchable list leaves its resume mark in the log (list-marks.ts): no change, no body.
    await t.objects.list({ cluster: 'c1', group: '', resource: 'configmaps', watchable: true })
    expect((await t.checkLog()).findings).toEqual([])
  })

  it('names each object whose last change no watch delivers', async () => {
    const table = t.tableName
    const unlogged = await t.objects.create(cmKey('unlogged'), configMap('unlogged'))
    await t.client.send(
      new DeleteItemCommand({ TableName: table, Key: key(LOG, padRv(rvOf(unlogged))) })
    )
    // A head put back (raw) after its object was deleted and logged DELETED.
    const back = await t.objects.create(cmKey('back'), configMap('back'))
    const head = await t.client.send(
      new GetItemCommand({
        TableName: table,
        Key: key(objectPk('c1', '', 'configmaps'), 'default/back'),
        ConsistentRead: true,
      })
    )
    await t.objects.delete(cmKey('back'), back.metadata.resourceVersion)
    await t.client.send(new PutItemCommand({ TableName: table, Item: head.Item ?? {} }))
    const report = await t.checkLog()
    expect(report.findings.map((f) => `${f.problem} ${f.object} ${f.storedRv}`)).toEqual([
      `logged-deleted default/back ${rvOf(back)}`,
      `unlogged-write default/unlogged ${rvOf(unlogged)}`,
    ])
    expect(report.findings[1]?.lastEntry).toBeUndefined()
  })

  it('leaves alone an object at or below the watermark whose entries were swept', async () => {
    const old = await t.objects.create(cmKey('old', 'swept'), configMap('old', 'swept'))
    await t.client.send(
      new DeleteItemCommand({ TableName: t.tableName, Key: key(LOG, padRv(rvOf(old))) })
    )
    const before = (await t.checkLog()).findings.filter((f) => f.object === 'swept/old')
    expect(before.map((f) => f.problem)).toEqual(['unlogged-write'])
    await t.client.send(
      new UpdateItemCommand({
        TableName: t.tableName,
        Key: key(META_PK, WATERMARK_SK),
        UpdateExpression: 'SET rv = :n',
        ExpressionAttributeValues: { ':n': { N: String(rvOf(old)) } },
      })
    )
    const after = await t.checkLog()
    expect(after.watermark).toBe(rvOf(old))
    expect(after.findings.filter((f) => f.object === 'swept/old')).toEqual([])
  })
})

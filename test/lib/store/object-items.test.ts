import { describe, expect, it } from 'vitest'
import { TTL_SLACK_MS } from '../../../lib/store/context.ts'
import { blobOf, headItem, logItemFor } from '../../../lib/store/object-items.ts'
import { cmKey } from './fixtures.ts'

const ctx = {
  client: undefined as never,
  table: 't',
  now: () => 0,
  retentionMs: 60_000,
  settleMs: 0,
}

describe('object items', () => {
  it('builds a head with keys, index keys, rv, ts and an inline body', () => {
    const head = headItem(cmKey('a', 'ns', 'c7'), 12, 1000, { inline: new Uint8Array([1, 2]) })
    expect(head).toEqual({
      pk: { S: 'o#c7#/configmaps' },
      sk: { S: 'ns/a' },
      rv: { N: '12' },
      ts: { N: '1000' },
      cl: { S: 'c7' },
      ns: { S: 'ns' },
      g1pk: { S: 'o#/configmaps' },
      g1sk: { S: 'c7#ns/a' },
      body: { B: new Uint8Array([1, 2]) },
    })
    expect(blobOf(head)).toBeUndefined()
  })

  it('builds a log entry from a head, pointing at the same blob and carrying a TTL', () => {
    const head = headItem(cmKey('a', 'ns', 'c7'), 12, 1000, { blob: { blobRv: 12, chunks: 3 } })
    const entry = logItemFor(ctx, head, { type: 'DELETED', rv: 15, ts: 2000, landed: 2100 })
    expect(entry).toEqual({
      lt: { N: '2100' },
      pk: { S: 'l#c7#/configmaps' },
      sk: { S: '00000000000000000015' },
      type: { S: 'DELETED' },
      rv: { N: '15' },
      ts: { N: '2000' },
      cl: { S: 'c7' },
      ns: { S: 'ns' },
      g1pk: { S: 'l#/configmaps' },
      g1sk: { S: '00000000000000000015' },
      expiresAt: { N: String(Math.ceil((2000 + 60_000 + TTL_SLACK_MS) / 1000)) },
      brv: { N: '12' },
      bn: { N: '3' },
    })
    expect(blobOf(entry)).toEqual({ blobRv: 12, chunks: 3 })
  })
})

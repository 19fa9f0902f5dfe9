import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { deleteBlob, readBlob, writeBlob } from '../../../lib/store/blobs.ts'
import { CHUNK_BYTES } from '../../../lib/store/body-codec.ts'
import { createTestStore, type TestStore } from '../../helpers/dynalite.ts'
import { contextOf } from './fixtures.ts'

let t: TestStore
beforeAll(async () => {
  t = await createTestStore()
})
afterAll(() => t.close())

const owner = { pk: 'o#c1#/configmaps', sk: 'default/big' }

describe('blobs', () => {
  it('writes bytes as chunk items and reads them back in order', async () => {
    const ctx = contextOf(t)
    const data = new Uint8Array(CHUNK_BYTES * 2 + 1234).map((_, i) => (i * 7) % 256)
    const ref = await writeBlob(ctx, 77, data, owner)
    expect(ref).toEqual({ blobRv: 77, chunks: 3 })
    expect(await readBlob(ctx, ref)).toEqual(data)
  })

  it('reads a deleted or incomplete blob as undefined', async () => {
    const ctx = contextOf(t)
    const ref = await writeBlob(ctx, 78, new Uint8Array(CHUNK_BYTES + 1), owner)
    expect(await readBlob(ctx, { ...ref, chunks: 3 })).toBeUndefined()
    await deleteBlob(ctx, ref)
    await deleteBlob(ctx, ref)
    expect(await readBlob(ctx, ref)).toBeUndefined()
  })
})

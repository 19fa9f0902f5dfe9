import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { resolveSpaceCached, SPACE_TRUST_MS } from '../../../lib/hub/space-cache.ts'
import {
  ensureSpace,
  forgetSpace,
  getSpaceByPath,
  markSpaceTerminating,
} from '../../../lib/hub/spaces.ts'
import { createDynamoStore } from '../../../lib/store/dynamo-store.ts'
import { EPOCH_MAX_AGE_MS } from '../../../lib/store/epochs.ts'
import { createRequestCounter } from '../../../lib/store/request-counter.ts'
import { createTestStore, type TestStore } from '../../helpers/dynalite.ts'

const counter = createRequestCounter()
let t: TestStore

beforeAll(async () => {
  t = await createTestStore({ counter })
})
afterAll(() => t.close())

/** Another hub's store object over the same table: caches of its own. */
const otherHub = () => createDynamoStore({ client: t.client, tableName: t.tableName }).kv

describe("the API's space lookups", () => {
  it('read a space once, by path and by id, then trust it while nothing moved', async () => {
    const space = await ensureSpace(t.kv, 'root:cached')
    const now = Date.now()
    expect(await resolveSpaceCached(t.kv, 'root:cached', now)).toEqual(space)
    counter.reset()
    expect(await resolveSpaceCached(t.kv, 'root:cached', now + 10)).toEqual(space)
    expect(await resolveSpaceCached(t.kv, space.id, now + 20)).toEqual(space)
    expect(await resolveSpaceCached(t.kv, space.id, now + 30)).toEqual(space)
    // the id's path once; nothing else (the epoch was read within the second)
    expect(counter.snapshot()).toEqual({ GetItem: 1 })
    expect(await resolveSpaceCached(t.kv, 'root', now)).toMatchObject({ id: 'root' })
  })

  it('see a space turn Terminating and go at once on the hub that moved it', async () => {
    const space = await ensureSpace(t.kv, 'root:going')
    expect(await resolveSpaceCached(t.kv, 'root:going')).toMatchObject({ phase: 'Ready' })
    await markSpaceTerminating(t.kv, space)
    expect(await resolveSpaceCached(t.kv, 'root:going')).toMatchObject({ phase: 'Terminating' })
    await forgetSpace(t.kv, space)
    expect(await resolveSpaceCached(t.kv, 'root:going')).toBeUndefined()
    expect(await resolveSpaceCached(t.kv, space.id)).toBeUndefined()
  })

  it('on another hub, within the epoch age', async () => {
    const other = otherHub()
    const space = await ensureSpace(t.kv, 'root:elsewhere')
    const now = Date.now()
    expect(await resolveSpaceCached(other, 'root:elsewhere', now)).toMatchObject({ phase: 'Ready' })
    await markSpaceTerminating(t.kv, space)
    const later = now + EPOCH_MAX_AGE_MS + 1
    expect(await resolveSpaceCached(other, 'root:elsewhere', later)).toMatchObject({
      phase: 'Terminating',
    })
  })

  it('remember nothing absent, and nothing past SPACE_TRUST_MS', async () => {
    const now = Date.now()
    expect(await resolveSpaceCached(t.kv, 'root:later', now)).toBeUndefined()
    const made = await ensureSpace(t.kv, 'root:later')
    expect(await resolveSpaceCached(t.kv, 'root:later', now + 1)).toEqual(made)
    expect(await getSpaceByPath(t.kv, 'root:later')).toEqual(made)
    counter.reset()
    await resolveSpaceCached(t.kv, 'root:later', now + SPACE_TRUST_MS + 1)
    expect(counter.snapshot().GetItem).toBeGreaterThanOrEqual(1)
  })
})

/**
 * A collection DELETE that does not fit one request's subrequest budget (lib/hub/delete-collection.ts):
 * it deletes what fits and answers kube's 429 TooManyRequests with `retryAfterSeconds`, never cut in
 * the middle of an object's delete; after each answer the change log replayed from the start holds
 * exactly the stored objects, and sending the delete again finishes it. Tried at budgets a few
 * apart so that the budget runs out at every request of an object's delete in turn.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { BudgetConfig } from '../../../lib/budget/invocation.ts'
import { ROOT } from '../../../lib/hub/spaces.ts'
import { createTestHub, type TestHub } from '../../helpers/hub.ts'
import { replayLog, storedNames } from '../../helpers/log-replay.ts'

const OBJECTS = 30
const BUDGETS = [120, 121, 122, 123, 124, 125]
const budget: BudgetConfig = { subrequests: 1000, mode: 'strict' }
let hub: TestHub

beforeAll(async () => {
  hub = await createTestHub({ budget })
})
afterAll(() => hub.close())

const cms = (ns: string) => `/clusters/root/api/v1/namespaces/${ns}/configmaps`

async function fill(ns: string): Promise<void> {
  budget.subrequests = 1000
  const made = await hub.call('POST', '/clusters/root/api/v1/namespaces', {
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: { name: ns },
  })
  expect(made.status).toBe(201)
  for (let i = 0; i < OBJECTS; i++) {
    const res = await hub.call('POST', cms(ns), {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: `cm-${String(i).padStart(2, '0')}` },
    })
    expect(res.status).toBe(201)
  }
}

describe('a collection delete past its budget', () => {
  it.each(BUDGETS)(
    'deletes what fits, answers 429, and logs every delete (budget %i)',
    async (b) => {
      const ns = `del-${b}`
      await fill(ns)
      const ref = { cluster: ROOT.id, group: '', resource: 'configmaps', namespace: ns }
      budget.subrequests = b
      const answers: number[] = []
      for (let attempt = 0; attempt < 20; attempt++) {
        const res = await hub.call('DELETE', cms(ns))
        answers.push(res.status)
        const stored = await storedNames(hub.store.objects, ref)
        expect(await replayLog(hub.store.objects, ref)).toEqual(stored)
        if (res.status !== 429) break
        expect(res.body.details.retryAfterSeconds).toBe(1)
      }
      expect(answers[0]).toBe(429)
      expect(answers[answers.length - 1]).toBe(200)
      expect(await storedNames(hub.store.objects, ref)).toEqual([])
    }
  )
})

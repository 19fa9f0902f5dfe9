/**
 * The timer alone heals: with the relay switched off (EDGEPLANE_RELAY=off) no hook is ever called,
 * yet the scheduled maintenance that `npm start` ticks every minute (as the cron does in
 * production; here every EDGEPLANE_CRON_PERIOD=5 seconds, so the test waits for ticks, not for
 * minutes) resyncs the mailbox, where and translate steps, so the mailboxes of the example world
 * fill within a period or two.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { eventually, setupWorld, type World } from './helpers/edge-world.ts'
import { type E2eStack, startStack } from './helpers/stack.ts'

let stack: E2eStack
let world: World

beforeAll(async () => {
  stack = await startStack({ relay: false, env: { EDGEPLANE_CRON_PERIOD: '5' } })
  world = await setupWorld(stack)
}, 120_000)
afterAll(async () => {
  await stack?.destroy()
})

describe('cron resync without the relay', () => {
  it('has no relay running', async () => {
    expect(await stack.relayPid()).toBeUndefined()
  })

  it('converges every mailbox from the timer alone', async () => {
    await eventually(async () => {
      expect(await world.content('florin')).toEqual([
        'configmaps/commonstuff/httpd-htdocs',
        'deployments/commonstuff/commond',
        'namespaces//commonstuff',
      ])
      expect(await world.content('guilder')).toHaveLength(5)
      expect((await world.syncerConfig('zloty')).spec.namespaceScope).toEqual({})
    }, 200_000)
  }, 240_000)
})

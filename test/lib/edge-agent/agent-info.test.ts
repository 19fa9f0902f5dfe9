/**
 * The agent's word about itself: its version is package.json's (the image tag's), its poll
 * interval the one it runs with, and an interval the protocol cannot carry makes it say nothing.
 * End to end, a real agent between a simulated edge (fixture.ts startEdge) and the real center
 * (the edge API over dynalite, lib/edge/edge-fixture.ts): its first heartbeat records both in the
 * edge's lease, and the same agent restarted with another interval is recorded at its next
 * heartbeat, though the center's heartbeat memo still covers the one before.
 */
import { readFile } from 'node:fs/promises'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { builtinsFrom } from '../../../lib/apis/builtins.ts'
import { registerToken } from '../../../lib/auth/tokens.ts'
import { edgePrincipal } from '../../../lib/edge/edge-scope.ts'
import { readLease } from '../../../lib/edge/lease.ts'
import { AgentInfoSchema } from '../../../lib/edge/protocol.ts'
import { createAgent } from '../../../lib/edge-agent/agent.ts'
import { AGENT_VERSION, agentInfo } from '../../../lib/edge-agent/agent-info.ts'
import { createCenterClient } from '../../../lib/edge-agent/center-client.ts'
import { silentLogger } from '../../../lib/log.ts'
import { parseMailboxName } from '../../../lib/reconcile/keys.ts'
import { BASE } from '../../helpers/hub.ts'
import { fileTempDir } from '../../helpers/temp-dir.ts'
import { createEdgeFixture, type EdgeFixture } from '../edge/edge-fixture.ts'
import { AGENT_NS, type Edge, startEdge } from './fixture.ts'

describe('agentInfo', () => {
  it("carries package.json's version and the interval in seconds", async () => {
    const pkg = JSON.parse(await readFile('package.json', 'utf8')) as { version: string }
    expect(AGENT_VERSION).toBe(pkg.version)
    expect(agentInfo(15_000)).toEqual({ version: pkg.version, pollIntervalSeconds: 15 })
    expect(agentInfo(500)).toEqual({ version: pkg.version, pollIntervalSeconds: 0.5 })
    expect(AgentInfoSchema.safeParse(agentInfo(15_000)).success).toBe(true)
  })

  it('says nothing of what the protocol cannot carry', () => {
    expect(agentInfo(0)).toBeUndefined() // `--poll-interval 0.0001`, rounded to 0 ms
    expect(agentInfo(86_401_000)).toBeUndefined() // over a day
    expect(agentInfo(15_000, 'v'.repeat(65))).toBeUndefined()
    expect(agentInfo(15_000, '0.1.0 dirty')).toBeUndefined()
  })
})

describe('an agent against the real center', () => {
  const TOKEN = 'edge-token-agent-info'
  let f: EdgeFixture
  let edge: Edge
  const stateDir = fileTempDir('edge-agent-info-')
  const clock = { ms: Date.parse('2030-01-01T00:00:00Z') }
  beforeAll(async () => {
    f = await createEdgeFixture()
    await registerToken(f.store.kv, TOKEN, edgePrincipal(f.mailbox.name))
    edge = await startEdge()
  })
  afterAll(async () => {
    await edge?.close()
    await f?.close()
  })

  const lease = () =>
    readLease(f.store.kv, f.inventory.id, parseMailboxName(f.mailbox.name)?.syncTargetUid ?? '')
  /** An agent process on the one state folder, run with a poll interval of `intervalMs`. */
  const start = (intervalMs: number) => {
    const info = agentInfo(intervalMs)
    return createAgent({
      mailbox: f.mailbox.name,
      center: createCenterClient({
        baseUrl: BASE,
        mailbox: f.mailbox.name,
        token: async () => TOKEN,
        fetch: (input, init) => Promise.resolve(f.app.request(input, init)),
        ...(info ? { agent: info } : {}),
      }),
      kube: edge.kube,
      stateDir: stateDir(),
      record: { namespace: AGENT_NS, name: 'agent-info-owned' },
      builtins: builtinsFrom(),
      log: silentLogger,
      now: () => new Date(clock.ms),
    })
  }

  it('records its version and poll interval with its first heartbeat', async () => {
    const agent = await start(15_000)
    const r = await agent.poll()
    expect(r).toMatchObject({ ok: true, outcome: 'applied', reported: true })
    expect(agent.inspect().reported.lastHeartbeatMs).toBe(clock.ms)
    expect(await lease()).toMatchObject({ agentVersion: AGENT_VERSION, pollIntervalSeconds: 15 })
  })

  it('is recorded with its new interval at its next heartbeat after a restart', async () => {
    const agent = await start(30_000)
    clock.ms += 60_000 // its next heartbeat is due (the report state survived the restart)
    const r = await agent.poll()
    expect(r).toMatchObject({ ok: true, reported: true })
    // moments after the first beat: inside the center's heartbeat memo window all the same
    expect(await lease()).toMatchObject({ agentVersion: AGENT_VERSION, pollIntervalSeconds: 30 })
  })
})

/**
 * The agent's word about itself: its version is package.json's (the image tag's), its poll
 * interval the one it runs with, and an interval the protocol cannot carry makes it say nothing.
 * End to end, a real agent between a simulated edge (fixture.ts startEdge) and the real center
 * (the edge API over dynalite, lib/edge/edge-fixture.ts): its first heartbeat records both in the
 * edge's lease, and the same agent restarted with another interval is recorded at its next
 * heartbeat, though the center's heartbeat memo still covers the one before — and so is one that
 * says how its polls go (poll-notes.ts): plain, no hold, its last poll at the agent's clock.
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
import { createPollNotes, type PollNotes } from '../../../lib/edge-agent/poll-notes.ts'
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

  it('says how its last poll went, leaving unsaid what the protocol cannot carry', () => {
    const lastPollAt = new Date('2030-01-01T00:00:05.250Z')
    expect(agentInfo(15_000, '0.1.0', { pollMode: 'held', holdSeconds: 300, lastPollAt })).toEqual({
      version: '0.1.0',
      pollIntervalSeconds: 15,
      pollMode: 'held',
      holdSeconds: 300,
      lastPollAt: '2030-01-01T00:00:05.250Z',
    })
    const odd = { holdSeconds: 371, lastPollAt: new Date(Number.NaN), pollMode: 'plain' as const }
    expect(agentInfo(15_000, '0.1.0', odd)).toEqual({
      version: '0.1.0',
      pollIntervalSeconds: 15,
      pollMode: 'plain',
    })
    expect(agentInfo(15_000, '0.1.0', { lastPollAt: new Date('+010000-01-01T00:00:00Z') })).toEqual(
      { version: '0.1.0', pollIntervalSeconds: 15 }
    )
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
  /**
   * An agent process on the one state folder, run with a poll interval of `intervalMs`; with
   * `notes`, saying how its polls go as infra/edge-agent/main.ts wires it.
   */
  const start = (intervalMs: number, notes?: PollNotes) => {
    const info = agentInfo(intervalMs)
    const client = createCenterClient({
      baseUrl: BASE,
      mailbox: f.mailbox.name,
      token: async () => TOKEN,
      fetch: (input, init) => Promise.resolve(f.app.request(input, init)),
      ...(notes ? { agent: notes.info } : info ? { agent: info } : {}),
    })
    return createAgent({
      mailbox: f.mailbox.name,
      center: notes ? notes.center(client) : client,
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

  it('is recorded with how its last poll went, at once though the memo covers the beat before', async () => {
    const now = () => new Date(clock.ms)
    const notes = createPollNotes({ pollIntervalMs: 30_000, holdSeconds: 0, now })
    const agent = await start(30_000, notes)
    clock.ms += 60_000
    const r = await agent.poll()
    expect(r).toMatchObject({ ok: true, reported: true })
    expect(await lease()).toEqual({
      renewedAt: expect.any(Number),
      agentVersion: AGENT_VERSION,
      pollIntervalSeconds: 30,
      pollMode: 'plain',
      holdSeconds: 0,
      lastPollAt: new Date(clock.ms).toISOString(),
    })
  })
})

/**
 * `POST /edge/v1/mailboxes/<name>/reports` over HTTP: a report with the mailbox's edge token lands
 * and answers a ReportResult (200 even with rejections); malformed bodies are 400 naming the field;
 * an unknown mailbox is 404. The agent's version and poll interval, and how it polls (mode, hold,
 * last poll), sent with a heartbeat land in the edge's lease; a report without them works as
 * before, a malformed one (any field out of bounds) is a 400 Status.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { registerToken } from '../../../lib/auth/tokens.ts'
import { edgePrincipal } from '../../../lib/edge/edge-scope.ts'
import { readLease } from '../../../lib/edge/lease.ts'
import { ReportResultSchema } from '../../../lib/edge/protocol.ts'
import { parseMailboxName } from '../../../lib/reconcile/keys.ts'
import { BASE } from '../../helpers/hub.ts'
import { createEdgeFixture, type EdgeFixture } from '../../lib/edge/edge-fixture.ts'

let f: EdgeFixture
const TOKEN = 'edge-token-1'
beforeAll(async () => {
  f = await createEdgeFixture()
  await registerToken(f.store.kv, TOKEN, edgePrincipal(f.mailbox.name))
})
afterAll(() => f.close())

const reports = (name = f.mailbox.name) => `/edge/v1/mailboxes/${name}/reports`
const D = { group: 'apps', version: 'v1', resource: 'deployments', namespace: 'ns', name: 'd' }
const lease = () =>
  readLease(f.store.kv, f.inventory.id, parseMailboxName(f.mailbox.name)?.syncTargetUid ?? '')
const agent = (v: unknown, p: unknown) => ({
  kind: 'Report',
  heartbeat: true,
  agent: { version: v, pollIntervalSeconds: p },
})

/** A heartbeat whose agent says how it polls, with `extra` on top. */
const polled = (extra: Record<string, unknown>) => ({
  kind: 'Report',
  heartbeat: true,
  agent: { version: '0.1.0', pollIntervalSeconds: 2, ...extra },
})

describe('POST reports', () => {
  it('lands a report sent with the edge token and lists what it rejected', async () => {
    const report = {
      kind: 'Report',
      statuses: [
        { ...D, observedGeneration: 1, status: { replicas: 1 } },
        { ...D, name: 'nope', observedGeneration: 1, status: {} },
      ],
      heartbeat: true,
    }
    const res = await f.call('POST', reports(), report, TOKEN)
    expect(res.status).toBe(200)
    expect(res.body).toEqual({
      kind: 'ReportResult',
      accepted: 1,
      rejected: [
        {
          ref: { ...D, name: 'nope' },
          message: 'the mailbox has no projected copy apps/deployments/ns/nope',
        },
      ],
    })
    const copy = await f.getCopy('apps/v1/namespaces/ns/deployments/d')
    expect(copy.status).toEqual({ replicas: 1, observedGeneration: 1 })
    const st = await f.call('GET', f.syncTargetPath)
    expect(st.body.status.lastSyncerHeartbeatTime).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/)
    // an agent that says nothing of itself (one older than the field)
    expect(Object.keys((await lease()) ?? {})).toEqual(['renewedAt'])
  })

  it("records the agent's version and poll interval sent with a heartbeat", async () => {
    const body = {
      kind: 'Report',
      heartbeat: true,
      agent: { version: '0.1.0', pollIntervalSeconds: 2 },
    }
    const res = await f.call('POST', reports(), body, TOKEN)
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ kind: 'ReportResult', accepted: 0, rejected: [] })
    // at once, though the heartbeat before it was a moment ago (the memo's window)
    expect(await lease()).toMatchObject({ agentVersion: '0.1.0', pollIntervalSeconds: 2 })
    // fields a later agent adds are dropped, not refused
    const later = { ...body, agent: { ...body.agent, pollIntervalSeconds: 3, arch: 'arm64' } }
    expect((await f.call('POST', reports(), later, TOKEN)).status).toBe(200)
    const now = await lease()
    expect(now).toMatchObject({ agentVersion: '0.1.0', pollIntervalSeconds: 3 })
    expect(Object.keys(now ?? {}).sort()).toEqual([
      'agentVersion',
      'pollIntervalSeconds',
      'renewedAt',
    ])
  })

  it('records how the agent polls, sent with a heartbeat', async () => {
    const body = polled({ pollMode: 'held', holdSeconds: 300, lastPollAt: '2031-01-01T00:00:00Z' })
    expect((await f.call('POST', reports(), body, TOKEN)).status).toBe(200)
    expect(await lease()).toMatchObject({
      pollMode: 'held',
      holdSeconds: 300,
      lastPollAt: '2031-01-01T00:00:00Z',
    })
  })

  it.each([
    ['a version too long', agent('1'.repeat(65), 15), 'agent.version'],
    ['an empty version', agent('', 15), 'agent.version'],
    ['a version with a space', agent('0.1.0 beta', 15), 'agent.version'],
    ['a version with a control character', agent('0.1.0\u0007', 15), 'agent.version'],
    ['a version that is no string', agent(1, 15), 'agent.version'],
    [
      'no poll interval',
      { kind: 'Report', agent: { version: '0.1.0' } },
      'agent.pollIntervalSeconds',
    ],
    ['a zero poll interval', agent('0.1.0', 0), 'agent.pollIntervalSeconds'],
    ['a negative poll interval', agent('0.1.0', -15), 'agent.pollIntervalSeconds'],
    ['a poll interval over a day', agent('0.1.0', 86_401), 'agent.pollIntervalSeconds'],
    ['a poll interval as text', agent('0.1.0', '15'), 'agent.pollIntervalSeconds'],
    [
      'an infinite poll interval',
      '{"kind":"Report","agent":{"version":"0.1.0","pollIntervalSeconds":1e999}}',
      'agent.pollIntervalSeconds',
    ],
    ['an agent that is no object', { kind: 'Report', agent: '0.1.0' }, 'agent'],
    ['an unknown poll mode', polled({ pollMode: 'fast' }), 'agent.pollMode'],
    ['a hold over the limit', polled({ holdSeconds: 371 }), 'agent.holdSeconds'],
    ['a fractional hold', polled({ holdSeconds: 1.5 }), 'agent.holdSeconds'],
    ['a negative hold', polled({ holdSeconds: -1 }), 'agent.holdSeconds'],
    ['a last poll that is no date', polled({ lastPollAt: 'yesterday' }), 'agent.lastPollAt'],
    [
      'a last poll without its zone',
      polled({ lastPollAt: '2031-01-01T00:00:00' }),
      'agent.lastPollAt',
    ],
    ['a last poll as a number', polled({ lastPollAt: 1_900_000_000_000 }), 'agent.lastPollAt'],
  ])('answers 400 for %s and records nothing', async (_, body, field) => {
    const before = await lease()
    const res = await f.call('POST', reports(), body, TOKEN)
    expect(res.status).toBe(400)
    expect(res.body).toMatchObject({ kind: 'Status', reason: 'BadRequest' })
    expect(res.body.message).toContain(field)
    expect(await lease()).toEqual(before)
  })

  it.each([
    ['not JSON', '{', 'error decoding JSON request body'],
    ['wrong kind', { kind: 'Nope' }, 'kind'],
    ['no kind', {}, 'kind'],
    [
      'bad generation',
      { kind: 'Report', statuses: [{ ...D, observedGeneration: -1, status: {} }] },
      'statuses[0].observedGeneration',
    ],
    [
      'bad problem reason',
      { kind: 'Report', problems: [{ ...D, reason: 'Whatever', message: '' }] },
      'problems[0].reason',
    ],
    ['bad upsync', { kind: 'Report', upsync: { apply: [7] } }, 'upsync.apply[0]'],
    ['bad heartbeat', { kind: 'Report', heartbeat: 'yes' }, 'heartbeat'],
    [
      'a namespace longer than a DNS label',
      { kind: 'Report', upsync: { delete: [{ ...D, namespace: 'n'.repeat(64) }] } },
      'upsync.delete[0].namespace',
    ],
    [
      'a group longer than a DNS name',
      {
        kind: 'Report',
        statuses: [{ ...D, group: 'g'.repeat(254), observedGeneration: 1, status: {} }],
      },
      'statuses[0].group',
    ],
  ])('answers 400 naming the field for %s', async (_, body, field) => {
    const res = await f.call('POST', reports(), body, TOKEN)
    expect(res.status).toBe(400)
    expect(res.body).toMatchObject({ kind: 'Status', reason: 'BadRequest' })
    expect(res.body.message).toContain(field)
  })

  it('rejects an upsynced object whose name or namespace could not be stored', async () => {
    const cm = (name: string, namespace: string) => ({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name, namespace },
    })
    const report = {
      kind: 'Report',
      upsync: { apply: [cm('x'.repeat(300), 'ns'), cm('x', 'N S')] },
    }
    const res = await f.call('POST', reports(), report, TOKEN)
    expect(res.status).toBe(200)
    expect(res.body.accepted).toBe(0)
    // The answer stays one the agent can parse: refs within the ObjectRef lengths.
    expect(ReportResultSchema.parse(res.body).rejected.map((r) => r.ref)).toEqual([
      { namespace: 'ns' },
      { name: 'x', namespace: 'N S' },
    ])
    expect(res.body.rejected.map((r: { message: string }) => r.message)).toEqual([
      'metadata.name: must be 1 to 253 characters, not 300',
      expect.stringMatching(/^metadata\.namespace: a lowercase RFC 1123 label/),
    ])
  })

  it.each([
    'text/plain',
    'application/xml',
    'application/x-www-form-urlencoded',
    'multipart/form-data; boundary=x',
    'application/merge-patch+json',
  ])('refuses a %s report with a 415 Status and lands nothing', async (type) => {
    const report = { kind: 'Report', statuses: [{ ...D, observedGeneration: 7, status: {} }] }
    const res = await f.app.request(`${BASE}${reports()}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': type },
      body: new TextEncoder().encode(JSON.stringify(report)),
    })
    expect(res.status).toBe(415)
    expect(await res.json()).toMatchObject({ kind: 'Status', reason: 'UnsupportedMediaType' })
    expect(
      ((await f.getCopy('apps/v1/namespaces/ns/deployments/d')).status as any)?.observedGeneration
    ).not.toBe(7)
  })

  it('is 404 for a mailbox that does not exist', async () => {
    const other = f.mailbox.name.replace(/-mb-.*$/, '-mb-00000000-0000-4000-8000-000000000000')
    const res = await f.call('POST', reports(other), { kind: 'Report' })
    expect(res.status).toBe(404)
    // Not a mailbox name at all (too long for any key): 404 as well, never looked up.
    const junk = await f.call('POST', reports('m'.repeat(3000)), { kind: 'Report' })
    expect(junk.status).toBe(404)
    expect(junk.body).toMatchObject({ kind: 'Status', reason: 'NotFound' })
  })
})

/**
 * The edge end to end, through `npm start` with three simulated edges (florin and guilder labelled
 * env=prod, zloty env=dev) and real kubectl: a workload and its EdgePlacement written in a workload
 * space run on the two prod edges, with their reported status back on the mailbox copies; changes
 * and deletions at the center reach the edges, and the EdgePlacement's READY turns True; an
 * edge-born ConfigMap matching the upsync set appears in the mailbox and goes when deleted at the
 * edge; an object of the same name that the agent did not create is left alone and reported (a
 * ForeignObject Warning Event in the workload namespace, READY False); and the edge credentials
 * reach nothing else.
 */
import { spawn } from 'node:child_process'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { KubeObject } from '../../lib/kube/types.ts'
import { type EdgeStack, edgeStack } from './helpers/edge-stack.ts'
import { eventually } from './helpers/edge-world.ts'
import { ok, okJson } from './helpers/kubectl.ts'
import { configMap } from './helpers/manifests.ts'
import { type E2eStack, REPO_ROOT, startStack } from './helpers/stack.ts'

let stack: E2eStack
let edges: EdgeStack
const WAIT = 60_000

beforeAll(async () => {
  stack = await startStack({ edges: 'florin:env=prod,guilder:env=prod:extended=si,zloty:env=dev' })
  edges = edgeStack(stack)
  await edges.placeShop('wmw')
}, 180_000)
afterAll(async () => {
  await stack?.destroy()
})

const deployAt = (edge: string) => edges.get(['--context', edge], 'deployment', 'shop', 'web')
const readyReplicas = (o: KubeObject | undefined) =>
  (o?.status as { readyReplicas?: number } | undefined)?.readyReplicas

describe('simulated edges through npm start', () => {
  it('registers each edge in root:imw-1 and gives it a kubeconfig context running its agent', async () => {
    const sts = okJson<{ items: { metadata: { name: string; labels: Record<string, string> } }[] }>(
      await stack.kubectl([...edges.at('imw-1'), 'get', 'synctargets', '-o', 'json'])
    )
    expect(sts.items.map((s) => s.metadata.name).sort()).toEqual(['florin', 'guilder', 'zloty'])
    const guilder = sts.items.find((s) => s.metadata.name === 'guilder')
    expect(guilder?.metadata.labels).toMatchObject({
      env: 'prod',
      extended: 'si',
      id: 'guilder',
      'loc-name': 'guilder',
    })
    const loc = okJson<{ metadata: { labels: Record<string, string> }; spec: unknown }>(
      await stack.kubectl([...edges.at('imw-1'), 'get', 'location', 'zloty', '-o', 'json'])
    )
    expect(loc.metadata.labels).toEqual({ env: 'dev', 'loc-name': 'zloty' })
    expect(loc.spec).toMatchObject({ instanceSelector: { matchLabels: { id: 'zloty' } } })
    const agents = ok(await stack.kubectl(['get', 'deploy', '-A'], { context: 'zloty' }))
    expect(agents).toMatch(/edgeplane-system\s+edgeplane-agent\s+1\/1/)
  })

  it('runs the placed workload on the selected edges only, with status back on the mailbox copy', async () => {
    await eventually(async () => {
      for (const edge of ['florin', 'guilder']) {
        expect(readyReplicas(await deployAt(edge))).toBe(2)
        const pods = ok(
          await stack.kubectl(['get', 'pods', '-n', 'shop', '--no-headers'], { context: edge })
        )
        expect(
          pods
            .trim()
            .split('\n')
            .filter((l) => /1\/1\s+Running/.test(l))
        ).toHaveLength(2)
      }
    }, WAIT)
    expect(await edges.get(['--context', 'zloty'], 'namespace', '', 'shop')).toBeUndefined()
    const deployed = await deployAt('florin')
    expect(deployed?.metadata.annotations?.['edge.kcp.io/downsynced']).toBeDefined()
    await eventually(async () => {
      const copy = await edges.get(await edges.mailbox('florin'), 'deployment', 'shop', 'web')
      expect(copy?.status).toMatchObject({
        readyReplicas: 2,
        observedGeneration: copy?.metadata.generation,
      })
      expect(copy?.metadata.annotations?.['edge.kcp.io/associated']).toContain(
        '"kind":"ReplicaSet"'
      )
    }, WAIT)
    await eventually(async () => {
      const eps = ok(await stack.kubectl([...edges.at('wmw'), 'get', 'edgeplacements']))
      expect(eps).toMatch(/^NAME\s+LOCATIONS\s+READY\s+REASON\s+AGE$/m)
      expect(eps).toMatch(/^shop\s+2\s+True\s/m)
    }, WAIT)
  })

  it('follows changes and deletions at the center, keeping fields the edge owns', async () => {
    const service = await edges.get(['--context', 'florin'], 'service', 'shop', 'web')
    const clusterIP = (service?.spec as { clusterIP?: string } | undefined)?.clusterIP
    expect(clusterIP).toMatch(/^10\./)
    ok(
      await stack.kubectl([
        ...edges.at('wmw'),
        'scale',
        'deployment',
        'web',
        '-n',
        'shop',
        '--replicas=3',
      ])
    )
    ok(
      await stack.kubectl([
        ...edges.at('wmw'),
        'patch',
        'service',
        'web',
        '-n',
        'shop',
        '--type=merge',
        '-p',
        '{"spec":{"ports":[{"port":81,"targetPort":8080}]}}',
      ])
    )
    ok(await stack.kubectl([...edges.at('wmw'), 'delete', 'configmap', 'page', '-n', 'shop']))
    await eventually(async () => {
      for (const edge of ['florin', 'guilder']) {
        expect(readyReplicas(await deployAt(edge))).toBe(3)
        expect(await edges.get(['--context', edge], 'configmap', 'shop', 'page')).toBeUndefined()
      }
      const svc = await edges.get(['--context', 'florin'], 'service', 'shop', 'web')
      expect(svc?.spec).toMatchObject({ clusterIP, ports: [{ port: 81 }] })
    }, WAIT)
  })

  it('upsyncs an edge-born ConfigMap of the upsync set and removes it when it goes at the edge', async () => {
    const mailbox = await edges.mailbox('florin')
    ok(
      await stack.kubectl(['create', '-f', '-'], {
        context: 'florin',
        input: configMap('shop', 'report', { rows: '7' }),
      })
    )
    await eventually(async () => {
      const up = await edges.get(mailbox, 'configmap', 'shop', 'report')
      expect(up?.metadata.annotations?.['edge.kcp.io/upsynced']).toBe('true')
      expect((up as { data?: unknown } | undefined)?.data).toEqual({ rows: '7' })
    }, WAIT)
    expect(
      await edges.get(await edges.mailbox('guilder'), 'configmap', 'shop', 'report')
    ).toBeUndefined()
    ok(await stack.kubectl(['delete', 'configmap', 'report', '-n', 'shop'], { context: 'florin' }))
    await eventually(async () => {
      expect(await edges.get(mailbox, 'configmap', 'shop', 'report')).toBeUndefined()
    }, WAIT)
  })

  it('leaves an object it did not create alone and reports it', async () => {
    await edges.foreignConfigMap('guilder', 'wmw', 'shared')
    await eventually(async () => {
      const florin = await edges.get(['--context', 'florin'], 'configmap', 'shop', 'shared')
      expect((florin as { data?: unknown } | undefined)?.data).toEqual({ owner: 'center' })
      const copy = await edges.get(await edges.mailbox('guilder'), 'configmap', 'shop', 'shared')
      expect(copy?.metadata.annotations?.['edge.kcp.io/sync-problem']).toMatch(/^ForeignObject: /)
    }, WAIT)
    const guilder = await edges.get(['--context', 'guilder'], 'configmap', 'shop', 'shared')
    expect((guilder as { data?: unknown } | undefined)?.data).toEqual({ owner: 'edge' })
    expect(guilder?.metadata.annotations?.['edge.kcp.io/downsynced']).toBeUndefined()
    // The problem is a Warning Event about the workload object in the workload space.
    await eventually(async () => {
      const events = ok(await stack.kubectl([...edges.at('wmw'), 'get', 'events', '-n', 'shop']))
      expect(events).toMatch(
        /Warning\s+ForeignObject\s+configmap\/shared\s+1 of 2 destinations of EdgePlacement shop report ForeignObject: guilder\. guilder: /
      )
      const eps = ok(await stack.kubectl([...edges.at('wmw'), 'get', 'edgeplacements']))
      expect(eps).toMatch(/^shop\s+2\s+False\s/m)
    }, WAIT)
  })

  it('gives an edge token its own mailbox only, and a rotated token 401', async () => {
    const token = await edges.edgeToken('florin')
    const guilderMailbox = (await stack.readInfo()).edges.find((e) => e.name === 'guilder')?.mailbox
    const other = await stack.api(`/edge/v1/mailboxes/${guilderMailbox}/desired`, { token })
    expect(other.status).toBe(403)
    expect(await other.json()).toMatchObject({ kind: 'Status', reason: 'Forbidden' })
    expect((await stack.api('/clusters/root/api/v1/namespaces', { token })).status).toBe(403)
    // A SyncTarget with no cluster behind it, bootstrapped twice with the CLI (the second time with
    // --rotate, without which it is refused): the first token is revoked.
    const spare = `apiVersion: edge.kcp.io/v1alpha1\nkind: SyncTarget\nmetadata: {name: spare, labels: {id: spare}}\n`
    ok(await stack.kubectl([...edges.at('imw-1'), 'apply', '-f', '-'], { input: spare }))
    const first = await bootstrapCli('spare')
    const second = await bootstrapCli('spare', ['--rotate'])
    expect(second.token).not.toBe(first.token)
    const path = `/edge/v1/mailboxes/${first.mailbox}/desired`
    expect((await stack.api(path, { token: second.token })).status).toBe(200)
    expect((await stack.api(path, { token: first.token })).status).toBe(401)
  })
})

/** `npm run edge:bootstrap` for a SyncTarget of root:imw-1; the token as the manifests carry it. */
async function bootstrapCli(
  syncTarget: string,
  more: string[] = []
): Promise<{ mailbox: string; token: string }> {
  const args = [
    '--experimental-strip-types',
    'infra/edge-bootstrap/main.ts',
    '--inventory',
    'root:imw-1',
    '--sync-target',
    syncTarget,
    '--wait',
    '60',
    ...more,
  ]
  const child = spawn(process.execPath, args, {
    cwd: REPO_ROOT,
    env: { ...process.env, EDGEPLANE_DATA: stack.dataDir },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let out = ''
  let err = ''
  child.stdout?.on('data', (d: Buffer) => {
    out += d.toString()
  })
  child.stderr?.on('data', (d: Buffer) => {
    err += d.toString()
  })
  const code = await new Promise<number | null>((r) => child.once('exit', r))
  if (code !== 0) throw new Error(`edge:bootstrap exited ${code}: ${err}`)
  const token = /^\s+token: (\S+)$/m.exec(out)?.[1]
  const mailbox = /^\s+mailbox: (\S+)$/m.exec(out)?.[1]
  if (!token || !mailbox) throw new Error(`no token or mailbox in the manifests:\n${out}`)
  const decode = (b64: string) => Buffer.from(b64, 'base64').toString('utf8')
  return { mailbox: decode(mailbox), token: decode(token) }
}

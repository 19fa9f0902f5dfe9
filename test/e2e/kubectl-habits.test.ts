/**
 * Everyday kubectl habits against the real local stack, in root and in a workspace space
 * (`root:habits`, reached through a kubeconfig context): the `kubectl create` generators not
 * covered by kubectl-objects.test.ts, the columns `kubectl get` prints (built-ins, `-o wide`, a
 * CRD's additionalPrinterColumns, the edge kinds, `get -w`), `--dry-run=server` on every write
 * verb, `kubectl diff`, List manifests (a `get -o yaml` dump applied back), `describe` with
 * Events found by involvedObject field selectors, `wait` on a condition and on deletion, `scale`,
 * `rollout restart` and `edit`. Each checks what kubectl printed and what the hub then holds.
 */
import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createLocalHubCert } from '../../infra/local/tls-cert.ts'
import type { KubeObject } from '../../lib/kube/types.ts'
import { ok, okJson } from './helpers/kubectl.ts'
import { workspace } from './helpers/manifests.ts'
import { parsePrinted, printedColumns, printedRow } from './helpers/printed-table.ts'
import { type SharedStack, sharedStack } from './helpers/shared-stack.ts'

/** The workspace context's default namespace, and root's namespace for these tests. */
const APP = 'app'
const ROOT_NS = 'habits-root'
let stack: SharedStack
let dir = ''

/** kubectl in the `habits` context (space root:habits, namespace app). */
const kc = (args: string[], input?: string) =>
  stack.kubectl(args, { context: 'habits', ...(input !== undefined ? { input } : {}) })

beforeAll(async () => {
  stack = await sharedStack()
  dir = await mkdtemp(join(tmpdir(), 'habits-'))
  ok(await stack.kubectl(['create', '-f', '-'], { input: workspace('habits') }))
  const server = `${stack.url}/clusters/root:habits`
  const ca = ['--certificate-authority', stack.info().caFile, '--embed-certs']
  ok(await stack.kubectl(['config', 'set-cluster', 'habits', '--server', server, ...ca]))
  ok(
    await stack.kubectl([
      'config',
      'set-context',
      'habits',
      '--cluster',
      'habits',
      '--user',
      'edgeplane-admin',
      '--namespace',
      APP,
    ])
  )
  expect(ok(await kc(['create', 'namespace', APP]))).toBe(`namespace/${APP} created\n`)
  ok(await stack.kubectl(['create', 'namespace', ROOT_NS]))
})
afterAll(async () => {
  await stack?.close()
  if (dir) await rm(dir, { recursive: true, force: true })
})

type Obj = KubeObject & Record<string, unknown>
const b64 = (s: string) => Buffer.from(s).toString('base64')

describe.each([
  { space: 'root', context: undefined, ns: ROOT_NS },
  { space: 'root:habits', context: 'habits', ns: APP },
])('kubectl create generators in $space', ({ context, ns }) => {
  const run = (args: string[]) => stack.kubectl(args, context ? { context } : {})

  it('print "<kind>/<name> created" and store what they say', async () => {
    const tls = createLocalHubCert()
    const files = {
      cert: join(dir, 'tls.crt'),
      key: join(dir, 'tls.key'),
      conf: join(dir, 'app.conf'),
    }
    await writeFile(files.cert, tls.certPem)
    await writeFile(files.key, tls.keyPem)
    await writeFile(files.conf, 'listen 8080\n')
    const n = ['-n', ns]
    const cases: [string[], string][] = [
      [['configmap', 'from-file', `--from-file=${files.conf}`], 'configmap/from-file'],
      [['secret', 'generic', 'creds', '--from-literal=user=admin'], 'secret/creds'],
      [
        ['secret', 'tls', 'web-tls', `--cert=${files.cert}`, `--key=${files.key}`],
        'secret/web-tls',
      ],
      [
        [
          'secret',
          'docker-registry',
          'pull',
          '--docker-server=r.example',
          '--docker-username=u',
          '--docker-password=p',
        ],
        'secret/pull',
      ],
      [['serviceaccount', 'robot'], 'serviceaccount/robot'],
      [['job', 'once', '--image=busybox:1.36', '--', 'echo', 'hi'], 'job.batch/once'],
      [
        ['cronjob', 'tick', '--image=busybox:1.36', '--schedule=*/5 * * * *', '--', 'date'],
        'cronjob.batch/tick',
      ],
      [['service', 'clusterip', 'c-ip', '--tcp=80:8080'], 'service/c-ip'],
      [['service', 'nodeport', 'n-port', '--tcp=80:8080', '--node-port=30080'], 'service/n-port'],
      [['service', 'loadbalancer', 'l-b', '--tcp=443:8443'], 'service/l-b'],
      [['service', 'externalname', 'ext', '--external-name=example.com'], 'service/ext'],
      [
        ['role', 'reader', '--verb=get,list', '--resource=pods,configmaps'],
        'role.rbac.authorization.k8s.io/reader',
      ],
      [
        ['rolebinding', 'read', '--role=reader', '--user=alice', `--serviceaccount=${ns}:robot`],
        'rolebinding.rbac.authorization.k8s.io/read',
      ],
      [['quota', 'small', '--hard=pods=10,cpu=2'], 'resourcequota/small'],
      [
        ['poddisruptionbudget', 'keep', '--selector=app=web', '--min-available=1'],
        'poddisruptionbudget.policy/keep',
      ],
      [
        ['ingress', 'front', '--rule=foo.example/bar=c-ip:8080,tls=web-tls'],
        'ingress.networking.k8s.io/front',
      ],
    ]
    for (const [args, printed] of cases)
      expect(ok(await run(['create', ...n, ...args]))).toBe(`${printed} created\n`)
    const clusterScoped: [string[], string][] = [
      [
        ['clusterrole', 'node-reader', '--verb=get', '--resource=nodes'],
        'clusterrole.rbac.authorization.k8s.io/node-reader',
      ],
      [
        ['clusterrolebinding', 'devs-read', '--clusterrole=node-reader', '--group=devs'],
        'clusterrolebinding.rbac.authorization.k8s.io/devs-read',
      ],
      [
        ['priorityclass', 'high', '--value=1000', '--description=important'],
        'priorityclass.scheduling.k8s.io/high',
      ],
    ]
    for (const [args, printed] of clusterScoped)
      expect(ok(await run(['create', ...args]))).toBe(`${printed} created\n`)

    const kinds = 'cm,secret,sa,job,cronjob,svc,role,rolebinding,quota,pdb,ingress'
    const items = okJson<{ items: Obj[] }>(await run(['get', kinds, ...n, '-o', 'json'])).items
    const get = (kind: string, name: string) => {
      const found = items.find((i) => i.kind === kind && i.metadata.name === name)
      if (!found) throw new Error(`no ${kind} ${name}`)
      return found as Obj & { spec: Record<string, unknown>; data: Record<string, string> }
    }
    expect(get('ConfigMap', 'from-file').data).toEqual({ 'app.conf': 'listen 8080\n' })
    // The hub stores no defaults (no `type: Opaque`); kubectl prints Opaque for it, as checked below.
    expect(get('Secret', 'creds').data).toEqual({ user: b64('admin') })
    expect(get('Secret', 'web-tls')).toMatchObject({
      type: 'kubernetes.io/tls',
      data: { 'tls.crt': b64(tls.certPem), 'tls.key': b64(tls.keyPem) },
    })
    const pull = get('Secret', 'pull')
    expect(pull.type).toBe('kubernetes.io/dockerconfigjson')
    const docker = JSON.parse(
      Buffer.from(pull.data['.dockerconfigjson'] ?? '', 'base64').toString()
    )
    expect(docker.auths['r.example']).toMatchObject({ username: 'u', password: 'p' })
    expect(get('ServiceAccount', 'robot').metadata.namespace).toBe(ns)
    expect(get('Job', 'once').spec).toMatchObject({
      template: {
        spec: {
          restartPolicy: 'Never',
          containers: [{ image: 'busybox:1.36', command: ['echo', 'hi'] }],
        },
      },
    })
    expect(get('CronJob', 'tick').spec.schedule).toBe('*/5 * * * *')
    expect(get('Service', 'c-ip').spec).toMatchObject({
      type: 'ClusterIP',
      ports: [{ port: 80, targetPort: 8080 }],
    })
    expect(get('Service', 'n-port').spec).toMatchObject({
      type: 'NodePort',
      ports: [{ nodePort: 30080 }],
    })
    expect(get('Service', 'l-b').spec).toMatchObject({
      type: 'LoadBalancer',
      ports: [{ port: 443 }],
    })
    expect(get('Service', 'ext').spec).toMatchObject({
      type: 'ExternalName',
      externalName: 'example.com',
    })
    expect(get('Role', 'reader').rules).toEqual([
      { apiGroups: [''], resources: ['pods', 'configmaps'], verbs: ['get', 'list'] },
    ])
    expect(get('RoleBinding', 'read')).toMatchObject({
      roleRef: { kind: 'Role', name: 'reader' },
      subjects: [
        { kind: 'User', name: 'alice' },
        { kind: 'ServiceAccount', name: 'robot', namespace: ns },
      ],
    })
    expect(get('ResourceQuota', 'small').spec).toEqual({ hard: { pods: '10', cpu: '2' } })
    expect(get('PodDisruptionBudget', 'keep').spec).toEqual({
      minAvailable: 1,
      selector: { matchLabels: { app: 'web' } },
    })
    expect(get('Ingress', 'front').spec).toMatchObject({
      rules: [
        {
          host: 'foo.example',
          http: {
            paths: [
              { path: '/bar', backend: { service: { name: 'c-ip', port: { number: 8080 } } } },
            ],
          },
        },
      ],
      tls: [{ hosts: ['foo.example'], secretName: 'web-tls' }],
    })
    const cluster = okJson<{ items: Obj[] }>(
      await run([
        'get',
        'clusterrole/node-reader',
        'clusterrolebinding/devs-read',
        'priorityclass/high',
        '-o',
        'json',
      ])
    ).items
    expect(cluster.map((i) => i.kind)).toEqual([
      'ClusterRole',
      'ClusterRoleBinding',
      'PriorityClass',
    ])
    expect(cluster[1]).toMatchObject({
      subjects: [{ kind: 'Group', name: 'devs' }],
      roleRef: { name: 'node-reader' },
    })
    expect(cluster[2]).toMatchObject({ value: 1000, description: 'important' })

    const svc = ok(await run(['get', 'svc', ...n]))
    expect(printedColumns(svc)).toEqual([
      'NAME',
      'TYPE',
      'CLUSTER-IP',
      'EXTERNAL-IP',
      'PORT(S)',
      'AGE',
    ])
    expect(printedRow(svc, 'c-ip')).toMatchObject({
      TYPE: 'ClusterIP',
      'CLUSTER-IP': '<none>',
      'PORT(S)': '80/TCP',
    })
    expect(printedRow(svc, 'n-port')).toMatchObject({ TYPE: 'NodePort', 'PORT(S)': '80:30080/TCP' })
    expect(printedRow(svc, 'l-b')).toMatchObject({
      TYPE: 'LoadBalancer',
      'EXTERNAL-IP': '<pending>',
      'PORT(S)': '443/TCP',
    })
    expect(printedRow(svc, 'ext')).toMatchObject({
      TYPE: 'ExternalName',
      'EXTERNAL-IP': 'example.com',
    })
    const secrets = ok(await run(['get', 'secrets', ...n]))
    expect(printedRow(secrets, 'web-tls')).toMatchObject({ TYPE: 'kubernetes.io/tls', DATA: '2' })
    expect(printedRow(secrets, 'creds')).toMatchObject({ TYPE: 'Opaque', DATA: '1' })
    const opaque = await run([
      'get',
      'secrets',
      ...n,
      '--field-selector',
      'type=Opaque',
      '-o',
      'name',
    ])
    expect(ok(opaque)).toBe('secret/creds\n')
    expect(printedRow(secrets, 'pull')).toMatchObject({
      TYPE: 'kubernetes.io/dockerconfigjson',
      DATA: '1',
    })
  })
})

const WIDGET_CRD = JSON.stringify({
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: 'widgets.habits.example.com' },
  spec: {
    group: 'habits.example.com',
    names: { plural: 'widgets', singular: 'widget', kind: 'Widget', shortNames: ['wdg'] },
    scope: 'Namespaced',
    versions: [
      {
        name: 'v1',
        served: true,
        storage: true,
        subresources: { status: {} },
        additionalPrinterColumns: [
          { name: 'Size', type: 'integer', jsonPath: '.spec.size' },
          { name: 'Color', type: 'string', jsonPath: '.spec.color', priority: 1 },
          { name: 'Phase', type: 'string', jsonPath: '.status.phase' },
          { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' },
        ],
        schema: {
          openAPIV3Schema: {
            type: 'object',
            properties: {
              spec: {
                type: 'object',
                properties: { size: { type: 'integer' }, color: { type: 'string' } },
              },
              status: { type: 'object', properties: { phase: { type: 'string' } } },
            },
          },
        },
      },
    ],
  },
})

const edge = (kind: string, name: string, body: Record<string, unknown>) =>
  JSON.stringify({ apiVersion: 'edge.kcp.io/v1alpha1', kind, metadata: { name }, ...body })

/** `kubectl patch <ref> --subresource=status --type=merge -p <status>` in the habits context. */
const patchStatus = async (ref: string[], status: Record<string, unknown>) =>
  ok(
    await kc([
      'patch',
      ...ref,
      '--subresource=status',
      '--type=merge',
      '-p',
      JSON.stringify({ status }),
    ])
  )

describe('kubectl get columns in root:habits', () => {
  it('Deployment READY/UP-TO-DATE/AVAILABLE, also -o wide, before and after its status moves', async () => {
    expect(
      ok(await kc(['create', 'deployment', 'web', '--image=nginx:1.27', '--replicas=3']))
    ).toBe('deployment.apps/web created\n')
    const wide = ok(await kc(['get', 'deployment', 'web', '-o', 'wide']))
    expect(printedColumns(wide)).toEqual([
      'NAME',
      'READY',
      'UP-TO-DATE',
      'AVAILABLE',
      'EDGES',
      'AGE',
      'CONTAINERS',
      'IMAGES',
      'SELECTOR',
    ])
    expect(printedRow(wide, 'web')).toMatchObject({
      READY: '0/3',
      'UP-TO-DATE': '0',
      AVAILABLE: '0',
      CONTAINERS: 'nginx',
      IMAGES: 'nginx:1.27',
      SELECTOR: 'app=web',
    })
    await patchStatus(['deployment', 'web'], {
      replicas: 3,
      updatedReplicas: 3,
      readyReplicas: 2,
      availableReplicas: 2,
    })
    expect(printedRow(ok(await kc(['get', 'deploy'])), 'web')).toMatchObject({
      READY: '2/3',
      'UP-TO-DATE': '3',
      AVAILABLE: '2',
    })
  })

  it('Namespace STATUS and Job COMPLETIONS (0/1, then 1/1 Complete)', async () => {
    expect(printedRow(ok(await kc(['get', 'namespaces'])), APP)).toMatchObject({
      STATUS: 'Active',
    })
    ok(await kc(['create', 'job', 'batch', '--image=busybox:1.36', '--', 'true']))
    expect(printedRow(ok(await kc(['get', 'jobs'])), 'batch')).toMatchObject({
      STATUS: 'Running',
      COMPLETIONS: '0/1',
    })
    await patchStatus(['job', 'batch'], {
      succeeded: 1,
      startTime: '2026-01-01T00:00:00Z',
      completionTime: '2026-01-01T00:00:07Z',
      conditions: [
        { type: 'Complete', status: 'True', lastTransitionTime: '2026-01-01T00:00:07Z' },
      ],
    })
    expect(printedRow(ok(await kc(['get', 'job', 'batch', '-o', 'wide'])), 'batch')).toMatchObject({
      STATUS: 'Complete',
      COMPLETIONS: '1/1',
      DURATION: '7s',
      CONTAINERS: 'batch',
    })
  })

  it("a CRD's additionalPrinterColumns, priority-1 columns only with -o wide", async () => {
    ok(await kc(['create', '-f', '-'], WIDGET_CRD))
    const widget = {
      apiVersion: 'habits.example.com/v1',
      kind: 'Widget',
      metadata: { name: 'w1' },
      spec: { size: 3, color: 'blue' },
    }
    ok(await kc(['apply', '-f', '-'], JSON.stringify(widget)))
    await patchStatus(['widget', 'w1'], { phase: 'Shiny' })
    const plain = ok(await kc(['get', 'wdg']))
    expect(printedColumns(plain)).toEqual(['NAME', 'SIZE', 'PHASE', 'AGE'])
    expect(printedRow(plain, 'w1')).toMatchObject({ SIZE: '3', PHASE: 'Shiny' })
    const wide = ok(await kc(['get', 'widgets.habits.example.com', '-o', 'wide']))
    expect(printedColumns(wide)).toEqual(['NAME', 'SIZE', 'COLOR', 'PHASE', 'AGE'])
    expect(printedRow(wide, 'w1')).toMatchObject({ COLOR: 'blue' })
  })

  it('EdgePlacement, SyncTarget, SinglePlacementSlice and Location columns', async () => {
    const objects = [
      edge('EdgePlacement', 'web-everywhere', {
        spec: { locationSelectors: [{ matchLabels: { env: 'prod' } }] },
      }),
      edge('SyncTarget', 'edge-1', { metadata: { name: 'edge-1', labels: { env: 'prod' } } }),
      edge('Location', 'prod', {
        metadata: { name: 'prod', labels: { env: 'prod' } },
        spec: {
          resource: { group: 'edge.kcp.io', version: 'v1alpha1', resource: 'synctargets' },
          instanceSelector: { matchLabels: { env: 'prod' } },
        },
      }),
      // a slice nobody owns (the where step keeps to the slices of its placements)
      edge('SinglePlacementSlice', 'hand-made', {
        destinations: [
          { cluster: 'root', locationName: 'prod', syncTargetName: 'edge-1' },
          { cluster: 'root', locationName: 'prod', syncTargetName: 'edge-2' },
        ],
      }),
    ]
    for (const o of objects) ok(await kc(['create', '-f', '-'], o))
    const before = ok(await kc(['get', 'epl']))
    expect(printedColumns(before)).toEqual(['NAME', 'LOCATIONS', 'READY', 'REASON', 'AGE'])
    // LOCATIONS comes from the where step and READY from the summarize step's Ready condition
    // (run through the relay by npm start); edge-1 has no agent, so it is never True here
    for (let i = 0; ; i++) {
      const row = printedRow(ok(await kc(['get', 'edgeplacements'])), 'web-everywhere')
      if ((row.LOCATIONS === '1' && row.READY !== '') || i === 60) {
        expect(row).toMatchObject({ LOCATIONS: '1', READY: 'False' })
        break
      }
      await new Promise((r) => setTimeout(r, 500))
    }
    const ready = ok(
      await kc([
        'get',
        'epl',
        'web-everywhere',
        '-o',
        'jsonpath={.status.conditions[?(@.type=="Ready")].status}',
      ])
    )
    expect(ready.trim()).toBe('False')
    // a SyncTarget prints its Ready condition as a Node does (kubectl-edge-signals.test.ts
    // follows it through an edge's life); edge-1 has no agent, so it never heartbeat
    const targets = ok(await kc(['get', 'synctargets']))
    expect(printedColumns(targets)).toEqual(['NAME', 'READY', 'REASON', 'VERSION', 'AGE'])
    expect(printedRow(targets, 'edge-1').READY).not.toBe('True')
    const slices = ok(await kc(['get', 'sps']))
    expect(printedColumns(slices)).toEqual(['NAME', 'DESTINATIONS', 'AGE'])
    expect(printedRow(slices, 'hand-made').DESTINATIONS).toBe('2')
    expect(printedRow(ok(await kc(['get', 'locations'])), 'prod').RESOURCE).toBe(
      'synctargets.edge.kcp.io'
    )
  })

  it('get -w prints the header and the current rows, then each change as a row', async () => {
    ok(await kc(['create', 'configmap', 'watched-1', '--from-literal=a=1']))
    const watch = stack.kubectlWatch(['get', 'configmaps', '-w'], { context: 'habits' })
    try {
      await watch.waitFor((out) => out.includes('watched-1'))
      expect(watch.stdout().split('\n')[0]).toMatch(/^NAME\s+DATA\s+AGE$/)
      ok(await kc(['create', 'configmap', 'watched-2', '--from-literal=a=1', '--from-literal=b=2']))
      const out = await watch.waitFor((o) => o.includes('watched-2'))
      expect(parsePrinted(out).find((r) => r.NAME === 'watched-2')).toMatchObject({ DATA: '2' })
      expect(out.match(/^NAME\s/gm)).toHaveLength(1)
    } finally {
      await watch.stop()
    }
  })
})

const cmManifest = (name: string, data: Record<string, string>) =>
  JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: APP }, data })

const cmData = async (name: string) => {
  const r = await kc(['get', 'configmap', name, '-o', 'json'])
  return r.code === 0 ? (JSON.parse(r.stdout) as { data?: Record<string, string> }).data : r.stderr
}

describe('--dry-run=server, kubectl diff and List manifests in root:habits', () => {
  it('create, apply, patch and delete with --dry-run=server persist nothing', async () => {
    const created = ok(
      await kc([
        'create',
        'configmap',
        'dry',
        '--from-literal=a=1',
        '--dry-run=server',
        '-o',
        'json',
      ])
    )
    expect(JSON.parse(created).data).toEqual({ a: '1' })
    expect(await cmData('dry')).toContain('NotFound')
    expect(
      ok(await kc(['apply', '--dry-run=server', '-f', '-'], cmManifest('dry', { a: '1' })))
    ).toBe('configmap/dry created (server dry run)\n')
    expect(await cmData('dry')).toContain('NotFound')

    ok(await kc(['apply', '-f', '-'], cmManifest('dry', { a: '1' })))
    expect(
      ok(await kc(['apply', '--dry-run=server', '-f', '-'], cmManifest('dry', { a: '2' })))
    ).toBe('configmap/dry configured (server dry run)\n')
    const patched = ok(
      await kc([
        'patch',
        'configmap',
        'dry',
        '--dry-run=server',
        '-p',
        '{"data":{"a":"3"}}',
        '-o',
        'jsonpath={.data.a}',
      ])
    )
    expect(patched).toBe('3')
    expect(await cmData('dry')).toEqual({ a: '1' })
    expect(ok(await kc(['delete', 'configmap', 'dry', '--dry-run=server']))).toBe(
      'configmap "dry" deleted (server dry run)\n'
    )
    expect(await cmData('dry')).toEqual({ a: '1' })
    ok(await kc(['delete', 'namespace', APP, '--dry-run=server', '--wait=false']))
    expect(printedRow(ok(await kc(['get', 'ns', APP])), APP).STATUS).toBe('Active')
  })

  it('diff -f exits 1 with a unified diff when the object differs, 0 when it is the same', async () => {
    ok(await kc(['apply', '-f', '-'], cmManifest('diffed', { a: '1' })))
    const same = await kc(['diff', '-f', '-'], cmManifest('diffed', { a: '1' }))
    expect(same.code, same.stderr).toBe(0)
    expect(same.stdout).toBe('')
    const changed = await kc(['diff', '-f', '-'], cmManifest('diffed', { a: '2' }))
    expect(changed.code, changed.stderr).toBe(1)
    expect(changed.stdout).toMatch(/^- {2}a: "1"$/m)
    expect(changed.stdout).toMatch(/^\+ {2}a: "2"$/m)
    const fresh = await kc(['diff', '-f', '-'], cmManifest('not-yet', { b: '1' }))
    expect(fresh.code, fresh.stderr).toBe(1)
    expect(fresh.stdout).toMatch(/^\+ {2}name: not-yet$/m)
    expect(await cmData('diffed')).toEqual({ a: '1' })
    expect(await cmData('not-yet')).toContain('NotFound')
  })

  it('create -f of a List, then apply -f of its `get -o yaml` dump, edited', async () => {
    const list = JSON.stringify({
      apiVersion: 'v1',
      kind: 'List',
      items: ['listed-1', 'listed-2'].map((name) => ({
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name, labels: { dump: 'yes' } },
        data: { k: 'v' },
      })),
    })
    expect(ok(await kc(['create', '-f', '-'], list))).toBe(
      'configmap/listed-1 created\nconfigmap/listed-2 created\n'
    )
    const dump = ok(await kc(['get', 'configmaps', '-l', 'dump=yes', '-o', 'yaml']))
    expect(dump).toMatch(/^kind: List$/m)
    // The placements of this space select these ConfigMaps, so the summarize step annotates them
    // (executing-count) at its own pace: a dump's resourceVersion may be stale by apply time and
    // kube would answer Conflict, so the dump is applied without it, as people do.
    const edited = dump
      .replace(/^( {4}k: )v$/m, '$1edited')
      .replace(/^ {4}resourceVersion: .*\n/gm, '')
    expect(edited).not.toBe(dump)
    // Both are "configured": created without apply, each first gets the last-applied annotation.
    const applied = await kc(['apply', '-f', '-'], edited)
    expect(applied.stdout, applied.stderr).toBe(
      'configmap/listed-1 configured\nconfigmap/listed-2 configured\n'
    )
    expect(applied.stderr).toContain('missing the kubectl.kubernetes.io/last-applied-configuration')
    expect(await cmData('listed-1')).toEqual({ k: 'edited' })
    expect(await cmData('listed-2')).toEqual({ k: 'v' })
    const bad = JSON.stringify({
      apiVersion: 'v1',
      kind: 'List',
      items: [{ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'listed-3' }, bogus: 1 }],
    })
    const refused = await kc(['create', '-f', '-'], bad)
    expect(refused.code).toBe(1)
    expect(refused.stderr).toContain('unknown field "bogus"')
    // --validate=warn (the server's own default): created, warned of, and not stored.
    const warned = await kc(['create', '--validate=warn', '-f', '-'], bad)
    expect(warned.stdout, warned.stderr).toBe('configmap/listed-3 created\n')
    expect(warned.stderr).toContain('unknown field "bogus"')
    const stored = okJson(
      await kc(['get', 'configmap', 'listed-3', '-o', 'json', '--show-managed-fields'])
    )
    expect(JSON.stringify(stored)).not.toContain('bogus')
  })
})

type Involved = { apiVersion: string; kind: string; name: string; uid: string; namespace?: string }

/** A core/v1 Event `name` in `ns` about `about`, as a component would record it. */
type HabitEvent = { ns: string; name: string; about: Involved; reason: string; message: string }

const event = (e: HabitEvent) => {
  const { ns, name, about, reason, message } = e
  const now = new Date().toISOString().replace(/\.\d+Z$/, 'Z')
  return JSON.stringify({
    apiVersion: 'v1',
    kind: 'Event',
    metadata: { name, namespace: ns },
    involvedObject: about,
    reason,
    message,
    type: 'Normal',
    source: { component: 'habits-test' },
    count: 1,
    firstTimestamp: now,
    lastTimestamp: now,
  })
}

const involved = async (ref: string[], apiVersion: string, kind: string): Promise<Involved> => {
  const obj = okJson<KubeObject>(await kc(['get', ...ref, '-o', 'json']))
  return {
    apiVersion,
    kind,
    name: obj.metadata.name ?? '',
    uid: obj.metadata.uid ?? '',
    ...(obj.metadata.namespace ? { namespace: obj.metadata.namespace } : {}),
  }
}

/** The `Events:` section of a describe output, as rows. */
const eventsOf = (described: string) => {
  const at = described.indexOf('\nEvents:')
  if (at < 0) throw new Error(`no Events section in:\n${described}`)
  const section = described.slice(at + '\nEvents:'.length).replace(/^ {2}/gm, '')
  return parsePrinted(section, 'Type').filter((r) => !/^-+$/.test(r.Type ?? ''))
}

describe('kubectl describe with Events in root:habits', () => {
  it('Deployment: its fields and the Event about it', async () => {
    const about = await involved(['deployment', 'web'], 'apps/v1', 'Deployment')
    ok(
      await kc(
        ['create', '-f', '-'],
        event({ ns: APP, name: 'web.scaled', about, reason: 'Scaled', message: 'scaled to 3' })
      )
    )
    ok(
      await kc(
        ['create', '-f', '-'],
        event({
          ns: APP,
          name: 'other.1',
          about: { ...about, uid: 'x' },
          reason: 'Old',
          message: 'no',
        })
      )
    )
    const out = ok(await kc(['describe', 'deployment', 'web']))
    expect(out).toMatch(/^Name:\s+web$/m)
    expect(out).toMatch(/^Namespace:\s+app$/m)
    expect(out).toMatch(/^Replicas:\s+3 desired \| 3 updated \| 3 total \| 2 available/m)
    expect(out).toMatch(/^\s+Image:\s+nginx:1\.27$/m)
    expect(eventsOf(out)).toEqual([
      {
        Type: 'Normal',
        Reason: 'Scaled',
        Age: expect.any(String),
        From: 'habits-test',
        Message: 'scaled to 3',
      },
    ])
  })

  it('ConfigMap: its data and its Event; the field selector kubectl uses matches exactly', async () => {
    ok(await kc(['create', 'configmap', 'described', '--from-literal=colour=blue']))
    const about = await involved(['configmap', 'described'], 'v1', 'ConfigMap')
    ok(
      await kc(
        ['create', '-f', '-'],
        event({ ns: APP, name: 'described.1', about, reason: 'Seen', message: 'looked at' })
      )
    )
    const out = ok(await kc(['describe', 'configmap', 'described']))
    expect(out).toMatch(/^colour:\n-+\nblue$/m)
    expect(eventsOf(out).map((e) => e.Reason)).toEqual(['Seen'])
    const selector = (uid: string) =>
      encodeURIComponent(
        `involvedObject.namespace=${APP},involvedObject.kind=ConfigMap,involvedObject.uid=${uid},involvedObject.name=described`
      )
    const list = async (uid: string) => {
      const res = await stack.api(
        `/clusters/root:habits/api/v1/namespaces/${APP}/events?fieldSelector=${selector(uid)}`
      )
      expect(res.status).toBe(200)
      const body = (await res.json()) as { items: KubeObject[] }
      return body.items.map((i) => i.metadata.name)
    }
    expect(await list(about.uid)).toEqual(['described.1'])
    expect(await list('another-uid')).toEqual([])
  })

  it('Namespace: status and quotas; its Event listed by the involvedObject field selectors', async () => {
    const about = await involved(['namespace', APP], 'v1', 'Namespace')
    ok(
      await kc(
        ['create', '-f', '-'],
        event({ ns: APP, name: 'app.labelled', about, reason: 'Labelled', message: 'ns event' })
      )
    )
    const out = ok(await kc(['describe', 'namespace', APP]))
    expect(out).toMatch(/^Name:\s+app$/m)
    expect(out).toMatch(/^Status:\s+Active$/m)
    expect(out).toMatch(/^Resource Quotas\n\s+Name:\s+small$/m)
    // kubectl (1.32) lists no events for a Namespace in describe; `get events` with the same
    // selectors is how they are seen.
    const events = ok(
      await kc([
        'get',
        'events',
        '--field-selector',
        `involvedObject.kind=Namespace,involvedObject.name=${APP},involvedObject.uid=${about.uid},source=habits-test,type=Normal`,
      ])
    )
    expect(parsePrinted(events, 'LAST SEEN')).toEqual([
      expect.objectContaining({
        REASON: 'Labelled',
        OBJECT: `namespace/${APP}`,
        MESSAGE: 'ns event',
      }),
    ])
  })

  it('EdgePlacement: spec fields and an Event recorded in the default namespace', async () => {
    const about = await involved(['epl', 'web-everywhere'], 'edge.kcp.io/v1alpha1', 'EdgePlacement')
    ok(
      await kc(
        ['create', '-f', '-'],
        event({ ns: 'default', name: 'epl.1', about, reason: 'Resolved', message: '1 location' })
      )
    )
    const out = ok(await kc(['describe', 'edgeplacement', 'web-everywhere']))
    expect(out).toMatch(/^Kind:\s+EdgePlacement$/m)
    expect(out).toMatch(/^\s+Location Selectors:\n\s+Match Labels:\n\s+Env:\s+prod$/m)
    expect(out).toMatch(/^\s+Matching Location Count:\s+1$/m)
    expect(eventsOf(out)).toEqual([
      expect.objectContaining({ Type: 'Normal', Reason: 'Resolved', Message: '1 location' }),
    ])
  })
})

describe('kubectl wait, scale, rollout restart and edit in root:habits', () => {
  it('wait --for=condition=Ready returns once a status patch made meanwhile sets it', async () => {
    ok(await kc(['create', '-f', '-'], edge('EdgePlacement', 'waited', { spec: {} })))
    const waiting = kc(['wait', '--for=condition=Ready', 'epl/waited', '--timeout=30s'])
    await new Promise((r) => setTimeout(r, 1500))
    await patchStatus(['epl', 'waited'], {
      conditions: [
        {
          type: 'Ready',
          status: 'True',
          reason: 'Resolved',
          message: '',
          lastTransitionTime: '2026-01-01T00:00:00Z',
        },
      ],
    })
    expect(ok(await waiting)).toBe('edgeplacement.edge.kcp.io/waited condition met\n')
  })

  it('wait --for=condition=Available on a Deployment, and --for=delete', async () => {
    const waiting = kc(['wait', '--for=condition=Available', 'deployment/web', '--timeout=30s'])
    await new Promise((r) => setTimeout(r, 1000))
    await patchStatus(['deployment', 'web'], {
      conditions: [
        {
          type: 'Available',
          status: 'True',
          reason: 'MinimumReplicasAvailable',
          message: 'ok',
          lastUpdateTime: '2026-01-01T00:00:00Z',
          lastTransitionTime: '2026-01-01T00:00:00Z',
        },
      ],
    })
    expect(ok(await waiting)).toBe('deployment.apps/web condition met\n')
    // Not a namespaced object: web-everywhere places every one of those to edge-1, which has no
    // agent, and once summarize has put the edge-removal finalizer on it (seed 002) its deletion
    // waits for an edge that never confirms. Nothing places a ClusterRole here.
    ok(await kc(['create', 'clusterrole', 'doomed', '--verb=get', '--resource=pods']))
    const gone = kc(['wait', '--for=delete', 'clusterrole/doomed', '--timeout=30s'])
    await new Promise((r) => setTimeout(r, 1000))
    ok(await kc(['delete', 'clusterrole', 'doomed']))
    expect(ok(await gone)).toBe('clusterrole.rbac.authorization.k8s.io/doomed condition met\n')
    const timedOut = await kc(['wait', '--for=condition=Gone', 'epl/waited', '--timeout=1s'])
    expect(timedOut.code).not.toBe(0)
    expect(timedOut.stderr).toContain('timed out waiting for the condition')
  })

  it('scale changes spec.replicas through the scale subresource', async () => {
    expect(ok(await kc(['scale', 'deployment', 'web', '--replicas=5']))).toBe(
      'deployment.apps/web scaled\n'
    )
    expect(ok(await kc(['get', 'deploy', 'web', '-o', 'jsonpath={.spec.replicas}']))).toBe('5')
    const stale = await kc(['scale', 'deployment', 'web', '--replicas=1', '--current-replicas=3'])
    expect(stale.code).not.toBe(0)
    expect(ok(await kc(['get', 'deploy', 'web', '-o', 'jsonpath={.spec.replicas}']))).toBe('5')
  })

  it('rollout restart stamps the pod template with restartedAt', async () => {
    const before = okJson<KubeObject>(await kc(['get', 'deploy', 'web', '-o', 'json']))
    const started = Date.now()
    expect(ok(await kc(['rollout', 'restart', 'deployment/web']))).toBe(
      'deployment.apps/web restarted\n'
    )
    const after = okJson<KubeObject & { spec: { template: { metadata: KubeObject['metadata'] } } }>(
      await kc(['get', 'deploy', 'web', '-o', 'json'])
    )
    const stamp = after.spec.template.metadata.annotations?.['kubectl.kubernetes.io/restartedAt']
    expect(stamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/)
    expect(Math.abs(Date.parse(stamp ?? '') - started)).toBeLessThan(60_000)
    expect(after.metadata.generation).toBe((before.metadata.generation ?? 0) + 1)
  })

  it('edit with an EDITOR script that changes the image only', async () => {
    const editor = join(dir, 'edit-image.sh')
    await writeFile(
      editor,
      '#!/bin/sh\nsed -i \'s/\\(image: \\)nginx:1\\.27$/\\1nginx:1.28/\' "$1"\n'
    )
    await chmod(editor, 0o755)
    const previous = process.env.KUBE_EDITOR
    process.env.KUBE_EDITOR = editor
    try {
      const r = await stack.kubectl(['edit', 'deployment', 'web'], {
        context: 'habits',
        timeoutMs: 20_000,
      })
      expect(r.code, r.stderr).toBe(0)
      expect(r.stdout).toBe('deployment.apps/web edited\n')
    } finally {
      if (previous === undefined) delete process.env.KUBE_EDITOR
      else process.env.KUBE_EDITOR = previous
    }
    const spec = ok(
      await kc([
        'get',
        'deploy',
        'web',
        '-o',
        'jsonpath={.spec.template.spec.containers[*].name}={.spec.template.spec.containers[*].image} {.spec.replicas}',
      ])
    )
    expect(spec).toBe('nginx=nginx:1.28 5')
  })
})

/**
 * Everyday kubectl habits on a simulated edge cluster (`npm start` with EDGEPLANE_EDGES
 * `florin:env=prod`, kubectl in the `florin` context), checking what kubectl prints and what the
 * edge then holds: the `kubectl create` generators (sent as protobuf) with the edge's API-server
 * defaults and the simulator's work visible (a Deployment's ReplicaSet and Running pods, a Service's
 * clusterIP and nodePorts, a Job completing); the columns `kubectl get` prints with the simulator's
 * real values (also `-o wide` and `get -w`); `describe` of a Deployment and a Pod with the Events
 * the simulator records. Dry runs, diff, waiting, rollouts, identity, discovery and the
 * container-runtime commands are in kubectl-habits-edge-rollouts.test.ts.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createLocalHubCert } from '../../infra/local/tls-cert.ts'
import type { KubeObject } from '../../lib/kube/types.ts'
import { describedEvents, type EdgeKubectl, edgeKubectl } from './helpers/edge-kubectl.ts'
import { eventually } from './helpers/edge-world.ts'
import { ok } from './helpers/kubectl.ts'
import { parsePrinted, printedColumns, printedRow } from './helpers/printed-table.ts'
import { type E2eStack, startStack } from './helpers/stack.ts'

const EDGE = 'florin'
const NODE = `${EDGE}-node`
const NS = 'habits'
const n = ['-n', NS]
const SERVICE_IP = /^10\.(9[6-9]|10\d|11[01])\.\d{1,3}\.\d{1,3}$/
const POD_IP = /^10\.244\.\d{1,3}\.\d{1,3}$/
let stack: E2eStack
let edge: EdgeKubectl
let dir = ''

beforeAll(async () => {
  stack = await startStack({ edges: `${EDGE}:env=prod` })
  edge = edgeKubectl(stack, EDGE)
  dir = await mkdtemp(join(tmpdir(), 'habits-edge-'))
}, 180_000)
afterAll(async () => {
  await stack?.destroy()
  if (dir) await rm(dir, { recursive: true, force: true })
})

type Obj = KubeObject & Record<string, any>
const b64 = (s: string) => Buffer.from(s).toString('base64')
const run = (args: string[], input?: string) => edge.run(args, input)

describe('kubectl create generators on a simulated edge', () => {
  it('print "<kind>/<name> created"; the edge fills in its defaults and runs the workloads', async () => {
    const tls = createLocalHubCert()
    const file = (name: string) => join(dir, name)
    await writeFile(file('tls.crt'), tls.certPem)
    await writeFile(file('tls.key'), tls.keyPem)
    await writeFile(file('app.conf'), 'listen 8080\n')
    expect(ok(await run(['create', 'namespace', NS]))).toBe(`namespace/${NS} created\n`)
    const cases: [string[], string, Record<string, unknown>][] = [
      [['configmap', 'lit', '--from-literal=a=1'], 'configmap/lit', { data: { a: '1' } }],
      [
        ['configmap', 'file', `--from-file=${file('app.conf')}`],
        'configmap/file',
        { data: { 'app.conf': 'listen 8080\n' } },
      ],
      [
        ['secret', 'generic', 'creds', '--from-literal=user=admin'],
        'secret/creds',
        { type: 'Opaque', data: { user: b64('admin') } },
      ],
      [
        ['secret', 'tls', 'web-tls', `--cert=${file('tls.crt')}`, `--key=${file('tls.key')}`],
        'secret/web-tls',
        { type: 'kubernetes.io/tls', data: { 'tls.crt': b64(tls.certPem) } },
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
        { type: 'kubernetes.io/dockerconfigjson' },
      ],
      [['serviceaccount', 'robot'], 'serviceaccount/robot', { metadata: { name: 'robot' } }],
      [
        ['deployment', 'web', '--image=nginx:1.27', '--replicas=2'],
        'deployment.apps/web',
        {
          spec: {
            replicas: 2,
            revisionHistoryLimit: 10,
            progressDeadlineSeconds: 600,
            strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: '25%' } },
            template: {
              spec: {
                restartPolicy: 'Always',
                dnsPolicy: 'ClusterFirst',
                containers: [{ image: 'nginx:1.27', imagePullPolicy: 'IfNotPresent' }],
              },
            },
          },
        },
      ],
      [
        ['job', 'once', '--image=busybox:1.36', '--', 'echo', 'hi'],
        'job.batch/once',
        { spec: { completions: 1, parallelism: 1, backoffLimit: 6 } },
      ],
      [
        ['cronjob', 'tick', '--image=busybox:1.36', '--schedule=*/5 * * * *', '--', 'date'],
        'cronjob.batch/tick',
        { spec: { concurrencyPolicy: 'Allow', suspend: false, successfulJobsHistoryLimit: 3 } },
      ],
      [
        ['service', 'clusterip', 'c-ip', '--tcp=80:8080'],
        'service/c-ip',
        {
          spec: {
            type: 'ClusterIP',
            clusterIP: expect.stringMatching(SERVICE_IP),
            sessionAffinity: 'None',
            ports: [{ port: 80, targetPort: 8080, protocol: 'TCP' }],
          },
        },
      ],
      [
        ['service', 'nodeport', 'n-port', '--tcp=80:8080', '--node-port=30080'],
        'service/n-port',
        {
          spec: {
            type: 'NodePort',
            externalTrafficPolicy: 'Cluster',
            ports: [{ nodePort: 30080 }],
          },
        },
      ],
      [
        ['service', 'loadbalancer', 'l-b', '--tcp=443:8443'],
        'service/l-b',
        {
          spec: {
            clusterIP: expect.stringMatching(SERVICE_IP),
            ports: [{ nodePort: expect.any(Number) }],
          },
        },
      ],
      [
        ['service', 'externalname', 'ext', '--external-name=example.com'],
        'service/ext',
        { spec: { type: 'ExternalName', externalName: 'example.com' } },
      ],
      [
        ['role', 'reader', '--verb=get,list', '--resource=pods'],
        'role.rbac.authorization.k8s.io/reader',
        { rules: [{ apiGroups: [''], resources: ['pods'], verbs: ['get', 'list'] }] },
      ],
      [
        ['rolebinding', 'read', '--role=reader', `--serviceaccount=${NS}:robot`],
        'rolebinding.rbac.authorization.k8s.io/read',
        { subjects: [{ kind: 'ServiceAccount', name: 'robot', namespace: NS }] },
      ],
      [
        ['quota', 'small', '--hard=pods=10'],
        'resourcequota/small',
        { spec: { hard: { pods: '10' } } },
      ],
      [
        ['poddisruptionbudget', 'keep', '--selector=app=web', '--min-available=1'],
        'poddisruptionbudget.policy/keep',
        { spec: { minAvailable: 1 } },
      ],
      [
        ['ingress', 'front', '--rule=foo.example/bar=c-ip:80'],
        'ingress.networking.k8s.io/front',
        { spec: { rules: [{ host: 'foo.example' }] } },
      ],
    ]
    const clusterScoped: [string[], string, Record<string, unknown>][] = [
      [
        ['clusterrole', 'node-reader', '--verb=get', '--resource=nodes'],
        'clusterrole.rbac.authorization.k8s.io/node-reader',
        { rules: [{ resources: ['nodes'] }] },
      ],
      [
        ['clusterrolebinding', 'devs-read', '--clusterrole=node-reader', '--group=devs'],
        'clusterrolebinding.rbac.authorization.k8s.io/devs-read',
        { subjects: [{ kind: 'Group', name: 'devs' }] },
      ],
      [
        ['priorityclass', 'high', '--value=1000'],
        'priorityclass.scheduling.k8s.io/high',
        { value: 1000, preemptionPolicy: 'PreemptLowerPriority' },
      ],
    ]
    for (const [args, ref, want] of [
      ...cases.map(([a, r, w]) => [[...n, ...a], r, w] as const),
      ...clusterScoped,
    ]) {
      expect(ok(await run(['create', ...args])), args.join(' ')).toBe(`${ref} created\n`)
      expect(await edge.json<Obj>(['get', ref, ...n]), ref).toMatchObject(want)
    }
    expect((await edge.json<Obj>(['get', 'svc', 'ext', ...n])).spec.clusterIP).toBeUndefined()

    const d = await edge.rolledOut(NS, 'web', 2)
    const sets = await edge.json<{ items: Obj[] }>(['get', 'rs', ...n, '-l', 'app=web'])
    expect(sets.items.map((rs) => rs.metadata.ownerReferences?.[0]?.uid)).toEqual([d.metadata.uid])
    await eventually(async () => {
      const pods = await edge.pods(NS, 'app=web')
      expect(pods.map((p) => [p.status?.phase, p.spec.nodeName])).toEqual([
        ['Running', NODE],
        ['Running', NODE],
      ])
    })
    await eventually(async () => {
      const job = await edge.json<Obj>(['get', 'job', 'once', ...n])
      expect(job.status).toMatchObject({ succeeded: 1, conditions: expect.any(Array) })
    })
  })
})

describe('kubectl get columns with the simulator’s values', () => {
  it('Deployment, ReplicaSet and Pod, also -o wide with the pod IP and NODE', async () => {
    const d = printedRow(ok(await run(['get', 'deployment', 'web', ...n, '-o', 'wide'])), 'web')
    expect(d).toMatchObject({
      READY: '2/2',
      'UP-TO-DATE': '2',
      AVAILABLE: '2',
      CONTAINERS: 'nginx',
      IMAGES: 'nginx:1.27',
      SELECTOR: 'app=web',
    })
    const rs = ok(await run(['get', 'rs', ...n, '-l', 'app=web']))
    expect(printedColumns(rs)).toEqual(['NAME', 'DESIRED', 'CURRENT', 'READY', 'AGE'])
    expect(parsePrinted(rs)).toEqual([
      expect.objectContaining({ DESIRED: '2', CURRENT: '2', READY: '2' }),
    ])
    const wide = ok(await run(['get', 'pods', ...n, '-l', 'app=web', '-o', 'wide']))
    expect(printedColumns(wide)).toEqual([
      'NAME',
      'READY',
      'STATUS',
      'RESTARTS',
      'AGE',
      'IP',
      'NODE',
      'NOMINATED NODE',
      'READINESS GATES',
    ])
    const pods = await edge.pods(NS, 'app=web')
    expect(parsePrinted(wide)).toEqual(
      pods.map((p) =>
        expect.objectContaining({
          NAME: p.metadata.name,
          READY: '1/1',
          STATUS: 'Running',
          RESTARTS: '0',
          IP: p.status?.podIP,
          NODE: NODE,
          'NOMINATED NODE': '<none>',
        })
      )
    )
    for (const p of pods) expect(p.status?.podIP).toMatch(POD_IP)
  })

  it('Service TYPE/CLUSTER-IP/PORTS with the allocated IPs and nodePorts, Namespace, Job, Node', async () => {
    const svcs = await edge.json<{ items: Obj[] }>(['get', 'svc', ...n])
    const svc = (name: string) => svcs.items.find((s) => s.metadata.name === name) as Obj
    const out = ok(await run(['get', 'svc', ...n, '-o', 'wide']))
    expect(printedColumns(out)).toEqual([
      'NAME',
      'TYPE',
      'CLUSTER-IP',
      'EXTERNAL-IP',
      'PORT(S)',
      'AGE',
      'SELECTOR',
    ])
    expect(printedRow(out, 'c-ip')).toMatchObject({
      TYPE: 'ClusterIP',
      'CLUSTER-IP': svc('c-ip').spec.clusterIP,
      'EXTERNAL-IP': '<none>',
      'PORT(S)': '80/TCP',
      SELECTOR: 'app=c-ip',
    })
    expect(printedRow(out, 'n-port')).toMatchObject({
      TYPE: 'NodePort',
      'CLUSTER-IP': svc('n-port').spec.clusterIP,
      'PORT(S)': '80:30080/TCP',
    })
    expect(printedRow(out, 'l-b')).toMatchObject({
      TYPE: 'LoadBalancer',
      'CLUSTER-IP': svc('l-b').spec.clusterIP,
      'EXTERNAL-IP': '<pending>',
      'PORT(S)': `443:${svc('l-b').spec.ports[0].nodePort}/TCP`,
    })
    expect(printedRow(out, 'ext')).toMatchObject({
      TYPE: 'ExternalName',
      'CLUSTER-IP': '<none>',
      'EXTERNAL-IP': 'example.com',
    })
    const nss = ok(await run(['get', 'namespaces']))
    for (const name of [NS, 'default', 'kube-system'])
      expect(printedRow(nss, name).STATUS).toBe('Active')
    const jobs = ok(await run(['get', 'jobs', ...n, '-o', 'wide']))
    expect(printedRow(jobs, 'once')).toMatchObject({
      STATUS: 'Complete',
      COMPLETIONS: '1/1',
      CONTAINERS: 'once',
      IMAGES: 'busybox:1.36',
    })
    const [jobPod] = await edge.pods(NS, 'job-name=once')
    const jobPods = ok(await run(['get', 'pods', ...n, '-l', 'job-name=once']))
    expect(printedRow(jobPods, jobPod?.metadata.name ?? '')).toMatchObject({
      READY: '0/1',
      STATUS: 'Completed',
      RESTARTS: '0',
    })
    expect(printedRow(ok(await run(['get', 'nodes'])), NODE)).toMatchObject({ STATUS: 'Ready' })
  })

  it('get -w prints the header once, the current rows, then a new pod as the simulator runs it', async () => {
    ok(await run(['create', ...n, 'deployment', 'watched', '--image=nginx:1.27']))
    const watch = stack.kubectlWatch(['get', 'pods', ...n, '-l', 'app=watched', '-w'], {
      context: EDGE,
    })
    try {
      const out = await watch.waitFor((o) => /1\/1\s+Running/.test(o), 60_000)
      expect(out.split('\n')[0]).toMatch(/^NAME\s+READY\s+STATUS\s+RESTARTS\s+AGE$/)
      expect(out.match(/^NAME\s/gm)).toHaveLength(1)
      const rows = parsePrinted(out)
      expect(rows.every((r) => r.NAME?.startsWith('watched-'))).toBe(true)
      expect(rows.at(-1)).toMatchObject({ READY: '1/1', STATUS: 'Running', RESTARTS: '0' })
    } finally {
      await watch.stop()
    }
  })
})

describe('kubectl describe on a simulated edge, with the Events the simulator records', () => {
  it('Deployment: replicas, strategy, conditions, its new ReplicaSet and ScalingReplicaSet', async () => {
    const [rs] = (await edge.json<{ items: Obj[] }>(['get', 'rs', ...n, '-l', 'app=web'])).items
    const out = ok(await run(['describe', 'deployment', 'web', ...n]))
    expect(out).toMatch(/^Name:\s+web$/m)
    expect(out).toMatch(/^Namespace:\s+habits$/m)
    expect(out).toMatch(
      /^Replicas:\s+2 desired \| 2 updated \| 2 total \| 2 available \| 0 unavailable$/m
    )
    expect(out).toMatch(/^StrategyType:\s+RollingUpdate$/m)
    expect(out).toMatch(/^RollingUpdateStrategy:\s+25% max unavailable, 25% max surge$/m)
    expect(out).toMatch(/^\s+Image:\s+nginx:1\.27$/m)
    expect(out).toMatch(/^\s+Available\s+True\s+MinimumReplicasAvailable$/m)
    expect(out).toMatch(/^\s+Progressing\s+True\s+NewReplicaSetAvailable$/m)
    expect(out).toMatch(
      new RegExp(`^NewReplicaSet:\\s+${rs?.metadata.name} \\(2/2 replicas created\\)$`, 'm')
    )
    expect(describedEvents(out)).toEqual([
      {
        Type: 'Normal',
        Reason: 'ScalingReplicaSet',
        Age: expect.any(String),
        From: 'deployment-controller',
        Message: `Scaled up replica set ${rs?.metadata.name} from 0 to 2`,
      },
    ])
  })

  it('Pod: node, IP, owner, container state and the scheduler’s and kubelet’s Events', async () => {
    const [pod] = await edge.pods(NS, 'app=web')
    const name = pod?.metadata.name ?? ''
    const out = ok(await run(['describe', 'pod', name, ...n]))
    expect(out).toMatch(new RegExp(`^Node:\\s+${NODE}/${pod?.status?.hostIP}$`, 'm'))
    expect(out).toMatch(/^Status:\s+Running$/m)
    expect(out).toMatch(new RegExp(`^IP:\\s+${pod?.status?.podIP}$`, 'm'))
    expect(out).toMatch(/^Controlled By:\s+ReplicaSet\/web-[a-z0-9]+$/m)
    expect(out).toMatch(/^\s+State:\s+Running$/m)
    expect(out).toMatch(/^\s+Ready:\s+True$/m)
    expect(out).toMatch(/^\s+Restart Count:\s+0$/m)
    expect(describedEvents(out).map((e) => [e.Reason, e.From, e.Message])).toEqual([
      ['Scheduled', 'default-scheduler', `Successfully assigned ${NS}/${name} to ${NODE}`],
      ['Pulled', 'kubelet', 'Container image "nginx:1.27" already present on machine'],
      ['Created', 'kubelet', 'Created container: nginx'],
      ['Started', 'kubelet', 'Started container: nginx'],
    ])
  })
})

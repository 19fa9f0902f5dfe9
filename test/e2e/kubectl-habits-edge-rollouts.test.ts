/**
 * More everyday kubectl habits on a simulated edge cluster (`npm start` with EDGEPLANE_EDGES
 * `florin:env=prod`, kubectl in the `florin` context), checking what kubectl prints and what the
 * edge then holds: `--dry-run=server` on create, apply, patch and delete and `kubectl diff` (and,
 * in the center, an EdgePlacement's dry run showing its preview: the edge's SyncTarget);
 * `kubectl wait` on a condition and on deletion; `rollout status` waiting on a paused rollout and
 * finishing once it resumes; `scale` up and down with the pods following; `rollout restart`
 * replacing every pod through a new ReplicaSet; `edit` with an EDITOR script; `auth whoami` and
 * `can-i`; `api-resources`, `api-versions` and `explain`; and the container-runtime commands
 * (`logs`, `exec`, `attach`, `port-forward`, pod proxy, `top`), which fail at once
 * with a message fit for a simulated cluster.
 */
import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parse as parseYaml } from 'yaml'
import { describedEvents, type EdgeKubectl, edgeKubectl } from './helpers/edge-kubectl.ts'
import { eventually } from './helpers/edge-world.ts'
import { ok } from './helpers/kubectl.ts'
import { parsePrinted, printedRow } from './helpers/printed-table.ts'
import { type E2eStack, startStack } from './helpers/stack.ts'

const EDGE = 'florin'
const NS = 'rollouts'
let stack: E2eStack
let edge: EdgeKubectl
let dir = ''

beforeAll(async () => {
  stack = await startStack({ edges: `${EDGE}:env=prod` })
  edge = edgeKubectl(stack, EDGE)
  dir = await mkdtemp(join(tmpdir(), 'habits-edge-rollouts-'))
  ok(await edge.run(['create', 'namespace', NS]))
}, 180_000)
afterAll(async () => {
  await stack?.destroy()
  if (dir) await rm(dir, { recursive: true, force: true })
})

/** kubectl in the edge's context and namespace NS; `line` is split on spaces, `rest` is not. */
const k = (line: string, ...rest: string[]) => edge.run(['-n', NS, ...line.split(' '), ...rest])
const kIn = (input: string, line: string) => edge.run(['-n', NS, ...line.split(' ')], input)

const manifest = (name: string, replicas: number) =>
  JSON.stringify({
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, namespace: NS },
    spec: {
      replicas,
      selector: { matchLabels: { app: name } },
      template: {
        metadata: { labels: { app: name } },
        spec: { containers: [{ name: 'main', image: 'nginx:1.27' }] },
      },
    },
  })

/** `get -o json` of `ref`: the object, or the error kubectl printed. */
const stored = async (ref: string) => {
  const r = await k(`get ${ref} -o json`)
  return r.code === 0 ? JSON.parse(r.stdout) : r.stderr
}
const podUids = async (app: string) =>
  (await edge.pods(NS, `app=${app}`)).map((p) => p.metadata.uid)

describe('--dry-run=server and kubectl diff on a simulated edge', () => {
  it('create and apply answer with the edge defaults and persist nothing', async () => {
    const created = JSON.parse(
      ok(await k('create deployment dry --image=nginx --dry-run=server -o json'))
    )
    expect(created.spec).toMatchObject({
      replicas: 1,
      strategy: { type: 'RollingUpdate' },
      template: { spec: { containers: [{ imagePullPolicy: 'Always' }] } },
    })
    const ip = ok(
      await k(
        'create service clusterip dry --tcp=80 --dry-run=server -o',
        'jsonpath={.spec.clusterIP}'
      )
    )
    expect(ip).toMatch(/^10\.(9[6-9]|10\d|11[01])\./)
    expect(ok(await kIn(manifest('applied', 2), 'apply --dry-run=server -f -'))).toBe(
      'deployment.apps/applied created (server dry run)\n'
    )
    for (const ref of ['deployment/dry', 'service/dry', 'deployment/applied'])
      expect(await stored(ref)).toContain('NotFound')
    expect(await edge.pods(NS, 'app in (dry,applied)')).toEqual([])
  })

  it('create --dry-run=server -o yaml of an EdgePlacement in the center shows its preview', async () => {
    const file = join(dir, 'placement.yaml')
    const ep = {
      apiVersion: 'edge.kcp.io/v1alpha1',
      kind: 'EdgePlacement',
      metadata: { name: 'preview' },
      spec: { locationSelectors: [{ matchLabels: { env: 'prod' } }] },
    }
    await writeFile(file, JSON.stringify(ep))
    const args = ['create', '--dry-run=server', '-o', 'yaml', '-f', file]
    const answer = parseYaml(ok(await stack.kubectl(args)))
    const preview = answer.status.preview
    expect(preview.destinations).toMatchObject({
      count: 1,
      items: [{ locationName: EDGE, syncTargetName: EDGE }],
    })
    // florin's Location is selected once its mailbox exists, listed as NoMailbox before.
    expect(preview.locations.count + preview.unselectedLocationCount).toBe(1)
    expect(ok(await stack.kubectl(['get', 'edgeplacements', '-o', 'name']))).not.toContain(
      'preview'
    )
  })

  it('apply, patch and delete on a running Deployment change nothing, its pods included', async () => {
    ok(await kIn(manifest('applied', 2), 'apply -f -'))
    const before = await edge.rolledOut(NS, 'applied', 2)
    const pods = await podUids('applied')
    expect(ok(await kIn(manifest('applied', 3), 'apply --dry-run=server -f -'))).toBe(
      'deployment.apps/applied configured (server dry run)\n'
    )
    const patch = '{"spec":{"replicas":5}}'
    const patched = ok(
      await k(
        'patch deployment applied --dry-run=server -o',
        'jsonpath={.spec.replicas}',
        '-p',
        patch
      )
    )
    expect(patched).toBe('5')
    expect(ok(await k('delete deployment applied --dry-run=server'))).toBe(
      'deployment.apps "applied" deleted (server dry run)\n'
    )
    const after = await stored('deployment/applied')
    expect(after.spec.replicas).toBe(2)
    expect(after.metadata.resourceVersion).toBe(before.metadata.resourceVersion)
    expect(await podUids('applied')).toEqual(pods)
  })

  it('diff -f: 0 and nothing when the same, 1 with the change otherwise, 1 for a new object', async () => {
    const same = await kIn(manifest('applied', 2), 'diff -f -')
    expect(same.code, same.stderr).toBe(0)
    expect(same.stdout).toBe('')
    const changed = await kIn(manifest('applied', 3), 'diff -f -')
    expect(changed.code, changed.stderr).toBe(1)
    expect(changed.stdout).toMatch(/^- {2}replicas: 2$/m)
    expect(changed.stdout).toMatch(/^\+ {2}replicas: 3$/m)
    const fresh = await kIn(manifest('not-yet', 1), 'diff -f -')
    expect(fresh.code, fresh.stderr).toBe(1)
    expect(fresh.stdout).toMatch(/^\+ {2}name: not-yet$/m)
    expect(fresh.stdout).toMatch(/^\+ {6}maxSurge: 25%$/m)
    expect((await stored('deployment/applied')).spec.replicas).toBe(2)
    expect(await stored('deployment/not-yet')).toContain('NotFound')
  })
})

const HOLD = '{"metadata":{"finalizers":["habits.example/hold"]}}'
const UNHOLD = '[{"op":"remove","path":"/metadata/finalizers"}]'

describe('kubectl wait on a simulated edge', () => {
  it('--for=condition=Available returns once the simulator made the new Deployment available', async () => {
    ok(await k('create deployment waited --image=nginx:1.27 --replicas=2'))
    expect(ok(await k('wait --for=condition=Available deployment/waited --timeout=60s'))).toBe(
      'deployment.apps/waited condition met\n'
    )
    const d = await stored('deployment/waited')
    expect(d.status.availableReplicas).toBe(2)
  })

  it('--for=delete waits for a Deployment held by a finalizer, then its pods go', async () => {
    ok(await k('patch deployment waited --type=merge -p', HOLD))
    ok(await k('delete deployment waited --wait=false'))
    const waiting = stack.kubectlWatch(
      ['-n', NS, 'wait', '--for=delete', 'deployment/waited', '--timeout=60s', '-v=6'],
      { context: EDGE }
    )
    try {
      // Once kubectl watches, the finalizer is removed: it must see the deletion happen.
      await eventually(async () => expect(waiting.stderr()).toMatch(/[?&]watch=true/))
      ok(await k('patch deployment waited --type=json -p', UNHOLD))
      await waiting.waitFor((o) => o.includes('condition met'), 60_000)
      const done = await waiting.exited()
      expect(done.code).toBe(0)
      expect(done.stdout).toBe('deployment.apps/waited condition met\n')
    } finally {
      await waiting.stop()
    }
    await eventually(async () => expect(await edge.pods(NS, 'app=waited')).toEqual([]))
  })
})

type Rs = {
  metadata: { name: string }
  spec: { replicas: number }
  status?: { readyReplicas?: number }
}

/** The ReplicaSets of the Deployment labelled app=`app`, in NS. */
async function replicaSets(app: string): Promise<Rs[]> {
  return (await edge.json<{ items: Rs[] }>(['get', 'rs', '-n', NS, '-l', `app=${app}`])).items
}

describe('rollout status, scale, rollout restart and edit on a simulated edge', () => {
  it('rollout status waits while a paused rollout has not started, and finishes once resumed', async () => {
    ok(await k('create deployment rolled --image=nginx:1.27 --replicas=2'))
    expect(ok(await k('rollout status deployment/rolled --timeout=60s'))).toMatch(
      /deployment "rolled" successfully rolled out\n$/
    )
    expect(ok(await k('rollout pause deployment/rolled'))).toBe('deployment.apps/rolled paused\n')
    expect(ok(await k('set image deployment/rolled nginx=nginx:1.28'))).toBe(
      'deployment.apps/rolled image updated\n'
    )
    const status = stack.kubectlWatch(['-n', NS, 'rollout', 'status', 'deployment/rolled'], {
      context: EDGE,
    })
    try {
      const waiting =
        'Waiting for deployment "rolled" rollout to finish: 0 out of 2 new replicas have been updated...'
      await status.waitFor((o) => o.includes(waiting), 60_000)
      const paused = printedRow(ok(await k('get deployment rolled')), 'rolled')
      expect(paused).toMatchObject({ READY: '2/2', 'UP-TO-DATE': '0', AVAILABLE: '2' })
      expect(status.stdout()).not.toContain('successfully rolled out')
      ok(await k('rollout resume deployment/rolled'))
      await status.waitFor((o) => o.includes('successfully rolled out'), 60_000)
      const done = await status.exited()
      expect(done.code, done.stderr).toBe(0)
      expect(done.stdout).toMatch(/\ndeployment "rolled" successfully rolled out\n$/)
    } finally {
      await status.stop()
    }
    const d = await edge.rolledOut(NS, 'rolled', 2)
    expect(d.status?.conditions).toContainEqual(
      expect.objectContaining({
        type: 'Progressing',
        status: 'True',
        reason: 'NewReplicaSetAvailable',
      })
    )
    const sets = await replicaSets('rolled')
    expect(sets.map((rs) => rs.spec.replicas).sort()).toEqual([0, 2])
    await eventually(async () => {
      const pods = await edge.pods(NS, 'app=rolled')
      expect(pods.map((p) => [p.spec.containers[0]?.image, p.status?.phase])).toEqual([
        ['nginx:1.28', 'Running'],
        ['nginx:1.28', 'Running'],
      ])
    })
  })

  it('scale up and down: the pods follow, rollout status agrees, the Events say so', async () => {
    expect(ok(await k('scale deployment rolled --replicas=4'))).toBe(
      'deployment.apps/rolled scaled\n'
    )
    ok(await k('rollout status deployment/rolled --timeout=60s'))
    await edge.rolledOut(NS, 'rolled', 4)
    await eventually(async () => expect(await edge.pods(NS, 'app=rolled')).toHaveLength(4))
    expect(printedRow(ok(await k('get deployment rolled')), 'rolled')).toMatchObject({
      READY: '4/4',
      'UP-TO-DATE': '4',
      AVAILABLE: '4',
    })
    expect(ok(await k('scale deployment rolled --replicas=1'))).toBe(
      'deployment.apps/rolled scaled\n'
    )
    await edge.rolledOut(NS, 'rolled', 1)
    await eventually(async () => expect(await edge.pods(NS, 'app=rolled')).toHaveLength(1))
    const rs = parsePrinted(ok(await k('get rs -l app=rolled'))).find((r) => r.DESIRED !== '0')
    expect(rs).toMatchObject({ DESIRED: '1', CURRENT: '1', READY: '1' })
    const stale = await k('scale deployment rolled --replicas=3 --current-replicas=2')
    expect(stale.code).not.toBe(0)
    expect((await stored('deployment/rolled')).spec.replicas).toBe(1)
    const messages = describedEvents(ok(await k('describe deployment rolled'))).map(
      (e) => e.Message
    )
    expect(messages).toContain(`Scaled up replica set ${rs?.NAME} from 2 to 4`)
    expect(messages).toContain(`Scaled down replica set ${rs?.NAME} from 4 to 1`)
  })

  it('rollout restart: a new ReplicaSet, every old pod replaced', async () => {
    ok(await k('scale deployment rolled --replicas=2'))
    await edge.rolledOut(NS, 'rolled', 2)
    const oldSets = (await replicaSets('rolled')).map((rs) => rs.metadata.name)
    const oldPods = await podUids('rolled')
    expect(ok(await k('rollout restart deployment/rolled'))).toBe(
      'deployment.apps/rolled restarted\n'
    )
    ok(await k('rollout status deployment/rolled --timeout=60s'))
    const d = await edge.rolledOut(NS, 'rolled', 2)
    expect(d.spec.template.metadata.annotations).toHaveProperty('kubectl.kubernetes.io/restartedAt')
    const sets = await replicaSets('rolled')
    const fresh = sets.filter((rs) => !oldSets.includes(rs.metadata.name))
    expect(fresh.map((rs) => rs.spec.replicas)).toEqual([2])
    expect(
      sets.filter((rs) => oldSets.includes(rs.metadata.name)).map((rs) => rs.spec.replicas)
    ).toEqual(oldSets.map(() => 0))
    await eventually(async () => {
      const pods = await edge.pods(NS, 'app=rolled')
      expect(pods).toHaveLength(2)
      for (const p of pods) {
        expect(oldPods).not.toContain(p.metadata.uid)
        expect(p.metadata.name).toMatch(new RegExp(`^${fresh[0]?.metadata.name}-`))
      }
    })
  })

  it('edit with an EDITOR script rolls the new image out', async () => {
    const editor = join(dir, 'edit-image.sh')
    await writeFile(
      editor,
      '#!/bin/sh\nsed -i \'s/\\(image: \\)nginx:1\\.28$/\\1nginx:1.29/\' "$1"\n'
    )
    await chmod(editor, 0o755)
    const saved = { EDITOR: process.env.EDITOR, KUBE_EDITOR: process.env.KUBE_EDITOR }
    process.env.EDITOR = editor
    delete process.env.KUBE_EDITOR
    try {
      const r = await edge.run(['-n', NS, 'edit', 'deployment', 'rolled'], undefined, 30_000)
      expect(r.code, r.stderr).toBe(0)
      expect(r.stdout).toBe('deployment.apps/rolled edited\n')
    } finally {
      for (const [key, value] of Object.entries(saved))
        if (value === undefined) delete process.env[key]
        else process.env[key] = value
    }
    ok(await k('rollout status deployment/rolled --timeout=60s'))
    await edge.rolledOut(NS, 'rolled', 2)
    await eventually(async () => {
      const images = (await edge.pods(NS, 'app=rolled')).map((p) => p.spec.containers[0]?.image)
      expect(images).toEqual(['nginx:1.29', 'nginx:1.29'])
    })
  })
})

describe('identity and discovery on a simulated edge', () => {
  it('auth whoami and can-i answer for the edge admin token; a bad token is Unauthorized', async () => {
    const who = ok(await edge.run(['auth', 'whoami']))
    expect(printedRow(who, 'Username', 'ATTRIBUTE').VALUE).toBe('admin')
    expect(printedRow(who, 'Groups', 'ATTRIBUTE').VALUE).toBe(
      '[system:masters system:authenticated]'
    )
    expect(ok(await k('auth can-i create deployments'))).toBe('yes\n')
    expect(ok(await k('auth can-i get pods --subresource=log'))).toBe('yes\n')
    const list = ok(await k('auth can-i --list'))
    expect(printedRow(list, '*.*', 'Resources')).toMatchObject({ Verbs: '[*]' })
    const bad = await edge.run(['--token', 'not-a-token', 'auth', 'whoami'])
    expect(bad.code).toBe(1)
    expect(bad.stderr).toContain('Unauthorized')
  })

  it('api-resources, api-versions and explain deployment.spec', async () => {
    const all = ok(await edge.run(['api-resources']))
    const resource = (name: string) => printedRow(all, name)
    expect(resource('deployments')).toMatchObject({
      SHORTNAMES: 'deploy',
      APIVERSION: 'apps/v1',
      NAMESPACED: 'true',
      KIND: 'Deployment',
    })
    expect(resource('pods')).toMatchObject({ SHORTNAMES: 'po', APIVERSION: 'v1', KIND: 'Pod' })
    expect(resource('nodes')).toMatchObject({ SHORTNAMES: 'no', NAMESPACED: 'false' })
    expect(resource('events')).toMatchObject({ SHORTNAMES: 'ev', NAMESPACED: 'true' })
    const versions = ok(await edge.run(['api-versions']))
      .trim()
      .split('\n')
    for (const v of [
      'v1',
      'apps/v1',
      'batch/v1',
      'networking.k8s.io/v1',
      'rbac.authorization.k8s.io/v1',
    ])
      expect(versions).toContain(v)
    expect(versions).toEqual([...versions].sort())
    const explained = ok(await edge.run(['explain', 'deployment.spec']))
    expect(explained).toMatch(/^GROUP:\s+apps\nKIND:\s+Deployment\nVERSION:\s+v1$/m)
    expect(explained).toMatch(/^FIELD: spec <Object>$/m)
    for (const [field, type] of [
      ['replicas', 'integer'],
      ['selector', 'Object'],
      ['strategy', 'Object'],
      ['template', 'Object'],
      ['minReadySeconds', 'integer'],
      ['paused', 'boolean'],
    ])
      expect(explained).toMatch(new RegExp(`^ {2}${field}\t<${type}>`, 'm'))
  })
})

describe('container-runtime commands on a simulated edge fail at once, saying why', () => {
  it('logs, exec, attach, port-forward, pod proxy and top; create token works', async () => {
    const [pod] = await edge.pods(NS, 'app=rolled')
    const name = pod?.metadata.name ?? ''
    const quick = (...args: string[]) => edge.run(['-n', NS, ...args], undefined, 20_000)
    const why = (sub: string) =>
      `pods/${sub} is not available on a simulated edge cluster: its pods are simulated (Running and Ready without a container runtime) and it runs no containers.`
    const refused: [string[], string][] = [
      [['logs', name], `Error from server (BadRequest): ${why('log')}`],
      [['logs', '-f', 'deployment/rolled'], why('log')],
      [['exec', name, '--', 'ls'], `Error from server (BadRequest): ${why('exec')}`],
      [['attach', name], why('attach')],
      [['port-forward', `pod/${name}`, ':80'], `error upgrading connection: ${why('portforward')}`],
      [['get', '--raw', `/api/v1/namespaces/${NS}/pods/${name}/proxy/`], why('proxy')],
      [['top', 'pod'], 'error: Metrics API not available'],
      [['top', 'node'], 'error: Metrics API not available'],
    ]
    for (const [args, message] of refused) {
      const r = await quick(...args)
      expect(r.code, args.join(' ')).toBe(1)
      expect(r.stderr, args.join(' ')).toContain(message)
      expect(r.stderr).not.toMatch(/InternalError|\b500\b|workspace/)
    }
    // The simulated edge enforces RBAC, so it issues service-account tokens as kube does.
    ok(await quick('create', 'serviceaccount', 'robot'))
    const token = ok(await quick('create', 'token', 'robot')).trim()
    const who = await edge.run([
      'auth',
      'whoami',
      '--token',
      token,
      '-o',
      'jsonpath={.status.userInfo.username}',
    ])
    expect(ok(who)).toBe(`system:serviceaccount:${NS}:robot`)
  })
})

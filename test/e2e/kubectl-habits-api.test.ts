/**
 * More everyday kubectl habits against the real local stack, in root and in a workspace space
 * (`root:habits-api`, reached with `--server`): `api-resources` (the edge kinds' short names and
 * scope) and `api-versions`, `explain` of edge and built-in kinds (the FIELDS shown), `auth whoami`
 * and `auth can-i` (also `--list`) as admin and with a token scoped to another space (kubectl
 * posts these reviews as protobuf), and the container-runtime commands (`logs`, `exec`,
 * `port-forward`, `top pod`) and `create token`, which must fail at once with a message that
 * says why.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ok } from './helpers/kubectl.ts'
import { workspace } from './helpers/manifests.ts'
import { parsePrinted, printedRow } from './helpers/printed-table.ts'
import { type SharedStack, sharedStack } from './helpers/shared-stack.ts'
import { openStackStore } from './helpers/store-access.ts'

const NS = 'habits-api'
const SCOPED_TOKEN = 'habits-scoped-to-espw'
let stack: SharedStack
let server = ''

/** kubectl against root:habits-api through `--server`. */
const inHabits = (args: string[], input?: string) =>
  stack.kubectl(['--server', server, ...args], input !== undefined ? { input } : {})

beforeAll(async () => {
  stack = await sharedStack()
  server = `${stack.url}/clusters/root:habits-api`
  ok(await stack.kubectl(['create', '-f', '-'], { input: workspace('habits-api') }))
  ok(await inHabits(['create', 'namespace', NS]))
  ok(await stack.kubectl(['create', 'namespace', NS]))
  const store = openStackStore(stack.info())
  try {
    await store.mintToken(SCOPED_TOKEN, { name: 'espw-user', kind: 'user', spaces: ['root:espw'] })
  } finally {
    store.close()
  }
})
afterAll(async () => {
  await stack?.close()
})

describe.each([
  { space: 'root', run: (args: string[]) => stack.kubectl(args) },
  { space: 'root:habits-api', run: (args: string[]) => inHabits(args) },
])('discovery in $space', ({ run }) => {
  it('api-resources lists the edge kinds with their short names and scope', async () => {
    const out = ok(await run(['api-resources', '--api-group=edge.kcp.io']))
    const rows = parsePrinted(out)
    expect(rows.map((r) => r.NAME).sort()).toEqual([
      'customizers',
      'edgeplacements',
      'locations',
      'rollouts',
      'singleplacementslices',
      'statussummaries',
      'summarizers',
      'syncerconfigs',
      'synctargets',
    ])
    const row = (name: string) => printedRow(out, name)
    expect(row('edgeplacements')).toMatchObject({
      SHORTNAMES: 'epl',
      APIVERSION: 'edge.kcp.io/v1alpha1',
      NAMESPACED: 'false',
      KIND: 'EdgePlacement',
    })
    expect(row('singleplacementslices')).toMatchObject({ SHORTNAMES: 'sps', NAMESPACED: 'false' })
    expect(row('syncerconfigs')).toMatchObject({ SHORTNAMES: 'escfg', NAMESPACED: 'false' })
    expect(row('synctargets').NAMESPACED).toBe('false')
    expect(row('rollouts')).toMatchObject({ KIND: 'Rollout', NAMESPACED: 'false' })
    expect(row('customizers').NAMESPACED).toBe('true')
    expect(row('summarizers')).toMatchObject({ KIND: 'Summarizer', NAMESPACED: 'true' })
    expect(row('statussummaries')).toMatchObject({ KIND: 'StatusSummary', NAMESPACED: 'true' })
    const all = ok(await run(['api-resources']))
    expect(printedRow(all, 'deployments')).toMatchObject({
      SHORTNAMES: 'deploy',
      NAMESPACED: 'true',
    })
    expect(printedRow(all, 'namespaces')).toMatchObject({ SHORTNAMES: 'ns', NAMESPACED: 'false' })
    expect(printedRow(all, 'workspaces')).toMatchObject({
      SHORTNAMES: 'ws',
      APIVERSION: 'tenancy.kcp.io/v1alpha1',
    })
    const names = ok(await run(['api-resources', '--namespaced=true', '-o', 'name']))
    expect(names.split('\n')).toContain('customizers.edge.kcp.io')
    expect(names.split('\n')).not.toContain('edgeplacements.edge.kcp.io')
  })

  it('api-versions lists the built-in, kcp and edge group-versions', async () => {
    const versions = ok(await run(['api-versions']))
      .trim()
      .split('\n')
    for (const v of [
      'v1',
      'apps/v1',
      'batch/v1',
      'rbac.authorization.k8s.io/v1',
      'authentication.k8s.io/v1',
      'authorization.k8s.io/v1',
      'edge.kcp.io/v1alpha1',
      'tenancy.kcp.io/v1alpha1',
      'apis.kcp.io/v1alpha1',
    ])
      expect(versions).toContain(v)
    expect(versions).toEqual([...versions].sort())
  })
})

/** The FIELDS kubectl explain lists at the top level of its answer: name -> shown type. */
function explainFields(out: string): Record<string, string> {
  const at = out.indexOf('\nFIELDS:\n')
  if (at < 0) throw new Error(`no FIELDS in:\n${out}`)
  const fields: Record<string, string> = {}
  for (const m of out.slice(at).matchAll(/^ {2}(\S+)\t<([^>]+)>( -required-)?$/gm))
    fields[m[1] ?? ''] = `${m[2]}${m[3] ?? ''}`
  return fields
}

describe('kubectl explain', () => {
  const explain = async (what: string) => ok(await stack.kubectl(['explain', what]))

  it('edgeplacement and edgeplacement.spec.locationSelectors', async () => {
    const top = await explain('edgeplacement')
    expect(top).toMatch(/^GROUP:\s+edge\.kcp\.io\nKIND:\s+EdgePlacement\nVERSION:\s+v1alpha1$/m)
    expect(explainFields(top)).toEqual({
      apiVersion: 'string',
      kind: 'string',
      metadata: 'ObjectMeta',
      spec: 'Object',
      status: 'Object',
    })
    const spec = explainFields(await explain('edgeplacement.spec'))
    expect(Object.keys(spec).sort()).toEqual([
      'locationSelectors',
      'namespaceSelector',
      'nonNamespacedObjects',
      'upsync',
    ])
    const selectors = await explain('edgeplacement.spec.locationSelectors')
    expect(selectors).toMatch(/^FIELD: locationSelectors <\[\]Object>$/m)
    expect(selectors).toContain('A Location matches if any selector does.')
    expect(explainFields(selectors)).toEqual({
      matchExpressions: '[]Object',
      matchLabels: 'map[string]string',
    })
  })

  it('synctarget and location', async () => {
    expect(Object.keys(explainFields(await explain('synctarget'))).sort()).toEqual([
      'apiVersion',
      'kind',
      'metadata',
      'spec',
      'status',
    ])
    expect(explainFields(await explain('synctarget.spec'))).toMatchObject({
      unschedulable: 'boolean',
      evictAfter: 'string',
      cells: 'map[string]string',
    })
    const location = explainFields(await explain('location'))
    expect(location.spec).toBe('Object -required-')
    expect(Object.keys(explainFields(await explain('location.spec'))).sort()).toEqual([
      'availableSelectorLabels',
      'description',
      'instanceSelector',
      'resource',
    ])
  })

  it('built-ins: deployment.spec, configmap, service.spec.ports, namespace', async () => {
    const deployment = await explain('deployment.spec')
    expect(deployment).toMatch(/^GROUP:\s+apps\nKIND:\s+Deployment\nVERSION:\s+v1$/m)
    expect(explainFields(deployment)).toMatchObject({
      replicas: 'integer',
      selector: 'Object',
      template: 'Object',
      strategy: 'Object',
      minReadySeconds: 'integer',
      revisionHistoryLimit: 'integer',
      paused: 'boolean',
      progressDeadlineSeconds: 'integer',
    })
    expect(explainFields(await explain('configmap'))).toEqual({
      apiVersion: 'string',
      binaryData: 'map[string]string',
      data: 'map[string]string',
      immutable: 'boolean',
      kind: 'string',
      metadata: 'ObjectMeta',
    })
    const ports = await explain('service.spec.ports')
    expect(ports).toMatch(/^FIELD: ports <\[\]Object>$/m)
    expect(Object.keys(explainFields(ports)).sort()).toEqual([
      'appProtocol',
      'name',
      'nodePort',
      'port',
      'protocol',
      'targetPort',
    ])
    expect(explainFields(await explain('namespace'))).toMatchObject({
      metadata: 'ObjectMeta',
      spec: 'Object',
      status: 'Object',
    })
    const missing = await stack.kubectl(['explain', 'configmap.nosuchfield'])
    expect(missing.code).not.toBe(0)
    expect(missing.stderr).toContain('nosuchfield')
  })
})

describe('kubectl auth', () => {
  it('whoami and can-i as admin, in root and in root:habits-api', async () => {
    for (const run of [(a: string[]) => stack.kubectl(a), inHabits]) {
      const who = ok(await run(['auth', 'whoami']))
      expect(printedRow(who, 'Username', 'ATTRIBUTE').VALUE).toBe('admin')
      expect(printedRow(who, 'Groups', 'ATTRIBUTE').VALUE).toBe(
        '[system:masters system:authenticated]'
      )
      expect(ok(await run(['auth', 'can-i', 'create', 'deployments', '-n', NS]))).toBe('yes\n')
      expect(ok(await run(['auth', 'can-i', 'get', 'edgeplacements']))).toBe('yes\n')
      const list = ok(await run(['auth', 'can-i', '--list', '-n', NS]))
      expect(printedRow(list, '*.*', 'Resources')).toMatchObject({ Verbs: '[*]' })
    }
    const json = JSON.parse(ok(await stack.kubectl(['auth', 'whoami', '-o', 'json'])))
    expect(json).toMatchObject({
      apiVersion: 'authentication.k8s.io/v1',
      kind: 'SelfSubjectReview',
      status: { userInfo: { username: 'admin', extra: { 'edgeplane.io/scopes': ['*'] } } },
    })
  })

  it('a token scoped to root:espw: who it is anywhere, allowed only in its own space', async () => {
    const token = ['--token', SCOPED_TOKEN]
    const who = ok(await inHabits([...token, 'auth', 'whoami']))
    expect(printedRow(who, 'Username', 'ATTRIBUTE').VALUE).toBe('espw-user')
    expect(printedRow(who, 'Extra: edgeplane.io/scopes', 'ATTRIBUTE').VALUE).toBe('[root:espw]')
    const no = await inHabits([...token, 'auth', 'can-i', 'create', 'deployments', '-n', NS])
    expect(no.code).toBe(1)
    expect(no.stdout).toBe('no - user token "espw-user" does not reach workspace root:habits-api\n')
    const none = await inHabits([...token, 'auth', 'can-i', '--list', '-n', NS])
    expect(none.code, none.stderr).toBe(0)
    expect(parsePrinted(none.stdout, 'Resources')).toEqual([])
    const denied = await inHabits([...token, 'get', 'configmaps', '-n', NS])
    expect(denied.code).toBe(1)
    expect(denied.stderr).toContain('Forbidden')
    const own = await stack.kubectl([...token, 'auth', 'can-i', 'create', 'deployments'], {
      context: 'root:espw',
    })
    expect(own.stdout, own.stderr).toBe('yes\n')
  })
})

describe('container-runtime commands and create token fail at once with a clear message', () => {
  const POD = JSON.stringify({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'runner', namespace: NS },
    spec: { containers: [{ name: 'main', image: 'busybox:1.36' }] },
  })
  const NO_RUNTIME = 'is not available in an edgeplane workspace: it holds desired state only'

  it('logs, exec, port-forward, top pod and create token in root:habits-api', async () => {
    ok(await inHabits(['create', '-f', '-'], POD))
    ok(
      await inHabits([
        'patch',
        'pod',
        'runner',
        '-n',
        NS,
        '--subresource=status',
        '--type=merge',
        '-p',
        '{"status":{"phase":"Running"}}',
      ])
    )
    const quick = (args: string[]) =>
      stack.kubectl(['--server', server, '-n', NS, ...args], { timeoutMs: 15_000 })
    const logs = await quick(['logs', 'runner'])
    expect(logs.code).toBe(1)
    expect(logs.stderr).toContain(`Error from server (BadRequest): pods/log ${NO_RUNTIME}`)
    const follow = await quick(['logs', '-f', 'runner', '-c', 'main'])
    expect(follow.stderr).toContain(`pods/log ${NO_RUNTIME}`)
    const exec = await quick(['exec', 'runner', '--', 'ls'])
    expect(exec.code).toBe(1)
    expect(exec.stderr).toContain(`pods/exec ${NO_RUNTIME}`)
    const forward = await quick(['port-forward', 'pod/runner', ':80'])
    expect(forward.code).toBe(1)
    expect(forward.stderr).toContain(`pods/portforward ${NO_RUNTIME}`)
    const top = await quick(['top', 'pod'])
    expect(top.code).toBe(1)
    expect(top.stderr).toContain('Metrics API not available')
    ok(await quick(['create', 'serviceaccount', 'robot']))
    const token = await quick(['create', 'token', 'robot'])
    expect(token.code).toBe(1)
    expect(token.stderr).toContain(
      'serviceaccounts/token is not available in an edgeplane workspace'
    )
    for (const r of [logs, follow, exec, forward, top, token])
      expect(r.stderr).not.toMatch(/500|Internal/)
  })
})

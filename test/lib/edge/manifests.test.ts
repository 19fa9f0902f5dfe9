import { describe, expect, it } from 'vitest'
import { parseAllDocuments } from 'yaml'
import {
  type EdgeManifestOptions,
  renderEdgeManifests,
  renderEdgeManifestsYaml,
} from '../../../lib/edge/manifests.ts'

const TOKEN = 'tok-SECRET-abcdefghijklmnopqrstuvwxyz012345'
const opts: EdgeManifestOptions = {
  mailbox: 'abc123-mb-0f8fad5b-d9cb-469f-a165-70867728950e',
  syncTarget: 'florin',
  token: TOKEN,
  centerUrl: 'https://center.example:8787',
}

function parse(yaml: string): any[] {
  const docs = parseAllDocuments(yaml)
  for (const d of docs) expect(d.errors).toEqual([])
  return docs.map((d) => d.toJS())
}

const b64 = (s: string) => Buffer.from(s).toString('base64')
const decode = (s: string) => Buffer.from(s, 'base64').toString('utf8')

describe('renderEdgeManifestsYaml', () => {
  const docs = parse(renderEdgeManifestsYaml(opts))
  const byKind = (kind: string) => docs.find((d) => d.kind === kind)

  it('emits the outline list, in apply order, as one YAML stream', () => {
    expect(docs.map((d) => `${d.kind}/${d.metadata.name}`)).toEqual([
      'Namespace/edgeplane-system',
      'ServiceAccount/edgeplane-agent',
      'ClusterRole/edgeplane-agent',
      'ClusterRoleBinding/edgeplane-agent',
      'Role/edgeplane-agent',
      'RoleBinding/edgeplane-agent',
      'Namespace/edgeplane-tenants',
      'Role/edgeplane-agent-impersonate',
      'RoleBinding/edgeplane-agent-impersonate',
      'Secret/edgeplane-agent',
      'Deployment/edgeplane-agent',
    ])
    expect(docs).toEqual(JSON.parse(JSON.stringify(renderEdgeManifests(opts))))
    for (const d of docs.filter(
      (d) =>
        !['Namespace', 'ClusterRole', 'ClusterRoleBinding'].includes(d.kind) &&
        !d.metadata.name.endsWith('-impersonate')
    ))
      expect(d.metadata.namespace).toBe('edgeplane-system')
  })

  it('lets the agent impersonate the service accounts of edgeplane-tenants and nothing else', () => {
    const imp = docs.filter((d) => d.metadata.name === 'edgeplane-agent-impersonate')
    expect(imp.map((d) => [d.kind, d.metadata.namespace])).toEqual([
      ['Role', 'edgeplane-tenants'],
      ['RoleBinding', 'edgeplane-tenants'],
    ])
    expect(imp[0].rules).toEqual([
      { apiGroups: [''], resources: ['serviceaccounts'], verbs: ['impersonate'] },
    ])
    expect(imp[1].subjects).toEqual([
      { kind: 'ServiceAccount', name: 'edgeplane-agent', namespace: 'edgeplane-system' },
    ])
    const clusterRules = docs.find((d) => d.kind === 'ClusterRole').rules
    expect(JSON.stringify(clusterRules)).not.toContain('impersonate')
  })

  it('puts the token in the Secret and nowhere else', () => {
    const secret = byKind('Secret')
    expect(decode(secret.data.token)).toBe(TOKEN)
    expect(decode(secret.data.center)).toBe(opts.centerUrl)
    expect(decode(secret.data.mailbox)).toBe(opts.mailbox)
    for (const d of docs.filter((d) => d.kind !== 'Secret')) {
      const text = JSON.stringify(d)
      expect(text).not.toContain(TOKEN)
      expect(text).not.toContain(b64(TOKEN))
    }
  })

  it('grants the agent object verbs and discovery, never escalate, bind or impersonate', () => {
    const cr = byKind('ClusterRole')
    expect(cr.rules).toEqual([
      { nonResourceURLs: ['/api', '/api/*', '/apis', '/apis/*', '/version'], verbs: ['get'] },
      {
        apiGroups: ['*'],
        resources: ['*'],
        verbs: ['get', 'list', 'watch', 'create', 'update', 'patch', 'delete'],
      },
    ])
    const role = byKind('Role')
    const verbs = [...cr.rules, ...role.rules].flatMap((r: any) => r.verbs)
    for (const bad of ['*', 'escalate', 'bind', 'impersonate', 'deletecollection'])
      expect(verbs).not.toContain(bad)
    expect(role.rules[0].resources).toEqual(['configmaps', 'secrets'])
    for (const kind of ['ClusterRoleBinding', 'RoleBinding'])
      expect(byKind(kind).subjects).toEqual([
        { kind: 'ServiceAccount', name: 'edgeplane-agent', namespace: 'edgeplane-system' },
      ])
    expect(byKind('ClusterRoleBinding').roleRef.kind).toBe('ClusterRole')
    expect(byKind('RoleBinding').roleRef.kind).toBe('Role')
  })

  it('runs the agent with the flags of its CLI, the token file and the state folder', () => {
    const dep = byKind('Deployment')
    const pod = dep.spec.template.spec
    const c = pod.containers[0]
    expect(dep.spec.replicas).toBe(1)
    expect(dep.spec.strategy.type).toBe('Recreate')
    expect(pod.serviceAccountName).toBe('edgeplane-agent')
    expect(c.image).toBe('ghcr.io/edgeplane/edge-agent:0.1.0')
    expect(c.args).toEqual([
      '--center=$(EDGEPLANE_CENTER)',
      '--mailbox=$(EDGEPLANE_MAILBOX)',
      '--token-file=/var/run/edgeplane/token',
      '--poll-interval=15',
      '--state-dir=$(EDGEPLANE_STATE)',
      '--health-port=9464',
    ])
    expect(c.args.join(' ')).not.toContain('--kubeconfig')
    const env = Object.fromEntries(c.env.map((e: any) => [e.name, e.value ?? e.valueFrom]))
    expect(env.EDGEPLANE_CENTER).toEqual({
      secretKeyRef: { name: 'edgeplane-agent', key: 'center' },
    })
    expect(env.EDGEPLANE_MAILBOX).toEqual({
      secretKeyRef: { name: 'edgeplane-agent', key: 'mailbox' },
    })
    expect(env.EDGEPLANE_STATE).toBe('/var/lib/edgeplane-agent')
    expect(env.EDGEPLANE_CENTER_CA).toBeUndefined()
    expect(c.volumeMounts).toContainEqual({
      name: 'credentials',
      mountPath: '/var/run/edgeplane',
      readOnly: true,
    })
    expect(pod.volumes[0].secret.secretName).toBe('edgeplane-agent')
    expect(c.securityContext.allowPrivilegeEscalation).toBe(false)
    expect(dep.spec.selector.matchLabels).toEqual(
      expect.objectContaining({ 'app.kubernetes.io/name': 'edgeplane-agent' })
    )
    for (const [k, v] of Object.entries(dep.spec.selector.matchLabels))
      expect(dep.spec.template.metadata.labels[k]).toBe(v)
  })

  it('probes the agent on its health port: liveness /healthz, readiness /readyz', () => {
    const dep = byKind('Deployment')
    const c = dep.spec.template.spec.containers[0]
    expect(c.ports).toEqual([{ name: 'health', containerPort: 9464, protocol: 'TCP' }])
    expect(c.args).toContain(`--health-port=${c.ports[0].containerPort}`)
    expect(c.livenessProbe.httpGet).toEqual({ path: '/healthz', port: 'health' })
    expect(c.readinessProbe.httpGet).toEqual({ path: '/readyz', port: 'health' })
    // Liveness gives up only after a minute of failed probes: a slow poll is not a dead loop.
    expect(c.livenessProbe.periodSeconds * c.livenessProbe.failureThreshold).toBeGreaterThanOrEqual(
      60
    )
    expect(dep.spec.template.metadata.annotations).toEqual({
      'prometheus.io/scrape': 'true',
      'prometheus.io/port': '9464',
      'prometheus.io/path': '/metrics',
    })
  })

  it('takes the namespace, image, poll interval and a private CA', () => {
    const ca = '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n'
    const docs = parse(
      renderEdgeManifestsYaml({
        ...opts,
        namespace: 'agents',
        image: 'registry.example/agent:1.2',
        pollIntervalSeconds: 5,
        caPem: ca,
      })
    )
    const dep = docs.find((d) => d.kind === 'Deployment')
    const c = dep.spec.template.spec.containers[0]
    expect(docs[0]).toMatchObject({ kind: 'Namespace', metadata: { name: 'agents' } })
    expect(dep.metadata.namespace).toBe('agents')
    expect(c.image).toBe('registry.example/agent:1.2')
    expect(c.args).toContain('--poll-interval=5')
    expect(c.env).toContainEqual({
      name: 'EDGEPLANE_CENTER_CA',
      value: '/var/run/edgeplane/ca.crt',
    })
    expect(decode(docs.find((d) => d.kind === 'Secret').data['ca.crt'])).toBe(ca)
    expect(docs.find((d) => d.kind === 'RoleBinding').subjects[0].namespace).toBe('agents')
  })
})

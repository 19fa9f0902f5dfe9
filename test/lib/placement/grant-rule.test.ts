/**
 * The tenancy allow list in the selection (lib/placement/grant-rule.ts through select.ts): with
 * the policy of real PlacementGrants (lib/tenancy/policy.ts), privileged objects a placement
 * reaches go only when a grant of the space lists their resource; otherwise they are skipped as
 * NotGranted with a message naming the resource and spec.resources. Single-team mode sends them
 * as before.
 */
import { describe, expect, it } from 'vitest'
import { builtinsFrom } from '../../../lib/apis/builtins.ts'
import type { PlacementGrant } from '../../../lib/apis/grants.ts'
import type { KubeObject } from '../../../lib/kube/types.ts'
import { notGranted } from '../../../lib/placement/grant-rule.ts'
import { selectForPlacement } from '../../../lib/placement/select.ts'
import type { SourceObject, SpaceSnapshot } from '../../../lib/placement/types.ts'
import { tenancyPolicy } from '../../../lib/tenancy/policy.ts'

function src(gvr: string, kind: string, nsName: string): SourceObject {
  const [group = '', version = '', resource = ''] = gvr.split('/')
  const [namespace, name] = nsName.includes('/') ? nsName.split('/') : [undefined, nsName]
  return {
    group,
    version,
    resource,
    namespaced: namespace !== undefined,
    object: {
      apiVersion: group ? `${group}/${version}` : version,
      kind,
      metadata: { name, ...(namespace ? { namespace } : {}) },
    },
  }
}

const RBAC = 'rbac.authorization.k8s.io/v1'
const OBJECTS = [
  src('/v1/namespaces', 'Namespace', 'shop'),
  src('/v1/configmaps', 'ConfigMap', 'shop/settings'),
  src(`${RBAC}/rolebindings`, 'RoleBinding', 'shop/admin'),
  src(`${RBAC}/clusterrolebindings`, 'ClusterRoleBinding', 'take-over'),
  src(`${RBAC}/clusterroles`, 'ClusterRole', 'reader'),
  src(
    'admissionregistration.k8s.io/v1/mutatingwebhookconfigurations',
    'MutatingWebhookConfiguration',
    'everything'
  ),
  src('storage.k8s.io/v1/storageclasses', 'StorageClass', 'fast'),
]

const grant = (
  name: string,
  resources?: { group: string; resource: string }[]
): PlacementGrant => ({
  apiVersion: 'tenancy.edgeplane.io/v1alpha1',
  kind: 'PlacementGrant',
  metadata: { name },
  spec: { workloadSpaces: ['root:team-a'], ...(resources ? { resources } : {}) },
})

const snapshotUnder = (grants: PlacementGrant[], path = 'root:team-a'): SpaceSnapshot => ({
  spaceId: 'ws-a',
  objects: OBJECTS,
  grant: tenancyPolicy([], grants).grantOf(path),
})

const EVERYTHING: KubeObject = {
  apiVersion: 'edge.kcp.io/v1alpha1',
  kind: 'EdgePlacement',
  metadata: { name: 'ep' },
  spec: {
    namespaceSelector: {},
    nonNamespacedObjects: [
      { apiGroup: '', resources: ['namespaces'], resourceNames: ['*'] },
      { apiGroup: 'rbac.authorization.k8s.io', resources: ['*'], resourceNames: ['*'] },
      { apiGroup: 'admissionregistration.k8s.io', resources: ['*'], resourceNames: ['*'] },
      { apiGroup: 'storage.k8s.io', resources: ['*'], resourceNames: ['*'] },
    ],
  } as KubeObject['spec'],
}

const names = (list: { resource: string; name: string }[]) =>
  list.map((o) => `${o.resource}/${o.name}`).sort()
const sentNames = (snap: SpaceSnapshot) =>
  names(
    selectForPlacement(EVERYTHING, snap, builtinsFrom()).objects.map((o) => ({
      resource: o.resource,
      name: o.object.metadata.name ?? '',
    }))
  )
const notGrantedOf = (snap: SpaceSnapshot) =>
  selectForPlacement(EVERYTHING, snap, builtinsFrom()).skipped.filter(
    (s) => s.reason === 'NotGranted'
  )

describe('the allow list in the selection', () => {
  it('single-team mode sends every privileged object, as before grants existed', () => {
    const snap = { ...snapshotUnder([]), grant: tenancyPolicy([], []).grantOf('root:team-a') }
    expect(sentNames(snap)).toHaveLength(OBJECTS.length)
    expect(notGrantedOf(snap)).toEqual([])
  })

  it('a grant without resources sends Namespaces and namespaced workload kinds only', () => {
    const snap = snapshotUnder([grant('a')])
    expect(sentNames(snap)).toEqual(['configmaps/settings', 'namespaces/shop'])
    expect(names(notGrantedOf(snap))).toEqual([
      'clusterrolebindings/take-over',
      'clusterroles/reader',
      'mutatingwebhookconfigurations/everything',
      'rolebindings/admin',
      'storageclasses/fast',
    ])
  })

  it('sends what spec.resources lists, by resource or a whole group', () => {
    const snap = snapshotUnder([
      grant('a', [{ group: 'rbac.authorization.k8s.io', resource: 'clusterroles' }]),
      grant('b', [{ group: 'storage.k8s.io', resource: '*' }]),
    ])
    expect(sentNames(snap)).toEqual([
      'clusterroles/reader',
      'configmaps/settings',
      'namespaces/shop',
      'storageclasses/fast',
    ])
  })

  it("another space's grant does not count", () => {
    const other = grant('b', [{ group: '*', resource: '*' }])
    const snap = snapshotUnder([{ ...other, spec: { ...other.spec, workloadSpaces: ['root:b'] } }])
    expect(sentNames(snap)).toEqual(['configmaps/settings', 'namespaces/shop'])
  })

  it('names the resource and the grant field in the message', () => {
    const [crb] = notGrantedOf(snapshotUnder([grant('a')])).filter(
      (s) => s.resource === 'clusterrolebindings'
    )
    expect(crb).toMatchObject({
      group: 'rbac.authorization.k8s.io',
      namespace: '',
      name: 'take-over',
    })
    expect(crb?.message).toContain('ClusterRoleBinding "take-over"')
    expect(crb?.message).toContain(
      '{group: "rbac.authorization.k8s.io", resource: "clusterrolebindings"} in spec.resources'
    )
  })

  it('notGranted keeps the namespace of a namespaced object and passes unprivileged ones', () => {
    const none = { allowsResource: () => false }
    const [rb, cm] = [OBJECTS[2], OBJECTS[1]] as SourceObject[]
    expect(notGranted(rb as SourceObject, none, 'it')).toMatchObject({
      namespace: 'shop',
      name: 'admin',
      reason: 'NotGranted',
    })
    expect(notGranted(cm as SourceObject, none, 'it')).toBeUndefined()
  })
})

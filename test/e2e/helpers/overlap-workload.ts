/**
 * The workloads of the overlap end-to-end tests (issue 5, seed 003 "EdgePlacement objects"): two
 * workload spaces sending objects to the same edges. Everything is JSON for `kubectl create -f -`
 * (a List), never `kubectl apply`: apply would give each source its own
 * `last-applied-configuration` annotation, which differs between spaces and would itself be a
 * merge conflict, hiding the one under test. Per space: Namespace `common` (the same labels in
 * both, so the Namespaces merge without conflict) with the EdgePlacement `overlap` sending it to
 * env=prod, and the ConfigMap `shared` whose data and labels the caller chooses; later the CRD
 * `widgets.e2e.example.com` at chosen versions with an EdgePlacement `crds` sending the CRD itself
 * (nonNamespacedObjects by name), and a Widget in `common` at a chosen version. And, for two
 * tenants of different trust scopes, Namespace `mx` with the EdgePlacement `tenant` and the
 * Secret `creds` (`tenantSecret`).
 */

export const CRD_GROUP = 'e2e.example.com'
export const CRD_NAME = `widgets.${CRD_GROUP}`

const list = (items: unknown[]) => JSON.stringify({ apiVersion: 'v1', kind: 'List', items })

const placement = (name: string, spec: Record<string, unknown>) => ({
  apiVersion: 'edge.kcp.io/v1alpha1',
  kind: 'EdgePlacement',
  metadata: { name },
  spec: { locationSelectors: [{ matchLabels: { env: 'prod' } }], ...spec },
})

/** Namespace `common`, its EdgePlacement and ConfigMap `shared` with these labels and data. */
export function sharedConfigMap(labels: Record<string, string>, data: Record<string, string>) {
  return list([
    {
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name: 'common', labels: { app: 'common' } },
    },
    placement('overlap', { namespaceSelector: { matchLabels: { app: 'common' } } }),
    {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'shared', namespace: 'common', labels },
      data,
    },
  ])
}

/** `spec.versions` of the CRD: each served, `storage` the storage one. */
export function crdVersions(names: string[], storage: string) {
  return names.map((name) => ({
    name,
    served: true,
    storage: name === storage,
    schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } },
  }))
}

/** The CRD at these versions and the EdgePlacement `crds` sending it to env=prod. */
export function widgetCrd(versions: string[], storage: string): string {
  return list([
    {
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'CustomResourceDefinition',
      metadata: { name: CRD_NAME },
      spec: {
        group: CRD_GROUP,
        scope: 'Namespaced',
        names: { plural: 'widgets', singular: 'widget', kind: 'Widget', listKind: 'WidgetList' },
        versions: crdVersions(versions, storage),
      },
    },
    placement('crds', {
      nonNamespacedObjects: [
        {
          apiGroup: 'apiextensions.k8s.io',
          resources: ['customresourcedefinitions'],
          resourceNames: [CRD_NAME],
        },
      ],
    }),
  ])
}

/** A Widget in `common`, written at `version`. */
export function widget(name: string, version: string): string {
  return JSON.stringify({
    apiVersion: `${CRD_GROUP}/${version}`,
    kind: 'Widget',
    metadata: { name, namespace: 'common' },
    spec: { size: 1 },
  })
}

/** A merge patch setting the CRD's versions (for `kubectl patch --type merge -p`). */
export function crdVersionsPatch(versions: string[], storage: string): string {
  return JSON.stringify({ spec: { versions: crdVersions(versions, storage) } })
}

/**
 * Namespace `mx`, the EdgePlacement `tenant` sending it to env=prod and the Secret `creds` with
 * this data (issue 35: two tenants placing one identity on the same edges).
 */
export function tenantSecret(data: Record<string, string>): string {
  return list([
    { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'mx', labels: { app: 'mx' } } },
    placement('tenant', { namespaceSelector: { matchLabels: { app: 'mx' } } }),
    {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 'creds', namespace: 'mx' },
      data: Object.fromEntries(Object.entries(data).map(([k, v]) => [k, btoa(v)])),
    },
  ])
}

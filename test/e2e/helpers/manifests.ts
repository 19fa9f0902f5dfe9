/**
 * Small manifest builders for e2e tests, as JSON text for `kubectl create -f -` / `apply -f -`
 * (JSON bodies; the imperative `kubectl create <kind>` generators, which send protobuf, are
 * exercised on their own in kubectl-objects.test.ts).
 */

export function namespace(name: string): string {
  return JSON.stringify({ apiVersion: 'v1', kind: 'Namespace', metadata: { name } })
}

export function configMap(ns: string, name: string, data: Record<string, string> = {}): string {
  return JSON.stringify({
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name, namespace: ns },
    data,
  })
}

export function workspace(name: string): string {
  return JSON.stringify({
    apiVersion: 'tenancy.kcp.io/v1alpha1',
    kind: 'Workspace',
    metadata: { name },
  })
}

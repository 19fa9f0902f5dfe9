/**
 * The workload of the translation end-to-end tests (issue 5, "how it is shown"), as YAML for
 * `kubectl apply -f -` in one workload space, for two simulated edges whose Locations carry
 * `env`, `loc-name` and a `size` label (florin size=1, guilder size=2 and extended=si; see
 * `TRANSLATION_EDGES`). Three namespaces, each with its own EdgePlacement:
 * - `custom` (to env=prod): Customizer `per-edge` (expanded: replicas from `%(size)`, a `site`
 *   label from `%(loc-name)`), a Deployment using it and expanding its own `%(...)`, a ConfigMap
 *   expanding parameters (with a `%%` escape), a ConfigMap naming the absent Customizer `missing`
 *   and one using `%(extended)`, which only guilder's Location defines;
 * - `fleet` (to env=prod): a Deployment of 2 replicas on both edges, and the Summarizer
 *   `ready-by-site` summing ready replicas per `loc-name` over the Deployments labelled
 *   tier=counted (all three Deployments are);
 * - `solo` (to extended=si, guilder only): a singleton Deployment of 2 replicas.
 */

/** EDGEPLANE_EDGES for these tests: the default edges plus a `size` label used as a parameter. */
export const TRANSLATION_EDGES = 'florin:env=prod:size=1,guilder:env=prod:extended=si:size=2'

function placement(ns: string, where: string): string {
  return `apiVersion: v1
kind: Namespace
metadata: {name: ${ns}, labels: {app: ${ns}}}
---
apiVersion: edge.kcp.io/v1alpha1
kind: EdgePlacement
metadata: {name: ${ns}}
spec:
  locationSelectors: [{matchLabels: {${where}}}]
  namespaceSelector: {matchLabels: {app: ${ns}}}
`
}

/** A Deployment labelled tier=counted; `annotations` as YAML flow-map entries. */
export function deployment(ns: string, replicas: number, annotations = '', env = ''): string {
  return `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  namespace: ${ns}
  labels: {tier: counted}
  annotations: {${annotations}}
spec:
  replicas: ${replicas}
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers:
      - name: web
        image: "nginx:1.27"
        env: [${env}]
`
}

const EXPAND = '"edge.kcp.io/expand-parameters": "true"'

const CUSTOM = `apiVersion: edge.kcp.io/v1alpha1
kind: Customizer
metadata:
  name: per-edge
  namespace: custom
  annotations: {${EXPAND}}
replacements:
- {path: "$.spec.replicas", value: "%(size)"}
- {path: "$.metadata.labels.site", value: '"%(loc-name)"'}
---
${deployment('custom', 1, `"edge.kcp.io/customizer": per-edge, ${EXPAND}`, '{name: SITE, value: "%(loc-name) in %(env)"}')}---
apiVersion: v1
kind: ConfigMap
metadata:
  name: settings
  namespace: custom
  annotations: {${EXPAND}}
data: {env: "%(env)", site: "%(loc-name)", banner: "100%% %(loc-name)"}
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: broken
  namespace: custom
  annotations: {"edge.kcp.io/customizer": missing}
data: {state: as-written}
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: special
  namespace: custom
  annotations: {${EXPAND}}
data: {extended: "%(extended)"}
`

const SUMMARIZER = `apiVersion: edge.kcp.io/v1alpha1
kind: Summarizer
metadata: {name: ready-by-site, namespace: fleet}
spec:
  subject:
    group: apps
    resource: deployments
    labelSelector: {matchLabels: {tier: counted}}
  groupBy: [{name: site, locationLabel: loc-name}]
  aggregations:
  - {name: copies, type: Count}
  - {name: ready, type: Sum, jsonPath: "$.status.readyReplicas"}
`

/** The whole workload, one manifest stream. */
export function translationWorkload(): string {
  return [
    placement('custom', 'env: prod'),
    CUSTOM,
    placement('fleet', 'env: prod'),
    deployment('fleet', 2),
    SUMMARIZER,
    placement('solo', 'extended: si'),
    deployment('solo', 2),
  ].join('---\n')
}

/** The Customizer the `broken` ConfigMap names, created later to repair it. */
export const MISSING_CUSTOMIZER = `apiVersion: edge.kcp.io/v1alpha1
kind: Customizer
metadata: {name: missing, namespace: custom}
replacements:
- {path: "$.data.state", value: '"customized"'}
`

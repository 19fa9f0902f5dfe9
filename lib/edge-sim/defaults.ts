/**
 * The API-server defaults of a simulated edge cluster, as one table keyed by `group/resource`
 * (what a real kube-apiserver fills in on every write, so that kubectl, client-node and the edge
 * agent see the objects a real cluster would hold). `apiServerDefaults` is the hub's opt-in
 * Defaulter (HubDeps.defaults): it copies the object, runs the kind's entry and returns the
 * result; kinds without an entry pass through unchanged.
 */
import type { Defaulter, DefaultingRequest } from '../hub/deps.ts'
import type { KubeObject } from '../kube/types.ts'
import { podSpecDefaults } from './defaults-pod.ts'
import { serviceDefaults } from './defaults-service.ts'
import {
  cronJobDefaults,
  daemonSetDefaults,
  deploymentDefaults,
  jobDefaults,
  replicaSetDefaults,
  secretDefaults,
  statefulSetDefaults,
} from './defaults-workloads.ts'
import { child, type Obj } from './json.ts'

type KindDefaults = (obj: KubeObject, req: DefaultingRequest) => void | Promise<void>

const spec = (obj: KubeObject) => child(obj as Obj, 'spec')

/** What each kind gets; the keys are `group/resource` ('' for the core group). */
export const DEFAULTS_TABLE: Readonly<Record<string, KindDefaults>> = {
  '/pods': (obj) => podSpecDefaults(spec(obj), true),
  '/services': (obj, req) => serviceDefaults(req, obj),
  '/secrets': (obj) => secretDefaults(obj),
  'apps/deployments': (obj) => deploymentDefaults(spec(obj)),
  'apps/replicasets': (obj) => replicaSetDefaults(spec(obj)),
  'apps/statefulsets': (obj) => statefulSetDefaults(spec(obj)),
  'apps/daemonsets': (obj) => daemonSetDefaults(spec(obj)),
  'batch/jobs': (obj, req) =>
    jobDefaults(spec(obj), {
      uid: obj.metadata.uid ?? req.old?.metadata.uid ?? '',
      name: obj.metadata.name ?? '',
    }),
  'batch/cronjobs': (obj) => cronJobDefaults(spec(obj)),
}

export const apiServerDefaults: Defaulter = async (req) => {
  const entry = DEFAULTS_TABLE[`${req.group}/${req.resource}`]
  if (!entry) return req.obj
  const obj = structuredClone(req.obj)
  await entry(obj, req)
  return obj
}

/**
 * The API-server defaults of a simulated edge cluster (what a real kube-apiserver fills in on
 * every write, so that kubectl, client-node and the edge agent see the objects a real cluster
 * would hold): kube's declared defaults of the built-in kinds, which every hub fills
 * (lib/kube/defaults/builtin-defaults.ts), then what only a running cluster adds, in one table
 * keyed by `group/resource`: a bare Pod's admission additions, a Service's addresses (clusterIP,
 * nodePorts), a Job's generated selector. `apiServerDefaults` is the simulated edge's Defaulter
 * (HubDeps.defaults): it copies the object, fills it and returns the result.
 */
import type { Defaulter, DefaultingRequest } from '../hub/deps.ts'
import { fillBuiltinDefaults } from '../kube/defaults/builtin-defaults.ts'
import type { KubeObject } from '../kube/types.ts'
import { podAdmissionDefaults } from './defaults-pod.ts'
import { serviceAllocations } from './defaults-service.ts'
import { jobSelector } from './defaults-workloads.ts'
import { child, type Obj } from './json.ts'

type KindDefaults = (obj: KubeObject, req: DefaultingRequest) => void | Promise<void>

const spec = (obj: KubeObject) => child(obj as Obj, 'spec')

/** What a running cluster adds beyond kube's declared defaults; keys are `group/resource`. */
export const CLUSTER_ADDITIONS: Readonly<Record<string, KindDefaults>> = {
  '/pods': (obj) => podAdmissionDefaults(spec(obj)),
  '/services': (obj, req) => serviceAllocations(req, obj),
  'batch/jobs': (obj, req) =>
    jobSelector(spec(obj), {
      uid: obj.metadata.uid ?? req.old?.metadata.uid ?? '',
      name: obj.metadata.name ?? '',
    }),
}

export const apiServerDefaults: Defaulter = async (req) => {
  const obj = fillBuiltinDefaults(req.obj)
  const entry = CLUSTER_ADDITIONS[`${req.group}/${req.resource}`]
  if (!entry) return obj
  const out = obj === req.obj ? structuredClone(obj) : obj
  await entry(out, req)
  return out
}

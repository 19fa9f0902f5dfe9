/**
 * kube's declared defaults of the built-in kinds, as kube-apiserver fills them on every write, by
 * `apiVersion` and kind: Pod, Service, Secret, Deployment, ReplicaSet, StatefulSet, DaemonSet,
 * Job and CronJob (a ConfigMap's is an empty `data`, which JSON does not show). Every hub fills
 * them (lib/hub/defaulting.ts), so `kubectl describe` at the center shows what it shows at a kube
 * cluster (StrategyType RollingUpdate, `Port: 80/TCP`).
 *
 * `stripBuiltinDefaults` makes what the translate step sends instead (lib/placement/project.ts):
 * the object less every value its defaults would fill in again. The edges are kube API servers
 * too and fill them themselves, from the copy as customized for them: a Customizer that changes
 * an image or a port there gets the imagePullPolicy or targetPort kube derives from the new
 * value, not the center's, a `replicas` the user never wrote is not applied by the agent (so an
 * edge's HorizontalPodAutoscaler keeps it), and a copy is the same whether its object was written
 * before the center filled defaults or after. Filling the result gives back the filled object.
 */
import type { KubeObject } from '../types.ts'
import { POD_SPEC } from './pod-defaults.ts'
import { fillScopes, type Node, type Scope, stripScopes } from './scopes.ts'
import { SECRET, SERVICE } from './service-defaults.ts'
import {
  CRON_JOB,
  DAEMON_SET,
  DEPLOYMENT,
  JOB,
  REPLICA_SET,
  STATEFUL_SET,
} from './workload-defaults.ts'

/** The scopes of each kind, by `<apiVersion> <kind>`. */
export const BUILTIN_DEFAULTS: ReadonlyMap<string, readonly Scope[]> = new Map([
  ['v1 Pod', [POD_SPEC]],
  ['v1 Service', SERVICE],
  ['v1 Secret', SECRET],
  ['apps/v1 Deployment', DEPLOYMENT],
  ['apps/v1 ReplicaSet', REPLICA_SET],
  ['apps/v1 StatefulSet', STATEFUL_SET],
  ['apps/v1 DaemonSet', DAEMON_SET],
  ['batch/v1 Job', JOB],
  ['batch/v1 CronJob', CRON_JOB],
])

const scopesOf = (obj: KubeObject) => BUILTIN_DEFAULTS.get(`${obj.apiVersion} ${obj.kind}`)

/** `obj` with kube's defaults filled in (a copy; the object itself when its kind has none). */
export function fillBuiltinDefaults(obj: KubeObject): KubeObject {
  const scopes = scopesOf(obj)
  if (!scopes) return obj
  const out = structuredClone(obj)
  fillScopes(out as Node, scopes)
  return out
}

/** Removes from `obj`, in place, what its kind's defaults would fill in again. */
export function stripBuiltinDefaults(obj: KubeObject): void {
  const scopes = scopesOf(obj)
  if (scopes) stripScopes(obj as Node, scopes)
}

/** `obj` less what its defaults would fill in again (a copy; itself when its kind has none). */
export function withoutBuiltinDefaults(obj: KubeObject): KubeObject {
  if (!scopesOf(obj)) return obj
  const out = structuredClone(obj)
  stripBuiltinDefaults(out)
  return out
}

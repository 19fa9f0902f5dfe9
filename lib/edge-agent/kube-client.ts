/**
 * What the edge agent needs from its edge cluster's API, as a small interface so the poll logic
 * can run against any implementation (kube-rest.ts over @kubernetes/client-node in production and
 * in the tests, where the edge cluster is a real in-process hub). Objects are addressed by the
 * protocol's ObjectRef (group, version, resource, namespace, name; namespace '' = cluster-scoped).
 * Failures reject with a RemoteError (lib/remote/remote-error.ts) carrying the HTTP code and the
 * kube Status reason. `as(user)` is the client impersonating a user (the agent applies a tenant's
 * entries as that tenant's identity, tenant-binder.ts).
 */
import type { ObjectRef } from '../edge/protocol.ts'
import type { GroupVersionResource, KubeObject } from '../kube/types.ts'

/** One resource the edge cluster serves, from its discovery. */
export type ServedResource = GroupVersionResource & {
  kind: string
  namespaced: boolean
  verbs: string[]
  /** True for the group's preferred version (the first the cluster lists). */
  preferred: boolean
}

export type ApplyOptions = { fieldManager: string; force: boolean }
export type DeleteOptions = { uid: string; propagationPolicy?: 'Background' | 'Foreground' }

export type EdgeKube = {
  /** Every resource the cluster serves (subresources excluded). */
  discover(): Promise<ServedResource[]>
  /** The object, or undefined when it does not exist (404). */
  get(ref: ObjectRef): Promise<KubeObject | undefined>
  /** Every object of a resource, in one namespace or (namespace undefined) in all. */
  list(gvr: GroupVersionResource, namespace?: string): Promise<KubeObject[]>
  /** Creates `body` at `ref` (POST): 409 AlreadyExists when the name is taken. */
  create(ref: ObjectRef, body: KubeObject): Promise<KubeObject>
  /**
   * Replaces the object at `ref` (PUT); `body.metadata.resourceVersion` is the precondition: 409
   * Conflict when the object changed since, 404 when it is gone.
   */
  update(ref: ObjectRef, body: KubeObject): Promise<KubeObject>
  /** Server-side apply (create or update) of `body` at `ref`. */
  apply(ref: ObjectRef, body: KubeObject, opts: ApplyOptions): Promise<KubeObject>
  /** Deletes with a uid precondition: 404 and 409 (precondition failed) reject as RemoteErrors. */
  delete(ref: ObjectRef, opts: DeleteOptions): Promise<void>
  /**
   * The same client acting as `user` (kube's `Impersonate-User`), which the cluster allows or
   * refuses (403); absent where impersonation is not available (then nobody is impersonated).
   */
  as?(user: string): EdgeKube
}

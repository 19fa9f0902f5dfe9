/**
 * The hub's view of mailbox spaces: an ObjectStore that serves the translator's projected copies
 * (one manifest per mailbox, projection-types.ts) as ordinary objects next to the objects stored
 * there. get answers with the stored object, else the rendered manifest entry; list merges both
 * (projected-list.ts); watch needs nothing here, since manifest writes log per-copy events in the
 * mailbox's change log. Projected copies are read-only: create on their key is AlreadyExists,
 * update and delete are 405 MethodNotAllowed pointing at the source object. Cross-space lists
 * (`cluster: '*'`) show stored objects only; projected copies appear in cross-space watches.
 * Other spaces pass straight through to the base store.
 */
import {
  alreadyExists,
  describeTarget,
  internalError,
  isApiError,
  methodNotAllowed,
} from '../errors.ts'
import type { KubeObject } from '../kube/types.ts'
import type { ManifestEntry, ProjectionStore } from '../store/projection-types.ts'
import type { ObjectKey, ObjectStore } from '../store/types.ts'
import type { MailboxCheck } from './mailbox-space.ts'
import { listWithProjections, renderEntries } from './projected-list.ts'

export { mailboxSpaceCheck } from './mailbox-space.ts'

const target = (key: ObjectKey) => ({
  ...(key.group ? { group: key.group } : {}),
  kind: key.resource,
  name: key.name,
})

/** 405 for a write to a projected copy. */
export function projectedCopyError(key: ObjectKey) {
  return methodNotAllowed(
    `${describeTarget(key.resource, key.group, key.name)} is a projected copy in mailbox ${key.cluster}, written by the translator from its workload space; change the source object instead`
  )
}

export function withProjections(
  base: ObjectStore,
  projections: ProjectionStore,
  isMailbox: MailboxCheck
): ObjectStore {
  async function entryAt(key: ObjectKey): Promise<ManifestEntry | undefined> {
    const manifest = await projections.getManifest(key.cluster)
    return manifest?.entries.find(
      (e) =>
        e.group === key.group &&
        e.resource === key.resource &&
        e.namespace === key.namespace &&
        e.name === key.name
    )
  }

  /** Runs a write; its NotFound on a projected copy becomes 405. */
  async function guarded(key: ObjectKey, write: () => Promise<KubeObject>): Promise<KubeObject> {
    try {
      return await write()
    } catch (e) {
      if (!isApiError(e) || e.code !== 404 || !(await isMailbox(key.cluster))) throw e
      if (await entryAt(key)) throw projectedCopyError(key)
      throw e
    }
  }

  return {
    async get(key) {
      if (!(await isMailbox(key.cluster))) return base.get(key)
      const [stored, entry] = await Promise.all([base.get(key), entryAt(key)])
      if (stored || !entry) return stored
      return (await renderEntries(projections, key.cluster, [entry]))[0]
    },
    async create(key, obj) {
      if ((await isMailbox(key.cluster)) && (await entryAt(key))) {
        throw alreadyExists(key.resource, target(key))
      }
      return base.create(key, obj)
    },
    update: (key, obj, expectedRv) => guarded(key, () => base.update(key, obj, expectedRv)),
    delete: (key, expectedRv) => guarded(key, () => base.delete(key, expectedRv)),
    async list(opts) {
      if (opts.cluster === '*' || !(await isMailbox(opts.cluster))) return base.list(opts)
      return listWithProjections(base, projections, opts)
    },
    changes: (opts) => base.changes(opts),
    currentRv: () => base.currentRv(),
  }
}

/**
 * A ProjectionStore with no manifests, for hubs started without one (some Node test and bench
 * setups): mailbox spaces then show stored objects only, and writing a manifest is an error.
 */
export const noProjections: ProjectionStore = {
  putBodies: () => Promise.reject(internalError('this hub has no projection store')),
  getBodies: () => Promise.resolve(new Map()),
  getManifest: () => Promise.resolve(undefined),
  writeManifest: () => Promise.reject(internalError('this hub has no projection store')),
  deleteManifest: () => Promise.resolve(),
}

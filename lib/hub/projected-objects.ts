/**
 * The hub's view of mailbox spaces: an ObjectStore that serves the translator's projected copies
 * (one manifest per mailbox, projection-types.ts) as ordinary objects next to the objects stored
 * there. get answers with the stored object, else the rendered manifest entry with its copy state
 * (the status the edge reported); list merges both (projected-list.ts); watch needs nothing here,
 * since manifest and copy-state writes log per-copy events in the mailbox's change log. Projected
 * copies are read-only but for their status: create on their key is AlreadyExists, an update that
 * changes only `.status` writes the copy state (projected-status.ts), any other update and delete
 * are 405 MethodNotAllowed pointing at the source object. Cross-space lists (`cluster: '*'`) show
 * stored objects only; projected copies appear in cross-space watches. Other spaces pass straight
 * through to the base store.
 */
import { alreadyExists, internalError, isApiError } from '../errors.ts'
import type { KubeObject } from '../kube/types.ts'
import { entryKey } from '../store/projection-diff.ts'
import { renderProjected } from '../store/projection-render.ts'
import type { ManifestEntry, ProjectionStore } from '../store/projection-types.ts'
import type { ObjectKey, ObjectStore } from '../store/types.ts'
import type { MailboxCheck } from './mailbox-space.ts'
import { listWithProjections } from './projected-list.ts'
import { projectedCopyError, writeCopyStatus } from './projected-status.ts'

export { mailboxSpaceCheck } from './mailbox-space.ts'
export { projectedCopyError } from './projected-status.ts'

const target = (key: ObjectKey) => ({
  ...(key.group ? { group: key.group } : {}),
  kind: key.resource,
  name: key.name,
})

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

  /** The projected copy at `key` when a write there found no stored object (NotFound). */
  async function copyAt(key: ObjectKey, e: unknown): Promise<ManifestEntry> {
    if (!isApiError(e) || e.code !== 404 || !(await isMailbox(key.cluster))) throw e
    const entry = await entryAt(key)
    if (!entry) throw e
    return entry
  }

  async function get(key: ObjectKey): Promise<KubeObject | undefined> {
    if (!(await isMailbox(key.cluster))) return base.get(key)
    const [stored, entry] = await Promise.all([base.get(key), entryAt(key)])
    if (stored || !entry) return stored
    const [states, bodies] = await Promise.all([
      projections.getCopyStates(key.cluster, [key]),
      projections.getBodies([entry.hash]),
    ])
    const body = bodies.get(entry.hash)
    return body && renderProjected(key.cluster, entry, body, states.get(entryKey(key)))
  }

  return {
    get,
    async getMany(keys) {
      // Mailbox spaces one by one, as get (a copy is its manifest's); the others in one read.
      const mailbox = await Promise.all(keys.map((k) => isMailbox(k.cluster)))
      const plain = keys.filter((_, i) => !mailbox[i])
      const read = plain.length > 0 ? await base.getMany(plain) : []
      let next = 0
      return Promise.all(keys.map((k, i) => (mailbox[i] ? get(k) : read[next++])))
    },
    async create(key, obj) {
      if ((await isMailbox(key.cluster)) && (await entryAt(key))) {
        throw alreadyExists(key.resource, target(key))
      }
      return base.create(key, obj)
    },
    async update(key, obj, expectedRv): Promise<KubeObject> {
      try {
        return await base.update(key, obj, expectedRv)
      } catch (e) {
        const entry = await copyAt(key, e)
        return writeCopyStatus(projections, { key, entry, obj, expectedRv })
      }
    },
    async delete(key, expectedRv) {
      try {
        return await base.delete(key, expectedRv)
      } catch (e) {
        await copyAt(key, e)
        throw projectedCopyError(key)
      }
    },
    async list(opts) {
      if (opts.cluster === '*' || !(await isMailbox(opts.cluster))) return base.list(opts)
      return listWithProjections(base, projections, opts)
    },
    async changes(opts) {
      if (opts.cluster === '*' || !(await isMailbox(opts.cluster))) return base.changes(opts)
      // A member mailbox's shared copies change in its shared manifest's log too.
      const shared = await projections.sharedFeed(opts.cluster)
      return base.changes(shared ? { ...opts, shared } : opts)
    },
    resumePoint: (c, rv) => base.resumePoint(c, rv),
    currentRv: () => base.currentRv(),
    pollDelay: (polledAt) => base.pollDelay(polledAt),
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
  getManifests: () => Promise.resolve(new Map()),
  getManifestVersions: () => Promise.resolve(new Map()),
  getManifestContents: () => Promise.resolve(new Map()),
  writeManifest: () => Promise.reject(internalError('this hub has no projection store')),
  writeManifests: () => Promise.reject(internalError('this hub has no projection store')),
  deleteManifest: () => Promise.resolve(),
  markServed: () => Promise.resolve(),
  getServed: () => Promise.resolve({ kind: 'unknown' }),
  getCopyStates: () => Promise.resolve(new Map()),
  getCopyStatesOf: () => Promise.resolve(new Map()),
  getMailboxMarks: (mailboxes) => Promise.resolve(new Map(mailboxes.map((m) => [m, {}]))),
  touchMailbox: () => Promise.resolve(),
  listCopyStates: () => Promise.resolve(new Map()),
  putCopyStates: () => Promise.reject(internalError('this hub has no projection store')),
  sharedFeed: () => Promise.resolve(undefined),
}

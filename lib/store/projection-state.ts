/**
 * Copy state items (projection-types.ts `CopyState`): what the edge reported about one projected
 * copy, one item per copy, pk `ps#<mailbox>`, sk `<group>/<resource>/<namespace>/<name>` (key
 * parts never contain `/`, so a prefix names one group/resource or one namespace of it), with the
 * copy's `uid`, `rv` (the resourceVersion of the state's last write, the precondition of the next),
 * `ts` (when written, for the sweep) and the encoded content in `body` (projection-codec.ts). They
 * live outside the manifest so that status writes never contend with the translator's manifest
 * writes, and the desired-state endpoint, which reads only the manifest, never pays for them.
 * A copy whose key is too long for a sort key (key-size.ts) has no state. Reads here; writes in
 * projection-state-write.ts.
 */

import { internalError } from '../errors.ts'
import { canonicalJson } from '../patch/json-values.ts'
import { type Item, optBytes, readNumber, readString, s } from './attrs.ts'
import { getItems } from './batch-get.ts'
import type { StoreContext } from './context.ts'
import { keyFits } from './key-size.ts'
import { decodeState } from './projection-codec.ts'
import { entryKey } from './projection-diff.ts'
import type { CopyKey, CopyState, StoredCopyState } from './projection-types.ts'
import { queryAll } from './query-all.ts'

export const STATE_PK_PREFIX = 'ps#'
export const statePk = (mailbox: string) => `${STATE_PK_PREFIX}${mailbox}`

/** Whether a state can be stored for the copy `key` (key-size.ts); none is under a longer key. */
export const stateKeyFits = (mailbox: string, key: CopyKey): boolean =>
  keyFits(statePk(mailbox), entryKey(key))

export const stateKey = (mailbox: string, key: CopyKey): Item => ({
  pk: s(statePk(mailbox)),
  sk: s(entryKey(key)),
})

async function fromItem(item: Item): Promise<[string, StoredCopyState]> {
  const data = optBytes(item, 'body')
  if (!data) throw internalError('stored copy state has no body')
  const state = await decodeState(data, readString(item, 'uid'), readNumber(item, 'rv'))
  return [readString(item, 'sk'), state]
}

/** The stored states of `keys` (read consistently, 100 per request in parallel), by entryKey. */
export async function getCopyStates(
  ctx: StoreContext,
  mailbox: string,
  keys: readonly CopyKey[]
): Promise<Map<string, StoredCopyState>> {
  const storable = keys.filter((k) => stateKeyFits(mailbox, k))
  const unique = [...new Map(storable.map((k) => [entryKey(k), stateKey(mailbox, k)])).values()]
  return new Map(await Promise.all((await getItems(ctx, unique)).map(fromItem)))
}

/**
 * `getCopyStates` for several mailboxes at once (the writes of one batch): by mailbox, then by
 * entryKey; one BatchGetItem per 100 keys in all.
 */
export async function getCopyStatesOf(
  ctx: StoreContext,
  wants: readonly { mailbox: string; keys: readonly CopyKey[] }[]
): Promise<Map<string, Map<string, StoredCopyState>>> {
  const keys = new Map<string, Item>()
  for (const { mailbox, keys: copies } of wants) {
    for (const k of copies) {
      if (stateKeyFits(mailbox, k))
        keys.set(`${statePk(mailbox)}\n${entryKey(k)}`, stateKey(mailbox, k))
    }
  }
  const out = new Map<string, Map<string, StoredCopyState>>()
  if (keys.size === 0) return out
  for (const item of await getItems(ctx, [...keys.values()])) {
    const mailbox = readString(item, 'pk').slice(STATE_PK_PREFIX.length)
    const [key, state] = await fromItem(item)
    const at = out.get(mailbox) ?? new Map<string, StoredCopyState>()
    at.set(key, state)
    out.set(mailbox, at)
  }
  return out
}

/** Every state of one group/resource (and namespace) of a mailbox, by entryKey. */
export async function listCopyStates(
  ctx: StoreContext,
  mailbox: string,
  scope: { group: string; resource: string; namespace?: string }
): Promise<Map<string, StoredCopyState>> {
  const { group, resource, namespace } = scope
  const prefix = `${group}/${resource}/${namespace === undefined ? '' : `${namespace}/`}`
  const out = new Map<string, StoredCopyState>()
  if (!keyFits(statePk(mailbox), prefix)) return out
  const items = await queryAll(ctx, {
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: { ':pk': s(statePk(mailbox)), ':prefix': s(prefix) },
    ConsistentRead: true,
  })
  for (const [key, state] of await Promise.all(items.map(fromItem))) out.set(key, state)
  return out
}

/** A state's content (rv aside) as canonical JSON, to tell whether a write would change it. */
export function copyStateContent(state: CopyState | undefined): string {
  if (!state) return ''
  const { uid, status, observedGeneration, associated, problem, gone } = state
  return canonicalJson({ uid, status, observedGeneration, associated, problem, gone })
}

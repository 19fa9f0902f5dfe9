/**
 * The agent's ownership record: the objects it created at the edge, by key, with the uid the
 * edge gave them. This record — never an annotation, which an edge controller may copy onto
 * objects it makes (KubeStellar's ReplicaSet-deletion loop, #900) — is what makes an object the
 * agent's to update and to delete. It lives in the edge cluster (owned-keeper.ts), so it outlives
 * the agent's pod and state folder. Per object it also keeps what the drift check and the status
 * report need: the hash of the desired body last applied, the hash of the live object's view of
 * the applied fields right after that apply (see apply-config.ts), and the last few (edge
 * generation → center generation) pairs of its applies. An entry marked `pendingSince` has no
 * uid: it is written before a create, so a crash between the create and the write cannot make the
 * agent's own object look foreign forever (marker.ts). `loadOwned` reads the `owned.json` an
 * earlier version kept in the state folder, which the keeper imports once.
 */
import { rename } from 'node:fs/promises'
import { z } from 'zod'
import { ObjectRefSchema } from '../edge/protocol.ts'
import { readJsonFile } from './state-files.ts'

export const MAX_GENERATIONS = 8

export const OwnedRecordSchema = ObjectRefSchema.extend({
  uid: z.string().optional(),
  pendingSince: z.string().optional(),
  /** Desired body hash last applied. */
  hash: z.string(),
  /** Hash of the live object's view of the applied fields, right after the last apply. */
  view: z.string(),
  /** (edge metadata.generation → center generation) of the last applies, newest last. */
  generations: z.array(z.object({ edge: z.number().int(), center: z.number().int() })),
  /** For CRDs: the group they define (prune never deletes a built-in group's definition). */
  crdGroup: z.string().optional(),
  /** Created in create-only mode (create-only.ts): never updated, forgotten rather than deleted. */
  createOnly: z.boolean().optional(),
})
export type OwnedRecord = z.infer<typeof OwnedRecordSchema>
export type Owned = Map<string, OwnedRecord>

const OwnedFileSchema = z.object({ objects: z.record(z.string(), OwnedRecordSchema) })

export type OwnedLoad = { owned: Owned; problem?: string }

/**
 * The record of an earlier version's state folder. A corrupt file is moved aside (`owned.json.corrupt-<ms>`, for a human to
 * look at) and yields an empty record — forgetting ownership only ever makes objects foreign,
 * never deleted — and a problem for the caller to log loudly.
 */
export async function loadOwned(path: string, nowMs = Date.now()): Promise<OwnedLoad> {
  const r = await readJsonFile(path, OwnedFileSchema)
  if (r.kind === 'ok') return { owned: new Map(Object.entries(r.value.objects)) }
  if (r.kind === 'missing') return { owned: new Map() }
  const aside = `${path}.corrupt-${nowMs}`
  await rename(path, aside)
  return {
    owned: new Map(),
    problem: `unreadable ownership record (moved to ${aside}): ${r.error}`,
  }
}

/** Appends an (edge → center) generation pair, keeping the newest MAX_GENERATIONS. */
export function withGeneration(
  list: OwnedRecord['generations'],
  edge: number,
  center: number
): OwnedRecord['generations'] {
  const last = list[list.length - 1]
  if (last && last.edge === edge && last.center === center) return list
  return [...list.filter((g) => g.edge !== edge), { edge, center }].slice(-MAX_GENERATIONS)
}

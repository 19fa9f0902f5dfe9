/**
 * The agent's copy of its mailbox's desired state (`desired.json` in the state folder): the
 * manifest version, the full entry index and the body of every entry, keyed by content hash. A
 * DesiredState answer from the center is merged into it: the entries are replaced by the answer's
 * (absent keys are removed objects), each body comes from the answer or, when the answer left it
 * out as unchanged, from the previous copy; bodies nobody references are dropped. Tombstones
 * (`removing`) need no body: they are never applied. An answer that
 * leaves some body unaccounted for cannot be merged (the agent then asks for a full snapshot). The
 * copy on disk is always complete, so the agent can name its version in If-None-Match and reapply
 * it after a restart.
 */
import { z } from 'zod'
import { type DesiredEntry, DesiredEntrySchema, type DesiredState } from '../edge/protocol.ts'
import { readJsonFile, writeJsonAtomic } from './state-files.ts'

export const DesiredCopySchema = z.object({
  mailbox: z.string(),
  version: z.number().int().min(0),
  entries: z.array(DesiredEntrySchema),
  bodies: z.record(z.string(), z.record(z.string(), z.unknown())),
})
export type DesiredCopy = z.infer<typeof DesiredCopySchema>

export type MergeResult =
  | { kind: 'ok'; copy: DesiredCopy }
  | { kind: 'incomplete'; missing: string[] }

export function mergeDesired(previous: DesiredCopy | undefined, answer: DesiredState): MergeResult {
  const bodies: DesiredCopy['bodies'] = {}
  const missing: string[] = []
  for (const e of answer.entries) {
    const body = answer.bodies[e.hash] ?? previous?.bodies[e.hash]
    if (body) bodies[e.hash] = body
    else if (!e.removing) missing.push(e.hash)
  }
  if (missing.length > 0) return { kind: 'incomplete', missing }
  return {
    kind: 'ok',
    copy: { mailbox: answer.mailbox, version: answer.version, entries: answer.entries, bodies },
  }
}

export const bodyOf = (copy: DesiredCopy, e: DesiredEntry): Record<string, unknown> | undefined =>
  copy.bodies[e.hash]

export type DesiredLoad = { copy?: DesiredCopy; problem?: string }

/** The copy on disk; a missing one is no copy, a corrupt or foreign one is reported and ignored. */
export async function loadDesired(path: string, mailbox: string): Promise<DesiredLoad> {
  const r = await readJsonFile(path, DesiredCopySchema)
  if (r.kind === 'missing') return {}
  if (r.kind === 'corrupt') return { problem: `unreadable desired state: ${r.error}` }
  if (r.value.mailbox !== mailbox)
    return { problem: `desired state on disk is for mailbox ${r.value.mailbox}` }
  return { copy: r.value }
}

export const saveDesired = (path: string, copy: DesiredCopy) => writeJsonAtomic(path, copy)

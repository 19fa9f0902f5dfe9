/**
 * Reads by name that a batch's concurrent runs ask for one at a time, gathered into one read per
 * group (a space): every name asked for before the next turn of the event loop goes out together
 * (the hub's `getMany`, BatchGetItem of 100 names a call), each name once per batch, its answer
 * shared by every later asker. So a wave of a hundred translations that each need their own
 * Location costs about one request, where listing the inventory's Locations costs one read of
 * every Location there is, in every batch. Like the batch memo (batch-memo.ts), a read is the
 * batch's (measured apart from the run that happened to ask first) and a failed read stays
 * failed for the batch: every run that needed it fails and is retried.
 */
import { measuredApart } from '../budget/frames.ts'

/** Reads the named members of one group; names not found are left out of the answer. */
export type ReadNamed<T> = (group: string, names: string[]) => Promise<Map<string, T>>

/** The member `name` of `group`; undefined when it does not exist. */
export type CoalescedGet<T> = (group: string, name: string) => Promise<T | undefined>

type Asker<T> = { resolve(v: T | undefined): void; reject(e: unknown): void }

export function coalescedGets<T>(
  read: ReadNamed<T>,
  defer: (fn: () => void) => void = (fn) => setTimeout(fn, 0)
): CoalescedGet<T> {
  const answers = new Map<string, Promise<T | undefined>>()
  let waiting = new Map<string, Map<string, Asker<T>>>()
  let scheduled = false
  const flush = () => {
    scheduled = false
    const groups = waiting
    waiting = new Map()
    for (const [group, names] of groups)
      measuredApart(() => read(group, [...names.keys()])).then(
        ({ value }) => {
          for (const [name, asker] of names) asker.resolve(value.get(name))
        },
        (e) => {
          for (const asker of names.values()) asker.reject(e)
        }
      )
  }
  return (group, name) => {
    const key = `${group}\u0000${name}`
    const known = answers.get(key)
    if (known) return known
    const answer = new Promise<T | undefined>((resolve, reject) => {
      const names = waiting.get(group) ?? new Map<string, Asker<T>>()
      names.set(name, { resolve, reject })
      waiting.set(group, names)
    })
    answers.set(key, answer)
    if (!scheduled) {
      scheduled = true
      defer(flush)
    }
    return answer
  }
}

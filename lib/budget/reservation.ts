/**
 * Reserving subrequests for a write before it starts, so that a write and its change-log entry
 * are one outcome within a budget: `reserveFor(cost, fn)` reserves `cost` subrequests of the
 * current invocation (invocation.ts `reserve`) and runs `fn` drawing on them; when they do not fit
 * beside what is used and reserved already, it throws BudgetRefused (429, `retryAfterSeconds`)
 * and `fn` never runs, so nothing is written. While `fn` runs, subrequests sent outside any
 * reservation must leave the reserved ones free (strict mode refuses them), so nothing else the
 * invocation does can take the room the write's log entry was promised. What `fn` leaves unused
 * is given back when it ends, however it ends. `reserveMore(cost)` adds to the innermost
 * reservation once the write knows more (a big body's chunks), still before it writes.
 * A reservation made inside another that still holds enough is carved from it (a write that
 * reserved for itself and the writes it leads to, lib/hub/write.ts), else it is new room; nested
 * reservations draw innermost first, then the outer ones. Outside an invocation there is no
 * budget and both only run `fn`.
 */
import { currentFrame, currentReservations, withReservations } from './frames.ts'

export async function reserveFor<T>(cost: number, fn: () => Promise<T>): Promise<T> {
  const inv = currentFrame()?.invocation
  if (!inv) return fn()
  const outer = currentReservations()[0]
  const need = Math.max(0, Math.ceil(cost))
  if (outer && outer.left >= need) {
    // Carved from the reservation it runs in (that room is already held for it): what it leaves
    // goes back there, not to the invocation.
    outer.left -= need
    const carved = { left: need }
    try {
      return await withReservations([carved, ...currentReservations()], fn)
    } finally {
      outer.left += carved.left
      carved.left = 0
    }
  }
  const r = inv.reserve(cost)
  try {
    return await withReservations([r, ...currentReservations()], fn)
  } finally {
    inv.settle(r)
  }
}

/** Adds `cost` to the innermost reservation; refused (BudgetRefused) as a new one would be. */
export function reserveMore(cost: number): void {
  const inv = currentFrame()?.invocation
  const inner = currentReservations()[0]
  if (!inv || !inner || cost <= 0) return
  const more = inv.reserve(cost)
  inner.left += more.left
}

/**
 * The per-invocation context, carried by AsyncLocalStorage (in Node and in workerd with
 * `nodejs_compat`) through every await and callback a request starts, its background work and
 * streamed body included. One isolate serves concurrent requests over one shared store, so
 * nothing here is a process-wide counter.
 *
 * The API, also for other modules (metrics, the steps, the sweeps):
 * - `runInvocation(kind, config, fn)` runs `fn` as one invocation (nested calls join the outer).
 * - `currentInvocation()`: the running Invocation (counts: `subrequests`, `ops`, `inFlight`,
 *   `remaining()`, `stats()`), or undefined outside any.
 * - `hasRoom(cost)`: whether `cost` more subrequests, besides those reserved by writes in progress
 *   (reservation.ts), stay under the current ceiling (the share of
 *   the budget the work in progress may use; true outside an invocation).
 * - `withCeiling(limit, fn)`: runs `fn` with a lower ceiling (an absolute subrequest count).
 * - `withShare(fraction, fn)`: the same at a share of the budget (limits.ts SHARES).
 * - `measured(fn)`: runs `fn` and also tells how many subrequests it made itself.
 * - Work done once for several units (a group commit): `measuringScopes()` captures, in each unit,
 *   the scopes measuring it; `measuredApart(fn)` runs the shared work measured on its own, outside
 *   the scopes of whichever unit started it; `chargeScopes(scopes, n)` then charges each unit its
 *   share, so a pacer sees what a unit costs on average instead of one unit paying for the group.
 * - `withReservations(list, fn)` / `currentReservations()`: the reservations (reservation.ts) a
 *   frame's subrequests draw on; a batcher sends a group's request drawing on its callers'.
 */
import { AsyncLocalStorage } from 'node:async_hooks'
import { cpuEnter, cpuExit } from './cpu-accounting.ts'
import { type BudgetConfig, Invocation, type Reservation } from './invocation.ts'
import { SHARES } from './limits.ts'

export type Scope = { used: number }

export type Frame = {
  invocation: Invocation
  /** Subrequests at which work in this frame stops starting more. */
  ceiling: number
  /** Scopes measuring their own subrequests (measured()), innermost last. */
  scopes: readonly Scope[]
  /** Reservations the subrequests of this frame draw on first (reservation.ts), innermost first. */
  reservations?: readonly Reservation[]
}

const frames = new AsyncLocalStorage<Frame>()

export function currentFrame(): Frame | undefined {
  return frames.getStore()
}

export function currentInvocation(): Invocation | undefined {
  return frames.getStore()?.invocation
}

/** Runs `fn` as one invocation of `kind`; inside another invocation it simply joins it. */
export async function runInvocation<T>(
  kind: string,
  config: BudgetConfig,
  fn: () => Promise<T>
): Promise<T> {
  if (frames.getStore()) return fn()
  const invocation = new Invocation(kind, config)
  const frame: Frame = { invocation, ceiling: invocation.shareAt(SHARES.default), scopes: [] }
  // The synchronous start of `fn` is charged here; its continuations by the async hooks.
  cpuEnter(invocation)
  let running: Promise<T>
  try {
    running = frames.run(frame, fn)
  } finally {
    cpuExit()
  }
  try {
    return await running
  } finally {
    invocation.release()
  }
}

/** Counts one subrequest in the current invocation and in every scope measuring it. */
export function chargeSubrequest(frame: Frame, op: string): void {
  frame.invocation.charge(op, frame.reservations)
  for (const s of frame.scopes) s.used++
}

export function hasRoom(cost = 1): boolean {
  const frame = frames.getStore()
  if (!frame) return true
  return frame.invocation.subrequests + frame.invocation.reserved + cost <= frame.ceiling
}

export function withCeiling<T>(limit: number, fn: () => Promise<T>): Promise<T> {
  const frame = frames.getStore()
  if (!frame) return fn()
  return frames.run({ ...frame, ceiling: Math.min(limit, frame.invocation.budget) }, fn)
}

export function withShare<T>(fraction: number, fn: () => Promise<T>): Promise<T> {
  const frame = frames.getStore()
  return frame ? withCeiling(frame.invocation.shareAt(fraction), fn) : fn()
}

/** Runs `fn` with its subrequests drawing on `reservations` first (reservation.ts). */
export function withReservations<T>(
  reservations: readonly Reservation[],
  fn: () => Promise<T>
): Promise<T> {
  const frame = frames.getStore()
  return frame ? frames.run({ ...frame, reservations }, fn) : fn()
}

/** The reservations the current work draws on (none outside an invocation or a reservation). */
export function currentReservations(): readonly Reservation[] {
  return frames.getStore()?.reservations ?? []
}

/** Runs `fn` with one more measuring scope, after the scopes `keep` takes from the frame's. */
async function measure<T>(
  fn: () => Promise<T>,
  keep: (scopes: readonly Scope[]) => readonly Scope[]
): Promise<{ value: T; used: number }> {
  const frame = frames.getStore()
  if (!frame) return { value: await fn(), used: 0 }
  const scope: Scope = { used: 0 }
  const value = await frames.run({ ...frame, scopes: [...keep(frame.scopes), scope] }, fn)
  return { value, used: scope.used }
}

export function measured<T>(fn: () => Promise<T>): Promise<{ value: T; used: number }> {
  return measure(fn, (scopes) => scopes)
}

/** The scopes measuring the current work (none outside an invocation). */
export function measuringScopes(): readonly Scope[] {
  return frames.getStore()?.scopes ?? []
}

/** `measured`, but outside the scopes measuring the work that calls it. */
export function measuredApart<T>(fn: () => Promise<T>): Promise<{ value: T; used: number }> {
  return measure(fn, () => [])
}

/** Charges `n` subrequests, already counted by the invocation, to the scopes of one unit. */
export function chargeScopes(scopes: readonly Scope[], n: number): void {
  for (const s of scopes) s.used += n
}

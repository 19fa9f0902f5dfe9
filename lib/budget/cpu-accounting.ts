/**
 * CPU time per invocation, in Node only and only when enabled (the bench enables it): async hooks
 * time every callback and promise continuation and charge it to the invocation whose context it
 * runs in, so concurrent invocations, and work of the same process outside them (the bench's
 * in-process dynalite), are told apart. It slows promise-heavy code, so it is off by default; the
 * Workers runtime cannot time CPU from inside (its clocks stand still while code runs) and reports
 * it in its own logs instead. Time spent in the garbage collector lands on whoever is running.
 * Only invocations started while it is on are timed (an older one keeps no CPU figure).
 */
import * as asyncHooks from 'node:async_hooks'

/** What CPU is charged to: `cpuMs` starts at 0 when accounting is on, else undefined (never charged). */
export type CpuTarget = { cpuMs: number | undefined }

type Hook = { enable(): unknown; disable(): unknown }

let hook: Hook | undefined
const stack: (CpuTarget | undefined)[] = []
let mark = 0
const MAX_DEPTH = 1000

function charge(now: number): void {
  const top = stack[stack.length - 1]
  if (top?.cpuMs !== undefined) top.cpuMs += now - mark
}

function enter(target: CpuTarget | undefined): void {
  const now = performance.now()
  charge(now)
  if (stack.length < MAX_DEPTH) stack.push(target)
  mark = now
}

function exit(): void {
  const now = performance.now()
  charge(now)
  stack.pop()
  mark = now
}

/** Whether accounting is on: an invocation started now gets a CPU figure. */
export function cpuAccountingOn(): boolean {
  return hook !== undefined
}

/** Starts timing; `lookup` names the invocation whose context is current (frames.ts). */
export function enableCpuAccounting(lookup: () => CpuTarget | undefined): void {
  if (hook) return
  const create = (asyncHooks as { createHook?: (callbacks: object) => Hook }).createHook
  if (!create) throw new Error('CPU accounting needs node:async_hooks createHook (Node only)')
  hook = create({ before: () => enter(lookup()), after: exit })
  hook.enable()
}

export function disableCpuAccounting(): void {
  hook?.disable()
  hook = undefined
  stack.length = 0
}

/** Charges what runs synchronously from now to `cpuExit()` to `target` (when enabled). */
export function cpuEnter(target: CpuTarget): void {
  if (hook) enter(target)
}

export function cpuExit(): void {
  if (hook) exit()
}

/**
 * Migrating a table to the current format (format.ts) in bounded, resumable steps: the cron runs
 * one step per tick within its share of the invocation's budget, `npm start` runs steps until the
 * table is current before it serves. Each migration pages through the table; after every page the
 * format record moves on to the next page's cursor (or, after the last, to the next format),
 * conditionally on nobody having moved it meanwhile — a runner that loses that race reads the
 * record again and goes on from there. Pages are idempotent, so two runners at once (or a page
 * repeated after a crash) only repeat work. A table at a newer format than this release knows is
 * left alone.
 */
import { internalError } from '../errors.ts'
import type { StoreContext } from './context.ts'
import { advanceFormat, FORMAT_CURRENT, type FormatRecord, readFormat } from './format.ts'
import { type MigrationPage, servedMarksPage } from './migrate-served-marks.ts'
import type { SweepCursor } from './sweep.ts'

type Migration = {
  from: number
  name: string
  page(
    ctx: StoreContext,
    cursor: SweepCursor | undefined,
    room: (cost: number) => boolean
  ): Promise<MigrationPage>
}

const MIGRATIONS: readonly Migration[] = [
  { from: 1, name: 'served-marks', page: servedMarksPage },
  // Format 3 adds shared manifests beside what format 2 wrote and changes none of it.
  { from: 2, name: 'shared-manifests', page: async () => ({ changed: 0 }) },
]

/** Requests a page is assumed to cost before it starts (the Scan and the record's write). */
export const MIGRATION_PAGE_COST = 3

export type MigrationStep = {
  /** The format the step found. */
  from: number
  /** The format the table is at after it. */
  format: number
  /** The migrations the step worked on, by name. */
  migrations: string[]
  pages: number
  /** Items changed. */
  changed: number
  /** True when the table is at (or past) the current format. */
  done: boolean
}

/** One step: pages while `room(MIGRATION_PAGE_COST)` allows and fewer than `maxPages` ran. */
export async function migrateStep(
  ctx: StoreContext,
  room: (cost: number) => boolean,
  maxPages = Number.POSITIVE_INFINITY
): Promise<MigrationStep> {
  let at = await readFormat(ctx)
  const step: MigrationStep = {
    from: at.format,
    format: at.format,
    migrations: [],
    pages: 0,
    changed: 0,
    done: false,
  }
  while (at.format < FORMAT_CURRENT && step.pages < maxPages && room(MIGRATION_PAGE_COST)) {
    const migration = MIGRATIONS.find((m) => m.from === at.format)
    if (!migration) throw internalError(`no migration from stored format ${at.format}`)
    if (!step.migrations.includes(migration.name)) step.migrations.push(migration.name)
    const page = await migration.page(ctx, at.cursor, room)
    step.pages++
    step.changed += page.changed
    const next: FormatRecord = page.next
      ? { format: at.format, cursor: page.next }
      : { format: at.format + 1 }
    at = (await advanceFormat(ctx, at, next)) ? next : await readFormat(ctx)
  }
  step.format = at.format
  step.done = at.format >= FORMAT_CURRENT
  return step
}

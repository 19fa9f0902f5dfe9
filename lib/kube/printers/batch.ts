/**
 * Printers of `batch`: Job with STATUS (Complete, Failed, Terminating, Suspended, FailureTarget or
 * Running, from its conditions), COMPLETIONS ("1/1", or "0/1 of 3" for a parallel job without a
 * completion count), DURATION (start to completion, or to now while running) and AGE; CronJob
 * with SCHEDULE, TIMEZONE, SUSPEND, ACTIVE, LAST SCHEDULE and AGE. Both have the wide CONTAINERS,
 * IMAGES and SELECTOR columns.
 */
import {
  AGE_COLUMN,
  ageOf,
  CONTAINERS_COLUMN,
  cellPrinter,
  column,
  IMAGES_COLUMN,
  NAME_COLUMN,
  nameOf,
  SELECTOR_DESCRIPTION,
} from './columns.ts'
import { humanDuration, parseTime, since } from './duration.ts'
import {
  containerCells,
  dig,
  formatLabelSelector,
  int,
  isRecord,
  items,
  optInt,
  text,
} from './fields.ts'
import type { PrintContext, Printer } from './types.ts'

const SELECTOR_COLUMN = column('Selector', 'string', SELECTOR_DESCRIPTION, 1)

/** Whether the first condition of `type` is True (kube's hasJobCondition). */
function hasCondition(job: unknown, type: string): boolean {
  const c = items(job, 'status.conditions').find((c) => isRecord(c) && c.type === type)
  return isRecord(c) && c.status === 'True'
}

function jobStatus(job: unknown): string {
  if (hasCondition(job, 'Complete')) return 'Complete'
  if (hasCondition(job, 'Failed')) return 'Failed'
  if (text(job, 'metadata.deletionTimestamp')) return 'Terminating'
  if (hasCondition(job, 'Suspended')) return 'Suspended'
  if (hasCondition(job, 'FailureTarget')) return 'FailureTarget'
  return 'Running'
}

function completions(job: unknown): string {
  const succeeded = int(job, 'status.succeeded')
  const wanted = optInt(job, 'spec.completions')
  if (wanted !== undefined) return `${succeeded}/${wanted}`
  const parallelism = int(job, 'spec.parallelism')
  return parallelism > 1 ? `${succeeded}/1 of ${parallelism}` : `${succeeded}/1`
}

function jobDuration(job: unknown, ctx: PrintContext): string {
  const start = parseTime(dig(job, 'status.startTime'))
  if (start === undefined) return ''
  const end = parseTime(dig(job, 'status.completionTime')) ?? ctx.now.getTime()
  return humanDuration(end - start)
}

export const JOB_PRINTER: Printer = cellPrinter(
  [
    NAME_COLUMN,
    column('Status', 'string', 'Status of the job.'),
    column('Completions', 'string', 'The number of pods which reached phase Succeeded.'),
    column('Duration', 'string', 'Time required to complete the job.'),
    AGE_COLUMN,
    CONTAINERS_COLUMN,
    IMAGES_COLUMN,
    SELECTOR_COLUMN,
  ],
  (obj, ctx) => [
    nameOf(obj),
    jobStatus(obj),
    completions(obj),
    jobDuration(obj, ctx),
    ageOf(obj, ctx),
    ...containerCells(items(obj, 'spec.template.spec.containers')),
    formatLabelSelector(dig(obj, 'spec.selector')),
  ]
)

function suspend(cronJob: unknown): string {
  const v = dig(cronJob, 'spec.suspend')
  if (v === undefined) return 'False'
  return v === true ? 'True' : 'False'
}

export const CRON_JOB_PRINTER: Printer = cellPrinter(
  [
    NAME_COLUMN,
    column('Schedule', 'string', 'The schedule in Cron format.'),
    column('Timezone', 'string', 'The time zone name for the given schedule.'),
    column('Suspend', 'boolean', 'Whether subsequent executions are suspended.'),
    column('Active', 'integer', 'The number of currently running jobs.'),
    column('Last Schedule', 'string', 'When the job was last successfully scheduled.'),
    AGE_COLUMN,
    CONTAINERS_COLUMN,
    IMAGES_COLUMN,
    SELECTOR_COLUMN,
  ],
  (obj, ctx) => {
    const last = text(obj, 'status.lastScheduleTime')
    return [
      nameOf(obj),
      text(obj, 'spec.schedule') ?? '',
      text(obj, 'spec.timeZone') ?? '<none>',
      suspend(obj),
      items(obj, 'status.active').length,
      last ? since(last, ctx.now) : '<none>',
      ageOf(obj, ctx),
      ...containerCells(items(obj, 'spec.jobTemplate.spec.template.spec.containers')),
      formatLabelSelector(dig(obj, 'spec.jobTemplate.spec.selector')),
    ]
  }
)

/** The batch printers by `group/kind`. */
export const batchPrinters: Record<string, Printer> = {
  'batch/Job': JOB_PRINTER,
  'batch/CronJob': CRON_JOB_PRINTER,
}

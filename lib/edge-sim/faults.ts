/**
 * The failures a simulated edge can be told to have, so rollout gates and status return meet the
 * failures a kubelet reports rather than only healthy pods. A fault names what goes wrong and,
 * optionally, the images it hits (a glob over the image as the pod spec writes it, `*` any run
 * of characters; absent: every image):
 *
 * - `image-pull`: the image cannot be pulled (ErrImagePull, then ImagePullBackOff), as for a
 *   registry under `.invalid` (sim-image-pull.ts);
 * - `crash-loop`: the container starts and exits with code 1 every time; the kubelet restarts it
 *   with its back-off (CrashLoopBackOff, sim-crash-loop.ts);
 * - `job-fail`: a Job's pod ends Failed (exit code 1) instead of Succeeded, and the Job controller
 *   retries until `backoffLimit`, then fails the Job (BackoffLimitExceeded, sim-jobs.ts).
 *
 * The text form, for a command line or an environment variable: a comma-separated list of
 * `<fault>[@<image-glob>]` (`crash-loop@*:v2,job-fail`). None by default. Pure.
 */

export const FAULT_KINDS = ['image-pull', 'crash-loop', 'job-fail'] as const
export type FaultKind = (typeof FAULT_KINDS)[number]
export type Fault = { kind: FaultKind; image?: string }

const isKind = (s: string): s is FaultKind => (FAULT_KINDS as readonly string[]).includes(s)

/** The faults of `text`; an error message naming every bad entry. */
export function parseFaults(text: string | undefined): Fault[] | { error: string } {
  const trimmed = (text ?? '').trim()
  if (trimmed === '') return []
  const problems: string[] = []
  const faults: Fault[] = []
  for (const raw of trimmed.split(',')) {
    const entry = raw.trim()
    const at = entry.indexOf('@')
    const kind = at < 0 ? entry : entry.slice(0, at)
    const image = at < 0 ? undefined : entry.slice(at + 1)
    if (!isKind(kind)) problems.push(`"${entry}": the fault is one of ${FAULT_KINDS.join(', ')}`)
    else if (image !== undefined && (image === '' || /\s/.test(image)))
      problems.push(`"${entry}": the image pattern after @ is empty or has spaces`)
    else faults.push(image === undefined ? { kind } : { kind, image })
  }
  return problems.length ? { error: problems.join('; ') } : faults
}

function globMatches(glob: string, text: string): boolean {
  const pattern = glob.split('*').map((part) => part.replace(/[.+?^${}()|[\]\\/]/g, '\\$&'))
  return new RegExp(`^${pattern.join('.*')}$`).test(text)
}

/** Whether one of `faults` of `kind` hits `image`. */
export function faultHits(faults: readonly Fault[], kind: FaultKind, image: string): boolean {
  return faults.some(
    (f) => f.kind === kind && (f.image === undefined || globMatches(f.image, image))
  )
}

/** The text form of `faults` (what parseFaults reads back). */
export const faultsText = (faults: readonly Fault[]) =>
  faults.map((f) => (f.image === undefined ? f.kind : `${f.kind}@${f.image}`)).join(',')

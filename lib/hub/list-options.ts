/**
 * The list and watch options kube validates before reading anything (k8s.io/apimachinery
 * pkg/apis/meta/internalversion: defaults.go SetListOptionsDefaults and validation.go
 * ValidateListOptions, with the WatchList feature on, as kube-apiserver 1.34+ has it by
 * default). A watch from "" or "0" that names neither sendInitialEvents nor resourceVersionMatch
 * is defaulted to sendInitialEvents=true, resourceVersionMatch=NotOlderThan. Then: a list may use
 * resourceVersionMatch (Exact or NotOlderThan) only with a resourceVersion and without continue,
 * Exact not with "0", and never sendInitialEvents; a watch may use resourceVersionMatch only as
 * NotOlderThan, only with sendInitialEvents and without continue, and sendInitialEvents needs
 * NotOlderThan. A violation is kube's 422 Invalid on `ListOptions.meta.k8s.io ""`.
 */
import type { StatusCause } from '../errors.ts'
import { forbiddenCause, notSupportedCause } from '../kube/validate-util.ts'
import { invalidOptions } from './invalid-options.ts'

export type ListOptions = {
  watch: boolean
  resourceVersion?: string
  resourceVersionMatch?: string
  sendInitialEvents?: boolean
  continue?: string
}

const EXACT = 'Exact'
const NOT_OLDER = 'NotOlderThan'
const MATCH = 'resourceVersionMatch'

/** kube's defaulting of a watch's options (WatchList on). */
export function withListDefaults<T extends ListOptions>(o: T): T {
  if (!o.watch || o.sendInitialEvents !== undefined || o.resourceVersionMatch) return o
  if (o.resourceVersion && o.resourceVersion !== '0') return o
  return { ...o, sendInitialEvents: true, resourceVersionMatch: NOT_OLDER }
}

function listCauses(o: ListOptions): StatusCause[] {
  const causes: StatusCause[] = []
  const match = o.resourceVersionMatch
  if (match) {
    if (!o.resourceVersion)
      causes.push(forbiddenCause(MATCH, `${MATCH} is forbidden unless resourceVersion is provided`))
    if (o.continue)
      causes.push(forbiddenCause(MATCH, `${MATCH} is forbidden when continue is provided`))
    if (match !== EXACT && match !== NOT_OLDER)
      causes.push(notSupportedCause(MATCH, match, [EXACT, NOT_OLDER, '']))
    if (match === EXACT && o.resourceVersion === '0')
      causes.push(forbiddenCause(MATCH, `${MATCH} "exact" is forbidden for resourceVersion "0"`))
  }
  if (o.sendInitialEvents !== undefined)
    causes.push(forbiddenCause('sendInitialEvents', 'sendInitialEvents is forbidden for list'))
  return causes
}

function watchCauses(o: ListOptions): StatusCause[] {
  const causes: StatusCause[] = []
  const match = o.resourceVersionMatch
  if (o.sendInitialEvents !== undefined && match !== NOT_OLDER)
    causes.push(
      forbiddenCause(MATCH, `sendInitialEvents requires setting ${MATCH} to ${NOT_OLDER}`)
    )
  if (match) {
    if (o.sendInitialEvents === undefined)
      causes.push(
        forbiddenCause(
          MATCH,
          `${MATCH} is forbidden for watch unless sendInitialEvents is provided`
        )
      )
    if (match !== NOT_OLDER) causes.push(notSupportedCause(MATCH, match, [NOT_OLDER]))
    if (o.continue)
      causes.push(forbiddenCause(MATCH, `${MATCH} is forbidden when continue is provided`))
  }
  return causes
}

/** Defaults and validates; returns the options to serve, or throws 422 Invalid. */
export function checkListOptions<T extends ListOptions>(options: T): T {
  const o = withListDefaults(options)
  const causes = o.watch ? watchCauses(o) : listCauses(o)
  if (causes.length > 0) throw invalidOptions('ListOptions', causes)
  return o
}

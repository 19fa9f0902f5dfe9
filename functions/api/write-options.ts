/**
 * The options of a create, update or patch, checked as apimachinery's ValidateCreateOptions,
 * ValidateUpdateOptions and ValidatePatchOptions check them (pkg/apis/meta/v1/validation), each
 * only for its own verb (a read ignores these parameters, as kube does): a fieldManager longer
 * than 128 bytes or with a character that is not printable (unicode.IsPrint), a dryRun value
 * other than "All" (every value of the repeated parameter counts), an unknown fieldValidation,
 * and on a patch other than apply a `force` parameter, are 422 Invalid
 * (`CreateOptions.meta.k8s.io "" is invalid: ...`), before the body is decoded.
 */
import type { StatusCause } from '../../lib/errors.ts'
import { dryRunCauses, invalidOptions } from '../../lib/hub/invalid-options.ts'
import type { PatchType } from '../../lib/hub/patch.ts'
import { goQuote, isGoPrint, utf8Length } from '../../lib/kube/go-quote.ts'
import type { ApiQuery } from './query.ts'

export type WriteVerb = 'Create' | 'Update' | 'Patch'

/** kube's FieldManagerMaxLength, in bytes. */
const FIELD_MANAGER_MAX = 128

/** fieldValidation values kube knows ('' is its default); the hub also takes them in lower case. */
const FIELD_VALIDATIONS = ['', 'Ignore', 'Strict', 'Warn']

/** apimachinery's ValidateFieldManager. */
function fieldManagerCauses(manager: string): StatusCause[] {
  // What every client sends: printable ASCII within the limit.
  if (/^[\x20-\x7e]{0,128}$/.test(manager)) return []
  const causes: StatusCause[] = []
  if (utf8Length(manager) > FIELD_MANAGER_MAX)
    causes.push({
      reason: 'FieldValueTooLong',
      message: `Too long: must have at most ${FIELD_MANAGER_MAX} bytes`,
      field: 'fieldManager',
    })
  let at = 0
  for (const ch of manager) {
    if (!isGoPrint(ch)) {
      const code = (ch.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')
      causes.push({
        reason: 'FieldValueInvalid',
        message: `Invalid value: ${goQuote(manager)}: invalid character U+${code} (at position ${at})`,
        field: 'fieldManager',
      })
    }
    at += utf8Length(ch)
  }
  return causes
}

function fieldValidationCauses(value: string | undefined): StatusCause[] {
  if (value === undefined || FIELD_VALIDATIONS.some((v) => v.toLowerCase() === value.toLowerCase()))
    return []
  return [
    {
      reason: 'FieldValueNotSupported',
      message: `Unsupported value: ${goQuote(value)}: supported values: ${FIELD_VALIDATIONS.map(goQuote).join(', ')}`,
      field: 'fieldValidation',
    },
  ]
}

/** 422 Invalid when the query's options of `verb` are not valid; `patchType` for patches. */
export function assertWriteOptions(verb: WriteVerb, q: ApiQuery, patchType?: PatchType): void {
  const causes: StatusCause[] = []
  if (verb === 'Patch' && patchType !== 'application/apply-patch+yaml' && q.forceGiven)
    causes.push({
      reason: 'FieldValueForbidden',
      message: 'Forbidden: may not be specified for non-apply patch',
      field: 'force',
    })
  causes.push(
    ...fieldManagerCauses(q.fieldManager ?? ''),
    ...dryRunCauses(q.dryRunValues),
    ...fieldValidationCauses(q.fieldValidationValue)
  )
  if (causes.length > 0) throw invalidOptions(`${verb}Options`, causes)
}

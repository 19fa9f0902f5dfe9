/**
 * The one 422 the hub answers for invalid request options (ListOptions, DeleteOptions,
 * CreateOptions, UpdateOptions, PatchOptions), as apimachinery's errors.NewInvalid renders it for
 * a meta.k8s.io kind with no name: `<Kind>.meta.k8s.io "" is invalid: <field>: <message>`, the
 * errors in brackets when there are several (utilerrors' aggregate), each one a cause. Also the
 * dryRun check every options kind shares (ValidateDryRun: only "All").
 */
import { ApiError, type StatusCause } from '../errors.ts'
import { goQuote } from '../kube/go-quote.ts'

/** kube's NewInvalid for the meta.k8s.io options kind `kind` (e.g. `DeleteOptions`). */
export function invalidOptions(kind: string, causes: StatusCause[]): ApiError {
  const errors = causes.map((c) => `${c.field}: ${c.message}`)
  const joined = errors.length === 1 ? errors[0] : `[${errors.join(', ')}]`
  return new ApiError(422, 'Invalid', `${kind}.meta.k8s.io "" is invalid: ${joined}`, {
    details: { group: 'meta.k8s.io', kind, causes },
  })
}

/** apimachinery's ValidateDryRun: every value must be "All" (Go's %#v of the []string). */
export function dryRunCauses(values: readonly string[]): StatusCause[] {
  if (values.every((v) => v === 'All')) return []
  return [
    {
      reason: 'FieldValueNotSupported',
      message: `Unsupported value: []string{${values.map(goQuote).join(', ')}}: supported values: "All"`,
      field: 'dryRun',
    },
  ]
}

/**
 * Create (POST, and server-side apply of an absent object): drop the fields the kind resets,
 * validate the body, fill in the server-owned metadata, run the kind's create hook (defaults,
 * status), record the field manager, and store it — unless dryRun, which answers with what would
 * be stored as the kind's dry-run hook shapes it (dry-run.ts: an EdgePlacement's preview). A
 * namespaced object needs its Namespace to exist and not be terminating, and nothing is created in
 * a workspace being deleted (403, as kube refuses a terminating namespace), nor a control kind in a
 * mailbox space or below one (403, mailbox-guard.ts). generateName collisions are retried.
 */
import { ApiError, badRequest, isApiError, notFound } from '../errors.ts'
import { generateObjectName, isDnsLabel } from '../kube/names.ts'
import { timestamp } from '../kube/time.ts'
import type { KubeObject } from '../kube/types.ts'
import { recordUpdate } from '../patch/server-side-apply.ts'
import { applyDefaults } from './defaulting.ts'
import type { HubDeps } from './deps.ts'
import { dryRunAnswer, resetFields } from './dry-run.ts'
import { fieldSchemaFor } from './field-schema.ts'
import { refuseControlInMailbox } from './mailbox-guard.ts'
import { initMetadata } from './metadata.ts'
import { nameMismatch } from './mismatch.ts'
import type { WriteOptions, WriteResult } from './options.ts'
import { objectKey, servedAt, storedAt, type Target } from './target.ts'
import { asKubeObject, checkObject, placeInNamespace } from './validation.ts'
import { storeCreate } from './write.ts'

/**
 * Forbidden, as kube's namespace lifecycle admission answers: the object's resource and name in
 * the details, and a cause naming what terminates (`NamespaceTerminating`, which clients test
 * for, or `WorkspaceTerminating`).
 */
function terminating(
  t: Target,
  name: string,
  where: { kind: 'namespace' | 'workspace'; name: string }
) {
  const field = where.kind === 'namespace' ? 'metadata.namespace' : 'metadata.clusterName'
  const cause = where.kind === 'namespace' ? 'NamespaceTerminating' : 'WorkspaceTerminating'
  return new ApiError(
    403,
    'Forbidden',
    `${t.info.resource} "${name}" is forbidden: unable to create new content in ${where.kind} ${where.name} because it is being terminated`,
    {
      details: {
        name,
        ...(t.info.group ? { group: t.info.group } : {}),
        kind: t.info.resource,
        causes: [
          { reason: cause, message: `${where.kind} ${where.name} is being terminated`, field },
        ],
      },
    }
  )
}

/**
 * NotFound unless the Namespace exists, Forbidden while it terminates. A namespace that is not a
 * DNS label cannot exist and is not looked up: validation reports it as 422 on
 * `metadata.namespace`, as kube's validation does before its namespace lifecycle admission.
 */
async function requireLiveNamespace(deps: HubDeps, t: Target, obj: KubeObject): Promise<void> {
  const ns = obj.metadata.namespace ?? ''
  if (!isDnsLabel(ns)) return
  const key = { cluster: t.space.id, group: '', resource: 'namespaces', namespace: '', name: ns }
  const namespace = await deps.objects.get(key)
  if (!namespace) throw notFound('namespaces', { kind: 'namespaces', name: ns })
  if (namespace.metadata.deletionTimestamp)
    throw terminating(t, obj.metadata.name ?? t.name ?? '', { kind: 'namespace', name: ns })
}

function nameFor(obj: KubeObject): string {
  const { name, generateName } = obj.metadata
  if (name) return name
  if (!generateName) throw badRequest('name or generateName is required')
  return generateObjectName(generateName)
}

/**
 * A create: `body` is the parsed request body. `fieldsPreset` marks a create coming from
 * server-side apply, whose managedFields are already set.
 */
export type CreateRequest = { body: unknown; opts: WriteOptions; fieldsPreset?: boolean }

export async function createObject(
  deps: HubDeps,
  t: Target,
  r: CreateRequest
): Promise<WriteResult> {
  const { body, opts, fieldsPreset = false } = r
  let obj = placeInNamespace(t, asKubeObject(t, body))
  if (t.name !== undefined && obj.metadata.name && obj.metadata.name !== t.name)
    throw nameMismatch(obj.metadata.name, t.name)
  // Nothing new goes into a space being deleted: its deletion may have listed that collection
  // already, and what it missed would outlive the space.
  if (t.space.phase === 'Terminating')
    throw terminating(t, obj.metadata.name ?? t.name ?? '', {
      kind: 'workspace',
      name: t.space.path,
    })
  refuseControlInMailbox(t, obj.metadata.name ?? t.name ?? '')
  if (t.info.namespaced) await requireLiveNamespace(deps, t, obj)
  const now = timestamp(deps.now())
  for (let attempt = 0; ; attempt++) {
    const name = nameFor(obj)
    const named = { ...obj, metadata: { ...obj.metadata, name } }
    const checked = checkObject(t, resetFields(deps, t, named, fieldsPreset), opts.fieldValidation)
    const warnings = checked.warnings
    let draft = checked.object
    draft = initMetadata(draft, { uid: deps.uid(), now, clusterId: t.space.id })
    if (t.info.subresources.status) delete draft.status
    draft = await applyDefaults(deps, t, { obj: draft, dryRun: opts.dryRun })
    const hook = deps.hooks.for(t.info.group, t.info.resource).prepareCreate
    if (hook) draft = await hook({ deps, space: t.space, baseUrl: opts.baseUrl }, draft)
    if (opts.admit) await opts.admit(draft)
    draft = fieldsPreset
      ? draft
      : recordUpdate({
          before: undefined,
          after: draft,
          manager: opts.fieldManager,
          operation: 'Update',
          now,
          schema: fieldSchemaFor(t),
        })
    if (opts.dryRun)
      return {
        object: await dryRunAnswer(deps, t, opts, servedAt(t, draft)),
        warnings,
        created: true,
      }
    try {
      const stored = await storeCreate(
        deps,
        objectKey(t, name, draft.metadata.namespace),
        storedAt(t, draft),
        { space: t.space, enforceQuota: opts.enforceQuota === true }
      )
      return { object: servedAt(t, stored), warnings, created: true }
    } catch (e) {
      const retry =
        isApiError(e) && e.reason === 'AlreadyExists' && !obj.metadata.name && attempt < 3
      if (!retry) throw e
      obj = { ...obj }
    }
  }
}

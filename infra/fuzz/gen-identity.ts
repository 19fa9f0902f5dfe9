/**
 * Fuzz category `identity`: writes that try to change what an object is — its kind, apiVersion,
 * name, namespace or uid — or set read-only metadata (deletionTimestamp, a bogus
 * creationTimestamp) or give metadata maps the wrong type, through every patch type, update, the
 * status and scale subresources, on a ConfigMap, a Namespace and a Deployment. After any 2xx the
 * runner reads the object back and requires the same identity and no deletionTimestamp.
 */
import {
  APPLY,
  cmCollection,
  cmKey,
  cmPath,
  deploymentPath,
  JSON_PATCH,
  JSON_TYPE,
  key,
  MERGE,
  spaceOf,
  type Where,
} from './fixture.ts'
import { type Change, changes, type Subject, subjects } from './gen-identity-subjects.ts'
import type { Rng } from './rng.ts'
import type { Fixture, FuzzRequest, Identity } from './types.ts'

function valueAt(o: Record<string, unknown>, pointer: string): unknown {
  let cur: unknown = o
  for (const k of pointer.slice(1).split('/'))
    cur = (cur as Record<string, unknown> | undefined)?.[k]
  return cur
}

/** Sets `pointer` (two levels at most) in a fresh object. */
function setAt(pointer: string, value: unknown): Record<string, unknown> {
  const [a, b] = pointer.slice(1).split('/') as [string, string | undefined]
  return b === undefined ? { [a]: value } : { [a]: { [b]: value } }
}

function patchBody(t: string, s: Subject, c: Change): string {
  if (t === JSON_PATCH) {
    const op = c.pointer.split('/').length > 2 ? 'add' : 'replace'
    return JSON.stringify([{ op, path: c.pointer, value: c.value }])
  }
  if (t === APPLY) return JSON.stringify(deepMerge(s.body, setAt(c.pointer, c.value)))
  return JSON.stringify(setAt(c.pointer, c.value))
}

/** Every patch type and an update of subject `s` making change `c`. */
function changeCases(s: Subject, c: Change): FuzzRequest[] {
  // a cluster-scoped object may drop a namespace it was given instead of refusing it
  const mustRefuse = c.refuse && !(s.label === 'namespace' && c.pointer === '/metadata/namespace')
  const common = {
    category: 'identity',
    token: 'admin' as const,
    write: true,
    mustRefuse,
    touches: s.touches,
    identity: s.identity,
  }
  const out: FuzzRequest[] = s.patchTypes.map((t) => ({
    ...common,
    label: `${s.label} ${t.split('/')[1]}: ${c.label}`,
    method: 'PATCH',
    path: t === APPLY ? `${s.path}?fieldManager=fuzz&force=true` : s.path,
    contentType: t,
    body: patchBody(t, s, c),
  }))
  out.push({
    ...common,
    label: `${s.label} update: ${c.label}`,
    method: 'PUT',
    path: s.path,
    contentType: JSON_TYPE,
    body: JSON.stringify(deepMerge(s.body, setAt(c.pointer, c.value))),
  })
  return out
}

export function identityCases(rng: Rng, fx: Fixture): FuzzRequest[] {
  const out: FuzzRequest[] = []
  for (const where of ['root', 'space'] as Where[]) {
    for (const s of subjects(fx, where))
      for (const c of changes(fx))
        if (JSON.stringify(valueAt(s.body, c.pointer)) !== JSON.stringify(c.value))
          out.push(...changeCases(s, c))
    const dp = deploymentPath(fx, where)
    const touches = [key(spaceOf(fx, where), 'deployments', fx.namespace, fx.deployment)]
    const identity: Identity = {
      path: dp,
      kind: 'Deployment',
      apiVersion: 'apps/v1',
      name: fx.deployment,
      namespace: fx.namespace,
    }
    /** One write of this category (admin, JSON unless `more` says otherwise). */
    const write = (
      r: { label: string; method: string; path: string; body: unknown },
      more: Partial<FuzzRequest>
    ) => {
      const { label, method, path, body } = r
      out.push({
        category: 'identity',
        label,
        method,
        path,
        token: 'admin',
        contentType: JSON_TYPE,
        body: JSON.stringify(body),
        write: true,
        touches: [],
        ...more,
      })
    }
    const scale = (label: string, body: unknown, method = 'PUT', contentType = JSON_TYPE) =>
      write(
        { label: `scale ${label}`, method, path: `${dp}/scale`, body },
        {
          contentType,
          mustRefuse: true,
          touches,
          identity,
        }
      )
    const scaleObject = (metadata: Record<string, string>, replicas: unknown) => ({
      apiVersion: 'autoscaling/v1',
      kind: 'Scale',
      metadata,
      spec: { replicas },
    })
    scale('as a Deployment', {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: fx.deployment },
      spec: { replicas: 3 },
    })
    scale('named otherwise', scaleObject({ name: 'other' }, 3))
    scale('in another namespace', scaleObject({ name: fx.deployment, namespace: 'default' }, 3))
    scale('replicas a string', scaleObject({ name: fx.deployment }, 'x'))
    scale('replicas negative', scaleObject({ name: fx.deployment }, -1))
    scale('merge patch kind', { kind: 'Secret', spec: { replicas: 2 } }, 'PATCH', MERGE)
    scale(
      'json patch uid',
      [{ op: 'replace', path: '/metadata/uid', value: 'x' }],
      'PATCH',
      JSON_PATCH
    )
    const cmp = cmPath(fx, where, 'cm-b')
    const cmIdentity: Identity = {
      path: cmp,
      kind: 'ConfigMap',
      apiVersion: 'v1',
      name: 'cm-b',
      namespace: fx.namespace,
    }
    const update = (label: string, resourceVersion: string, rv: string, refuse: boolean) =>
      write(
        {
          label,
          method: 'PUT',
          path: cmp,
          body: {
            apiVersion: 'v1',
            kind: 'ConfigMap',
            metadata: { name: 'cm-b', resourceVersion },
            data: { rv },
          },
        },
        {
          ...(refuse ? { mustRefuse: true } : {}),
          touches: [cmKey(fx, where, 'cm-b')],
          identity: cmIdentity,
        }
      )
    update('update with resourceVersion ""', '', 'empty', false)
    update('update with a stale resourceVersion', '1', 'stale', true)
    const collection = cmCollection(fx, where)
    write(
      {
        label: 'create a Secret at the configmaps collection',
        method: 'POST',
        path: collection,
        body: {
          apiVersion: 'v1',
          kind: 'Secret',
          metadata: { name: 'fz-secret-as-cm' },
          stringData: { a: 'b' },
        },
      },
      { mustRefuse: true }
    )
    write(
      {
        label: 'create in another namespace than the URL',
        method: 'POST',
        path: collection,
        body: {
          apiVersion: 'v1',
          kind: 'ConfigMap',
          metadata: { name: 'fz-other-ns', namespace: 'default' },
        },
      },
      { mustRefuse: true }
    )
  }
  return rng.shuffle(out)
}

function deepMerge(
  a: Record<string, unknown>,
  b: Record<string, unknown>
): Record<string, unknown> {
  const out: Record<string, unknown> = { ...a }
  for (const [k, v] of Object.entries(b)) {
    const prev = out[k]
    out[k] =
      v &&
      typeof v === 'object' &&
      !Array.isArray(v) &&
      prev &&
      typeof prev === 'object' &&
      !Array.isArray(prev)
        ? deepMerge(prev as Record<string, unknown>, v as Record<string, unknown>)
        : v
  }
  return out
}

/**
 * Fuzz category `identity`: writes that try to change what an object is — its kind, apiVersion,
 * name, namespace or uid — or set read-only metadata (deletionTimestamp, a bogus
 * creationTimestamp) or give metadata maps the wrong type, through every patch type, update, the
 * status and scale subresources, on a ConfigMap, a Namespace and a Deployment. After any 2xx the
 * runner reads the object back and requires the same identity and no deletionTimestamp.
 */
import {
  APPLY,
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
    const scale = (label: string, body: unknown, refuse: boolean, method = 'PUT', ct = JSON_TYPE) =>
      out.push({
        category: 'identity',
        label: `scale ${label}`,
        method,
        path: `${dp}/scale`,
        token: 'admin',
        contentType: ct,
        body: JSON.stringify(body),
        write: true,
        mustRefuse: refuse,
        touches,
        identity,
      })
    scale(
      'as a Deployment',
      {
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        metadata: { name: fx.deployment },
        spec: { replicas: 3 },
      },
      true
    )
    scale(
      'named otherwise',
      {
        apiVersion: 'autoscaling/v1',
        kind: 'Scale',
        metadata: { name: 'other' },
        spec: { replicas: 3 },
      },
      true
    )
    scale(
      'in another namespace',
      {
        apiVersion: 'autoscaling/v1',
        kind: 'Scale',
        metadata: { name: fx.deployment, namespace: 'default' },
        spec: { replicas: 3 },
      },
      true
    )
    scale(
      'replicas a string',
      {
        apiVersion: 'autoscaling/v1',
        kind: 'Scale',
        metadata: { name: fx.deployment },
        spec: { replicas: 'x' },
      },
      true
    )
    scale(
      'replicas negative',
      {
        apiVersion: 'autoscaling/v1',
        kind: 'Scale',
        metadata: { name: fx.deployment },
        spec: { replicas: -1 },
      },
      true
    )
    scale('merge patch kind', { kind: 'Secret', spec: { replicas: 2 } }, true, 'PATCH', MERGE)
    scale(
      'json patch uid',
      [{ op: 'replace', path: '/metadata/uid', value: 'x' }],
      true,
      'PATCH',
      JSON_PATCH
    )
    const cmp = cmPath(fx, where, 'cm-b')
    out.push({
      category: 'identity',
      label: 'update with resourceVersion ""',
      method: 'PUT',
      path: cmp,
      token: 'admin',
      contentType: JSON_TYPE,
      body: JSON.stringify({
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: 'cm-b', resourceVersion: '' },
        data: { rv: 'empty' },
      }),
      write: true,
      touches: [cmKey(fx, where, 'cm-b')],
      identity: {
        path: cmp,
        kind: 'ConfigMap',
        apiVersion: 'v1',
        name: 'cm-b',
        namespace: fx.namespace,
      },
    })
    out.push({
      category: 'identity',
      label: 'update with a stale resourceVersion',
      method: 'PUT',
      path: cmp,
      token: 'admin',
      contentType: JSON_TYPE,
      body: JSON.stringify({
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: 'cm-b', resourceVersion: '1' },
        data: { rv: 'stale' },
      }),
      write: true,
      mustRefuse: true,
      touches: [cmKey(fx, where, 'cm-b')],
      identity: {
        path: cmp,
        kind: 'ConfigMap',
        apiVersion: 'v1',
        name: 'cm-b',
        namespace: fx.namespace,
      },
    })
    out.push({
      category: 'identity',
      label: 'create a Secret at the configmaps collection',
      method: 'POST',
      path: cmp.replace(/\/cm-b$/, ''),
      token: 'admin',
      contentType: JSON_TYPE,
      body: JSON.stringify({
        apiVersion: 'v1',
        kind: 'Secret',
        metadata: { name: 'fz-secret-as-cm' },
        stringData: { a: 'b' },
      }),
      write: true,
      mustRefuse: true,
      touches: [],
    })
    out.push({
      category: 'identity',
      label: 'create in another namespace than the URL',
      method: 'POST',
      path: cmp.replace(/\/cm-b$/, ''),
      token: 'admin',
      contentType: JSON_TYPE,
      body: JSON.stringify({
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: 'fz-other-ns', namespace: 'default' },
      }),
      write: true,
      mustRefuse: true,
      touches: [],
    })
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

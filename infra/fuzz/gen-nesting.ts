/**
 * Fuzz category `nesting`: JSON and YAML nested 5,000 and 100,000 levels deep, in create and
 * update bodies, in every patch type, in the edge API's report and bootstrap bodies and in a hook
 * body. The strings are built by repetition so the fuzzer itself never recurses.
 */
import {
  APPLY,
  cmCollection,
  cmKey,
  cmPath,
  deploymentPath,
  JSON_PATCH,
  JSON_TYPE,
  MERGE,
  STRATEGIC,
} from './fixture.ts'
import type { Rng } from './rng.ts'
import type { Fixture, FuzzRequest } from './types.ts'

/** `{"a":{"a":...1...}}` or `[[[...1...]]]`, `depth` levels. */
export function deepJson(depth: number, shape: 'object' | 'array'): string {
  return shape === 'object'
    ? `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`
    : `${'['.repeat(depth)}1${']'.repeat(depth)}`
}

/** YAML block mappings nested `depth` levels (indentation grows by one space per level). */
function deepYamlBlock(depth: number): string {
  let s = ''
  for (let i = 0; i < depth; i++) s += `${' '.repeat(i)}a:\n`
  return `${s}${' '.repeat(depth)}b: 1\n`
}

const cm = (name: string, inner: string) =>
  `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"${name}","annotations":{"x":"y"}},"spec":${inner}}`

/** One nesting request; the label gets the depth and shape appended, the token defaults to admin. */
type Nested = {
  label: string
  method: string
  path: string
  contentType: string
  body: string
  touches: string[]
  token?: FuzzRequest['token']
}

export function nestingCases(rng: Rng, fx: Fixture): FuzzRequest[] {
  const out: FuzzRequest[] = []
  let n = 0
  for (const depth of [5_000, 100_000]) {
    const refuse = depth >= 100_000
    for (const shape of ['object', 'array'] as const) {
      const deep = deepJson(depth, shape)
      const where = rng.pick(['root', 'space'] as const)
      const name = `fz-deep${n++}`
      const add = (r: Nested) => {
        const { label, method, path, contentType, body, touches, token = 'admin' } = r
        out.push({
          category: 'nesting',
          label: `${label} (${depth} ${shape})`,
          method,
          path,
          token,
          contentType,
          body,
          write: method !== 'GET',
          mustRefuse: refuse,
          touches,
        })
      }
      add({
        label: 'create',
        method: 'POST',
        path: cmCollection(fx, where),
        contentType: JSON_TYPE,
        body: cm(name, deep),
        touches: [cmKey(fx, where, name)],
      })
      add({
        label: 'create yaml',
        method: 'POST',
        path: cmCollection(fx, where),
        contentType: 'application/yaml',
        body: cm(`${name}y`, deep),
        touches: [cmKey(fx, where, `${name}y`)],
      })
      add({
        label: 'update',
        method: 'PUT',
        path: cmPath(fx, where, 'cm-a'),
        contentType: JSON_TYPE,
        body: cm('cm-a', deep),
        touches: [cmKey(fx, where, 'cm-a')],
      })
      add({
        label: 'merge patch',
        method: 'PATCH',
        path: cmPath(fx, where, 'cm-b'),
        contentType: MERGE,
        body: `{"spec":${deep}}`,
        touches: [cmKey(fx, where, 'cm-b')],
      })
      add({
        label: 'merge patch whole body',
        method: 'PATCH',
        path: cmPath(fx, where, 'cm-b'),
        contentType: MERGE,
        body: deep,
        touches: [cmKey(fx, where, 'cm-b')],
      })
      add({
        label: 'strategic patch',
        method: 'PATCH',
        path: deploymentPath(fx, where),
        contentType: STRATEGIC,
        body: `{"spec":{"template":{"spec":{"containers":[{"name":"c","env":${deep}}]}}}}`,
        touches: [],
      })
      add({
        label: 'json patch value',
        method: 'PATCH',
        path: cmPath(fx, where, 'cm-c'),
        contentType: JSON_PATCH,
        body: `[{"op":"add","path":"/metadata/annotations/deep","value":${deep}}]`,
        touches: [cmKey(fx, where, 'cm-c')],
      })
      add({
        label: 'json patch ops',
        method: 'PATCH',
        path: cmPath(fx, where, 'cm-c'),
        contentType: JSON_PATCH,
        body: deep,
        touches: [cmKey(fx, where, 'cm-c')],
      })
      add({
        label: 'apply json',
        method: 'PATCH',
        path: `${cmPath(fx, where, 'cm-c')}?fieldManager=fuzz`,
        contentType: APPLY,
        body: cm('cm-c', deep),
        touches: [cmKey(fx, where, 'cm-c')],
      })
      add({
        label: 'status update',
        method: 'PUT',
        path: deploymentPath(fx, where, 'status'),
        contentType: JSON_TYPE,
        body: `{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"${fx.deployment}"},"status":${deep}}`,
        touches: [],
      })
      add({
        label: 'dry-run create',
        method: 'POST',
        path: `${cmCollection(fx, where)}?dryRun=All`,
        contentType: JSON_TYPE,
        body: cm(`${name}d`, deep),
        touches: [],
      })
      add({
        label: 'hook keys',
        method: 'POST',
        path: '/hooks/translate',
        contentType: JSON_TYPE,
        body: `{"keys":${deep}}`,
        touches: [],
      })
      add({
        label: 'edge report',
        method: 'POST',
        path: `/edge/v1/mailboxes/${fx.mailbox}/reports`,
        contentType: JSON_TYPE,
        body: `{"kind":"Report","statuses":[{"group":"","version":"v1","resource":"configmaps","namespace":"fuzz","name":"x","observedGeneration":1,"status":${deep}}]}`,
        touches: [],
        token: 'edge',
      })
      add({
        label: 'edge bootstrap',
        method: 'POST',
        path: '/edge/v1/bootstrap',
        contentType: JSON_TYPE,
        body: `{"inventory":${deep}}`,
        touches: [],
      })
      add({
        label: 'self review',
        method: 'POST',
        path: '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews',
        contentType: JSON_TYPE,
        body: `{"apiVersion":"authorization.k8s.io/v1","kind":"SelfSubjectAccessReview","spec":${deep}}`,
        touches: [],
      })
    }
    // block YAML grows quadratically with depth (indentation): 2,000 levels is already ~2 MB
    const yaml = deepYamlBlock(depth >= 100_000 ? 2_000 : 1_000)
    const flow = deepJson(depth, 'array')
    const where = rng.pick(['root', 'space'] as const)
    for (const [label, body, mustRefuse] of [
      ['yaml block', yaml, false],
      [
        'yaml flow',
        `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: fz-yf}\nspec: ${flow}\n`,
        refuse,
      ],
    ] as const) {
      out.push({
        category: 'nesting',
        label: `create ${label} (${depth})`,
        method: 'POST',
        path: cmCollection(fx, where),
        token: 'admin',
        contentType: 'application/yaml',
        body,
        write: true,
        mustRefuse,
        touches: [cmKey(fx, where, 'fz-yf')],
      })
      out.push({
        category: 'nesting',
        label: `apply ${label} (${depth})`,
        method: 'PATCH',
        path: `${cmPath(fx, where, 'cm-c')}?fieldManager=fuzz`,
        token: 'admin',
        contentType: APPLY,
        body,
        write: true,
        mustRefuse,
        touches: [cmKey(fx, where, 'cm-c')],
      })
    }
  }
  return out
}

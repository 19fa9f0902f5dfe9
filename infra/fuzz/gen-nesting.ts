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

export function nestingCases(rng: Rng, fx: Fixture): FuzzRequest[] {
  const out: FuzzRequest[] = []
  let n = 0
  for (const depth of [5_000, 100_000]) {
    const refuse = depth >= 100_000
    for (const shape of ['object', 'array'] as const) {
      const deep = deepJson(depth, shape)
      const where = rng.pick(['root', 'space'] as const)
      const name = `fz-deep${n++}`
      const add = (
        label: string,
        method: string,
        path: string,
        contentType: string,
        body: string,
        touches: string[],
        token: FuzzRequest['token'] = 'admin'
      ) =>
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
      add('create', 'POST', cmCollection(fx, where), JSON_TYPE, cm(name, deep), [
        cmKey(fx, where, name),
      ])
      add(
        'create yaml',
        'POST',
        cmCollection(fx, where),
        'application/yaml',
        cm(`${name}y`, deep),
        [cmKey(fx, where, `${name}y`)]
      )
      add('update', 'PUT', cmPath(fx, where, 'cm-a'), JSON_TYPE, cm('cm-a', deep), [
        cmKey(fx, where, 'cm-a'),
      ])
      add('merge patch', 'PATCH', cmPath(fx, where, 'cm-b'), MERGE, `{"spec":${deep}}`, [
        cmKey(fx, where, 'cm-b'),
      ])
      add('merge patch whole body', 'PATCH', cmPath(fx, where, 'cm-b'), MERGE, deep, [
        cmKey(fx, where, 'cm-b'),
      ])
      add(
        'strategic patch',
        'PATCH',
        deploymentPath(fx, where),
        STRATEGIC,
        `{"spec":{"template":{"spec":{"containers":[{"name":"c","env":${deep}}]}}}}`,
        []
      )
      add(
        'json patch value',
        'PATCH',
        cmPath(fx, where, 'cm-c'),
        JSON_PATCH,
        `[{"op":"add","path":"/metadata/annotations/deep","value":${deep}}]`,
        [cmKey(fx, where, 'cm-c')]
      )
      add('json patch ops', 'PATCH', cmPath(fx, where, 'cm-c'), JSON_PATCH, deep, [
        cmKey(fx, where, 'cm-c'),
      ])
      add(
        'apply json',
        'PATCH',
        `${cmPath(fx, where, 'cm-c')}?fieldManager=fuzz`,
        APPLY,
        cm('cm-c', deep),
        [cmKey(fx, where, 'cm-c')]
      )
      add(
        'status update',
        'PUT',
        deploymentPath(fx, where, 'status'),
        JSON_TYPE,
        `{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"${fx.deployment}"},"status":${deep}}`,
        []
      )
      add(
        'dry-run create',
        'POST',
        `${cmCollection(fx, where)}?dryRun=All`,
        JSON_TYPE,
        cm(`${name}d`, deep),
        []
      )
      add('hook keys', 'POST', '/hooks/translate', JSON_TYPE, `{"keys":${deep}}`, [])
      add(
        'edge report',
        'POST',
        `/edge/v1/mailboxes/${fx.mailbox}/reports`,
        JSON_TYPE,
        `{"kind":"Report","statuses":[{"group":"","version":"v1","resource":"configmaps","namespace":"fuzz","name":"x","observedGeneration":1,"status":${deep}}]}`,
        [],
        'edge'
      )
      add('edge bootstrap', 'POST', '/edge/v1/bootstrap', JSON_TYPE, `{"inventory":${deep}}`, [])
      add(
        'self review',
        'POST',
        '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews',
        JSON_TYPE,
        `{"apiVersion":"authorization.k8s.io/v1","kind":"SelfSubjectAccessReview","spec":${deep}}`,
        []
      )
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

/**
 * `kubectl explain` says what edgeplane's kinds and fields are (issue 36, item 5: it printed
 * `<empty>` for every edge.kcp.io kind). Real kubectl against the run's shared stack, in root
 * (which serves every zod kind, Tokens and the tenancy kinds included): each kind, each of its
 * top-level object fields and a few deeper ones print their descriptions — the words of the zod
 * schemas in lib/apis/ and of lib/kube/openapi-object-meta.ts — and never `<empty>`. That the
 * served documents describe every field at every depth is test/lib/kube/openapi-descriptions.test.ts;
 * `kubectl apply -f examples/shop/` followed by `kubectl rollout status` and `kubectl wait
 * --for=condition=Available` is run from the README's quick start by test/e2e/readme.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { zodSchemaFor } from '../../lib/apis/by-kind.ts'
import { EdgePlacementSpecSchema } from '../../lib/apis/edge-v1alpha1.ts'
import { GRANT_RESOURCES } from '../../lib/apis/grants.ts'
import { TOKEN_INFO } from '../../lib/apis/tokens.ts'
import { OBJECT_META_DOC } from '../../lib/kube/openapi-object-meta.ts'
import { createRegistry } from '../../lib/kube/registry.ts'
import type { ResourceInfo } from '../../lib/kube/resource-info.ts'
import { ok } from './helpers/kubectl.ts'
import { type SharedStack, sharedStack } from './helpers/shared-stack.ts'

let stack: SharedStack

beforeAll(async () => {
  stack = await sharedStack()
})
afterAll(async () => {
  await stack?.close()
})

/** Every kind defined with zod, as root serves it. */
const root = createRegistry([], [TOKEN_INFO, ...GRANT_RESOURCES])
const kinds: ResourceInfo[] = root
  .groups()
  .flatMap((g) => g.versions.flatMap((v) => root.resources(g.name, v)))
  .filter((info) => zodSchemaFor(info.group, info.kind) !== undefined)

/** Text with kubectl's line wrapping and indentation undone. */
const flat = (text: string) => text.replace(/\s+/g, ' ')

/** The description of a zod schema (set with .describe()). */
const words = (schema: { description?: string } | undefined) => {
  const d = schema?.description
  if (!d) throw new Error('the schema has no description')
  return d
}

/** `kubectl explain <path>` of the kind's group-version; its output, which must not say <empty>. */
async function explain(info: ResourceInfo, path: string): Promise<string> {
  const version = info.versions[0] ?? ''
  const r = await stack.kubectl(['explain', path, `--api-version=${info.group}/${version}`])
  const out = ok(r)
  expect(out, `kubectl explain ${path}`).not.toContain('<empty>')
  return out
}

/** The top-level fields of a kind that are objects or lists of them (spec, status, replacements...). */
function objectFields(info: ResourceInfo): string[] {
  const schema = zodSchemaFor(info.group, info.kind) as unknown as {
    shape: Record<string, unknown>
  }
  return Object.keys(schema.shape).filter((f) => !['apiVersion', 'kind', 'metadata'].includes(f))
}

describe('kubectl explain', () => {
  it('covers the edge, kcp, token and tenancy kinds', () => {
    expect(new Set(kinds.map((k) => k.group))).toEqual(
      new Set([
        'edge.kcp.io',
        'tenancy.kcp.io',
        'apis.kcp.io',
        'auth.edgeplane.io',
        'tenancy.edgeplane.io',
      ])
    )
  })

  it('prints each kind with its description, and each of its fields', async () => {
    for (const info of kinds) {
      const out = await explain(info, info.resource)
      expect(flat(out), info.kind).toContain(flat(words(zodSchemaFor(info.group, info.kind))))
      for (const field of objectFields(info)) await explain(info, `${info.resource}.${field}`)
    }
  }, 300_000)

  it('prints edgeplacement.spec with what each selector does', async () => {
    const info = kinds.find((k) => k.kind === 'EdgePlacement')
    if (!info) throw new Error('EdgePlacement is not served')
    const out = flat(await explain(info, 'edgeplacements.spec'))
    for (const field of [
      'locationSelectors',
      'namespaceSelector',
      'nonNamespacedObjects',
      'upsync',
    ] as const) {
      expect(out).toContain(`${field} <`)
      expect(out).toContain(flat(words(EdgePlacementSpecSchema.shape[field])))
    }
    for (const path of [
      'edgeplacements.spec.locationSelectors.matchExpressions',
      'edgeplacements.status.conditions',
      'edgeplacements.status.summary.broken',
    ])
      await explain(info, path)
  }, 120_000)

  it('prints ObjectMeta with its fields described', async () => {
    const info = kinds.find((k) => k.kind === 'Location')
    if (!info) throw new Error('Location is not served')
    const out = flat(await explain(info, 'locations.metadata'))
    const props = OBJECT_META_DOC.properties as Record<string, { description: string }>
    for (const field of ['resourceVersion', 'labels', 'finalizers'])
      expect(out).toContain(flat(props[field]?.description ?? `${field}: none`))
  }, 120_000)
})

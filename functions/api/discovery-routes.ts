/**
 * Discovery and schema endpoints of a space: /api, /apis (aggregated discovery when the client
 * asks for it, legacy documents otherwise), /apis/<group>, /api/v1 and /apis/<group>/<version>
 * resource lists, /openapi/v3 (index and per group-version documents, with serverRelativeURLs
 * under the request's /clusters prefix), /openapi/v2 (a document without models, see
 * lib/kube/openapi-v2.ts), and /version. These are read-only: any method but GET and HEAD is
 * kube's 405 MethodNotAllowed Status (verbs.ts), before anything is built. A space that does not
 * exist is answered with the built-in resources a fresh space serves (app.ts says why).
 */
import { notFound } from '../../lib/errors.ts'
import type { HubDeps } from '../../lib/hub/deps.ts'
import { registryForSpace } from '../../lib/hub/space-registry.ts'
import type { Space } from '../../lib/hub/spaces.ts'
import {
  AGGREGATED_DISCOVERY_V2,
  AGGREGATED_DISCOVERY_V2BETA1,
  buildAggregatedDiscovery,
  buildApiGroup,
  buildApiGroupList,
  buildApiResourceList,
  buildApiVersions,
} from '../../lib/kube/discovery.ts'
import { buildOpenApiGroupVersion, buildOpenApiIndex } from '../../lib/kube/openapi.ts'
import {
  OPENAPI_V2_PROTOBUF,
  openApiV2Json,
  openApiV2Protobuf,
  wantsOpenApiV2Protobuf,
} from '../../lib/kube/openapi-v2.ts'
import { createRegistry } from '../../lib/kube/registry.ts'
import type { RequestPath } from '../../lib/kube/request-path.ts'
import { parseAccept } from './media-type.ts'
import { json } from './respond.ts'
import { assertReadOnly } from './verbs.ts'

export type DiscoveryRequest = {
  deps: HubDeps
  space: Space
  path: Exclude<RequestPath, { kind: 'resource' } | { kind: 'unknown' }>
  /** `/clusters/<space>` as the client wrote it, or '' for root without prefix. */
  prefix: string
  req: Request
  /** The space does not exist: the built-ins only, nothing read. */
  missing?: true
}

export const SERVER_VERSION = {
  major: '1',
  minor: '32',
  gitVersion: 'v1.32.0+edgeplane',
  gitCommit: '',
  gitTreeState: 'clean',
  buildDate: '2026-11-21T00:00:00Z',
  goVersion: 'n/a',
  compiler: 'n/a',
  platform: 'workers/wasm',
}

/** The aggregated-discovery version the Accept header asks for, if any. */
function aggregatedVersion(accept: string): string | undefined {
  for (const { params } of parseAccept(accept)) {
    if (params.as !== 'APIGroupDiscoveryList' || params.g !== 'apidiscovery.k8s.io') continue
    if (params.v === 'v2') return AGGREGATED_DISCOVERY_V2
    if (params.v === 'v2beta1') return AGGREGATED_DISCOVERY_V2BETA1
  }
  return undefined
}

function aggregated(body: unknown, apiVersion: string): Response {
  const v = apiVersion.split('/')[1] ?? 'v2'
  return new Response(JSON.stringify(body), {
    headers: {
      'Content-Type': `application/json;g=apidiscovery.k8s.io;v=${v};as=APIGroupDiscoveryList`,
    },
  })
}

function openApiV2(accept: string): Response {
  if (!wantsOpenApiV2Protobuf(accept)) return json(openApiV2Json())
  return new Response(openApiV2Protobuf(), { headers: { 'Content-Type': OPENAPI_V2_PROTOBUF } })
}

export async function handleDiscovery(r: DiscoveryRequest): Promise<Response> {
  const { path } = r
  assertReadOnly(r.req.method)
  if (path.kind === 'version') return json(SERVER_VERSION)
  if (path.kind === 'openapi-v2') return openApiV2(r.req.headers.get('accept') ?? '')
  const registry = r.missing ? createRegistry([]) : await registryForSpace(r.deps, r.space.id)
  const accept = r.req.headers.get('accept') ?? ''
  switch (path.kind) {
    case 'legacy-root': {
      const v = aggregatedVersion(accept)
      return v
        ? aggregated(buildAggregatedDiscovery(registry, 'legacy', v), v)
        : json(buildApiVersions())
    }
    case 'groups-root': {
      const v = aggregatedVersion(accept)
      return v
        ? aggregated(buildAggregatedDiscovery(registry, 'apis', v), v)
        : json(buildApiGroupList(registry))
    }
    case 'group': {
      const doc = buildApiGroup(registry, path.group)
      if (!doc) throw notFound('groups', { name: path.group })
      return json(doc)
    }
    case 'group-version': {
      const doc = buildApiResourceList(registry, path.group, path.version)
      if (!doc) throw notFound('groupversions', { name: `${path.group}/${path.version}` })
      return json(doc)
    }
    case 'openapi-v3-index': {
      const index = buildOpenApiIndex(registry)
      for (const entry of Object.values(index.paths))
        entry.serverRelativeURL = `${r.prefix}${entry.serverRelativeURL}`
      return json(index)
    }
    case 'openapi-v3-doc': {
      const doc = buildOpenApiGroupVersion(registry, path.group, path.version)
      if (!doc) throw notFound('openapi', { name: `${path.group}/${path.version}` })
      return json(doc)
    }
  }
}

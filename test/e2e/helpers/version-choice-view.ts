/**
 * What the overlap end-to-end tests read to see the API version the translate step chose for the
 * widgets group of helpers/overlap-workload.ts at one edge, each through the interface a user or
 * the edge has: the widgets' resource triple in the mailbox's SyncerConfig `the-one` (kubectl in
 * the mailbox space), the version of each widget copy in the edge's desired state (the edge API,
 * with the edge's own token), and the step's memory for the mailbox (the key-value item and, for
 * the groups it lacks, the manifest's live copies, read from the stack's store: it has no API). The edge itself serves a copy at every version its CRD
 * serves (no conversion, and an apply that changes nothing but the version writes nothing), so
 * at the edge the tests list the copies at the chosen version and compare the CRD's versions.
 */
import {
  manifestVersions,
  rememberedVersions,
  VERSION_MEMORY_NS,
} from '../../../functions/reconcile-translate/version-memory.ts'
import type { EdgeStack } from './edge-stack.ts'
import { okJson } from './kubectl.ts'
import { CRD_GROUP, CRD_NAME } from './overlap-workload.ts'
import type { E2eStack } from './stack.ts'
import { openStackStore } from './store-access.ts'

type Listed = { items: { apiVersion: string; metadata: { name?: string } }[] }

export type VersionView = {
  /** `resource@version` of the group in `the-one`, its clusterScope, the copies told, the memory. */
  chosen(edge: string): Promise<{
    inConfig: string[]
    clusterScope: string[]
    told: string[]
    memory: Record<string, string> | undefined
  }>
  /** `[name, apiVersion]` of the widgets at the edge, listed at `version`, sorted. */
  listedAt(edge: string, version: string): Promise<string[][]>
  /** The served versions of the CRD where `where` (kubectl arguments) points, sorted. */
  served(where: string[]): Promise<string[] | undefined>
}

export function versionView(stack: E2eStack, edges: EdgeStack): VersionView {
  const mailboxOf = async (edge: string) => {
    const name = (await stack.readInfo()).edges.find((e) => e.name === edge)?.mailbox ?? ''
    const espw = ['--server', `${stack.url}/clusters/root:espw`]
    const ws = okJson<{ spec: { cluster: string } }>(
      await stack.kubectl([...espw, 'get', 'workspace', name, '-o', 'json'])
    )
    return { name, args: await edges.mailbox(edge), id: ws.spec.cluster }
  }
  const remembered = async (mailboxId: string) => {
    const store = openStackStore(await stack.readInfo())
    try {
      const item = await store.kv.get<Record<string, string>>(VERSION_MEMORY_NS, mailboxId)
      const manifest = await store.projections.getManifest(mailboxId)
      return rememberedVersions(item?.value, manifestVersions(manifest))
    } finally {
      store.close()
    }
  }
  return {
    async chosen(edge) {
      const mailbox = await mailboxOf(edge)
      const config = okJson<{ spec?: any }>(
        await stack.kubectl([...mailbox.args, 'get', 'syncerconfig', 'the-one', '-o', 'json'])
      )
      const inConfig = (config.spec?.namespaceScope?.resources ?? [])
        .filter((r: { group: string }) => r.group === CRD_GROUP)
        .map((r: { resource: string; apiVersion: string }) => `${r.resource}@${r.apiVersion}`)
      const clusterScope = (config.spec?.clusterScope ?? []).map(
        (c: { resource: string; objects: string[] }) => `${c.resource}:${c.objects}`
      )
      const token = await edges.edgeToken(edge)
      const res = await stack.api(`/edge/v1/mailboxes/${mailbox.name}/desired`, { token })
      const desired = (await res.json()) as {
        entries: { group: string; version: string; name: string }[]
      }
      const told = desired.entries
        .filter((e) => e.group === CRD_GROUP)
        .map((e) => `${e.name}@${e.version}`)
        .sort()
      return { inConfig, clusterScope, told, memory: await remembered(mailbox.id) }
    },
    async listedAt(edge, version) {
      const args = ['get', `widgets.${version}.${CRD_GROUP}`, '-n', 'common', '-o', 'json']
      const listed = okJson<Listed>(await stack.kubectl(['--context', edge, ...args]))
      return listed.items.map((w) => [w.metadata.name ?? '', w.apiVersion]).sort()
    },
    async served(where) {
      const crd = (await edges.get(where, 'crd', '', CRD_NAME)) as
        | { spec?: { versions: { name: string; served: boolean }[] } }
        | undefined
      return crd?.spec?.versions
        .filter((v) => v.served)
        .map((v) => v.name)
        .sort()
    },
  }
}

/**
 * The reconcile steps the Worker runs, built over one in-process hub client: the webhook route
 * (`/hooks/<step>`) and the resync timer both look steps up here by name. The translate and
 * summarize steps also get the projection store (mailbox manifests and copy states) and what every
 * edge cluster has built in, and the translate step the bell of held edge polls
 * (`HubDeps.edgeHold`) it rings after its manifest writes; the rollout step the key-value store
 * its revisions live in.
 */
import { type Builtins, builtinsFrom } from '../lib/apis/builtins.ts'
import { createHubClient } from '../lib/hub/client.ts'
import type { HubDeps } from '../lib/hub/deps.ts'
import { serviceProviderSpaceCheck } from '../lib/hub/service-provider-space.ts'
import { registryForSpace } from '../lib/hub/space-registry.ts'
import { CONTROLLER_MANAGER, type Controller } from '../lib/reconcile/types.ts'
import { mailboxController } from './reconcile-mailbox/controller.ts'
import { rolloutController } from './reconcile-rollout/controller.ts'
import { summarizeController } from './reconcile-summarize/controller.ts'
import { translateController } from './reconcile-translate/controller.ts'
import { whereController } from './reconcile-where/controller.ts'

export function buildControllers(
  deps: HubDeps,
  baseUrl = '',
  builtins: Builtins = deps.builtins ?? builtinsFrom()
): Controller[] {
  const client = createHubClient(deps, { fieldManager: CONTROLLER_MANAGER, baseUrl })
  return [
    mailboxController(client, deps.kv, deps.log),
    whereController(client, deps.log, serviceProviderSpaceCheck(deps.kv)),
    translateController({
      client,
      projections: deps.projections,
      builtins,
      now: deps.now,
      log: deps.log,
      kv: deps.kv,
      registry: (spaceId) => registryForSpace(deps, spaceId),
      slices: deps.caches.slices,
      ...(deps.edgeHold ? { bell: deps.edgeHold.bell } : {}),
    }),
    summarizeController({
      client,
      projections: deps.projections,
      builtins,
      now: deps.now,
      log: deps.log,
      kv: deps.kv,
      registry: (spaceId) => registryForSpace(deps, spaceId),
      slices: deps.caches.slices,
      liveness: deps.liveness,
    }),
    rolloutController(
      {
        client,
        builtins,
        kv: deps.kv,
        log: deps.log,
        now: deps.now,
        registry: (spaceId) => registryForSpace(deps, spaceId),
      },
      serviceProviderSpaceCheck(deps.kv)
    ),
  ]
}

/**
 * The reconcile steps the Worker runs, built over one in-process hub client: the webhook route
 * (`/hooks/<step>`) and the resync timer both look steps up here by name.
 */
import { createHubClient } from '../lib/hub/client.ts'
import type { HubDeps } from '../lib/hub/deps.ts'
import type { Controller } from '../lib/reconcile/types.ts'
import { mailboxController } from './reconcile-mailbox/controller.ts'
import { whereController } from './reconcile-where/controller.ts'

export function buildControllers(deps: HubDeps, baseUrl = ''): Controller[] {
  const client = createHubClient(deps, { fieldManager: 'edgeplane-controller', baseUrl })
  return [mailboxController(client), whereController(client)]
}

/**
 * The warning a user Token's issue answers with while the hub is single-team (no Inventory and no
 * PlacementGrant in root, lib/tenancy/policy.ts): in that mode every space that can write may place
 * onto every edge and every space's SyncTargets are edges, which is right for one team and wrong
 * the moment a token for another team exists. kubectl prints it as `Warning: ...`. Two reads of
 * root's tenancy kinds, only when a user token is issued.
 */
import { GRANT_GROUP, INVENTORIES_RESOURCE, PLACEMENT_GRANTS_RESOURCE } from '../apis/grants.ts'
import type { HubDeps } from './deps.ts'
import { ROOT } from './spaces.ts'

export const SINGLE_TEAM_WARNING =
  'the hub is single-team (root holds no Inventory or PlacementGrant): every space may place ' +
  "onto every edge and every space's SyncTargets become edges; before onboarding another team, " +
  'create Inventory and PlacementGrant objects (README, "Tenancy: onboarding a second team")'

/** The warnings to add to a user token's issue (none once the hub is granted). */
export async function singleTeamWarnings(deps: HubDeps): Promise<string[]> {
  const counts = await Promise.all(
    [INVENTORIES_RESOURCE, PLACEMENT_GRANTS_RESOURCE].map(async (resource) => {
      const listed = await deps.objects.list({
        cluster: ROOT.id,
        group: GRANT_GROUP,
        resource,
        itemsOnly: true,
      })
      return listed.items.filter((o) => !o.metadata.deletionTimestamp).length
    })
  )
  return counts.every((n) => n === 0) ? [SINGLE_TEAM_WARNING] : []
}

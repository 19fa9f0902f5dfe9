/**
 * The instance label (INSTANCE_ID, lib/env.ts): the health routes answer it in one header, so a
 * supervisor that picked a port and started a Worker on it knows that the Worker answering is the
 * one it started, not another process that took the port meanwhile (infra/local/health.ts).
 */

/** The header the label travels in. */
export const INSTANCE_HEADER = 'Edgeplane-Instance'

const HEALTH_PATHS = new Set(['/healthz', '/livez', '/readyz'])

/** `res`, with the label set when `url` names a health route and a label is configured. */
export function labelHealth(url: string, res: Response, instance: string | undefined): Response {
  if (instance === undefined || !HEALTH_PATHS.has(new URL(url).pathname)) return res
  const labelled = new Response(res.body, res)
  labelled.headers.set(INSTANCE_HEADER, instance)
  return labelled
}

/**
 * `edgeplane_build_info{version="..."} 1`, the one series each of the hub, the edge agent and the
 * relay adds to its /metrics to say which release answers: the version is package.json's, as
 * lib/edge/manifests-image.ts carries it into every build (the Worker, the bundles, the sources;
 * a test holds it equal to package.json), so plain `wrangler deploy` needs no build-time define.
 */
import { IMAGE_VERSION } from '../edge/manifests-image.ts'
import type { MetricFamily } from './registry.ts'

export const BUILD_INFO = 'edgeplane_build_info'

export function buildInfoFamily(version: string = IMAGE_VERSION): MetricFamily {
  const labels = { version }
  return {
    name: BUILD_INFO,
    help: 'The edgeplane release this process runs (always 1; the version is the label).',
    type: 'gauge',
    series: new Map([[JSON.stringify(labels), { labels, value: 1 }]]),
  }
}

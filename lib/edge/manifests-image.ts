/**
 * The container images edgeplane ships, named in one place: the bootstrap manifests
 * (manifests.ts), the CLIs' `--help`, the Dockerfiles' build lines and the docs all use these
 * references (a test checks that the docs and Dockerfiles agree with them, and that the tag is
 * the version in package.json). Build them with `npm run build`, then the `docker build` line at
 * the top of infra/edge-agent/Dockerfile and infra/relay/Dockerfile; push them under these names
 * or pass another reference at bootstrap (`--image`, or `image` in the request body).
 */

/** The version of this repository (package.json), the images' tag. */
export const IMAGE_VERSION = '0.1.0'
/** Where the images are published. */
export const IMAGE_REPOSITORY = 'ghcr.io/edgeplane'
/** The edge agent's image, the default of the bootstrap manifests. */
export const EDGE_AGENT_IMAGE = `${IMAGE_REPOSITORY}/edge-agent:${IMAGE_VERSION}`
/** The watch relay's image. */
export const RELAY_IMAGE = `${IMAGE_REPOSITORY}/relay:${IMAGE_VERSION}`
/**
 * The port both programs serve /healthz, /readyz and /metrics on unless told otherwise
 * (`--health-port`); the agent's Deployment probes it.
 */
export const HEALTH_PORT = 9464

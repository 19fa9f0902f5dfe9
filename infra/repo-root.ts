/**
 * The repository's root folder, for the scripts and tests that read or run files in it (wrangler,
 * the build, the Dockerfiles). Derived from this file's place: infra/ sits at the root.
 */
import { dirname, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..')

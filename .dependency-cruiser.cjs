// The import rules (issue 13), checked by `.ci/run`: no import circles anywhere, lib/ below
// functions/ and infra/, the reconcile step folders isolated from each other, DynamoDB's SDK only
// in lib/store/, nothing the Worker cannot run reachable from its entry, no unresolvable import.
//
// TypeScript 7 has no compiler API for tools (dependency-cruiser reads TypeScript < 7), so the
// files are parsed by swc (`parser: 'swc'`, the @swc/core dev dependency), which keeps every
// import, `import type` included, as the TypeScript compiler sees them. Type-only
// imports count for circles and layers: a type names the module that defines it, so a circle made
// of types is still two modules that can only be understood, moved or split together.
//
// Run: npx depcruise --config .dependency-cruiser.cjs lib functions infra test bench

/** The Worker's entry (wrangler.toml `main`). */
const WORKER_ENTRY = '^functions/index[.]ts$'
/** Built-ins (resolved without their `node:` prefix) that do not work in the Worker; see the rule. */
const WORKER_BROKEN_BUILTINS = '^(fs|fs/promises|child_process|worker_threads|dns|dns/promises)$'

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'An import circle anywhere (type-only imports included): move the shared part down.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'lib-not-upward',
      severity: 'error',
      comment: 'lib/ is the lower layer: it never imports functions/ or infra/.',
      from: { path: '^lib/' },
      to: { path: '^(functions|infra)/' },
    },
    {
      name: 'step-folders-isolated',
      severity: 'error',
      comment:
        'A reconcile step folder never imports another one: what two steps share lives in lib/.',
      from: { path: '^functions/(reconcile-[^/]+)/' },
      to: { path: '^functions/reconcile-[^/]+/', pathNot: '^functions/$1/' },
    },
    {
      name: 'aws-sdk-only-in-store',
      severity: 'error',
      comment:
        'Only lib/store/ speaks DynamoDB. Tests and benchmarks may read the table directly to check it.',
      from: { path: '^(lib|functions|infra)/', pathNot: '^lib/store/' },
      to: { path: '(^|/)node_modules/@aws-sdk/' },
    },
    {
      name: 'worker-node-builtins',
      severity: 'error',
      comment:
        'The Worker runs with nodejs_compat, where these built-ins are stubs: fs is an in-memory ' +
        'file system of the isolate (no file of the machine, nothing kept), child_process and ' +
        'worker_threads throw "not implemented", dns resolves nothing. (crypto, async_hooks, path, ' +
        'stream, zlib, http do work there.)',
      from: { path: WORKER_ENTRY },
      to: { path: WORKER_BROKEN_BUILTINS, reachable: true },
    },
    {
      name: 'worker-not-edge-agent',
      severity: 'error',
      comment:
        'The edge agent (lib/edge-agent/) is Node code for the edge: its files on disk, its own ' +
        'clients. What the center shares with it lives in lib/edge/ (the protocol) or lower.',
      from: { path: WORKER_ENTRY },
      to: { path: '^lib/edge-agent/', reachable: true },
    },
    {
      name: 'not-to-unresolvable',
      severity: 'error',
      comment: 'An import that resolves to no file or package.',
      from: {},
      to: { couldNotResolve: true },
    },
  ],
  options: {
    parser: 'swc',
    doNotFollow: { path: 'node_modules' },
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      mainFields: ['module', 'main', 'types', 'typings'],
    },
  },
}

/**
 * The `npm start -- --help` text: what the local stack starts, the environment variables it
 * honours and the files it keeps in the data folder.
 */

export const USAGE = `Usage: npm start [-- --help]

Starts the edgeplane center locally and keeps it running until Ctrl-C or SIGTERM:
  - dynalite (local DynamoDB) on a free loopback port, data kept in $EDGEPLANE_DATA/dynalite
  - the table (created if missing) and the hub bootstrap: spaces root and root:espw, admin token
  - the hub on https://127.0.0.1:$EDGEPLANE_PORT, with a self-signed certificate the kubeconfig
    trusts (kubectl sends tokens only over https): a front in this process that refuses
    dot-segment paths and other raw request-targets, and behind it wrangler dev running the
    Worker (functions/index.ts, wrangler.toml's "local" environment) on a free loopback http
    port; restarted when wrangler or its workerd dies (EDGEPLANE_HUB_RESTARTS times in a row at
    most, then the stack stops with the reason)
  - a cron ticker calling the Worker's scheduled() every minute, or every EDGEPLANE_CRON_PERIOD
    seconds (change-log sweep, terminations, resync)
  - the watch relay (infra/relay/main.ts): watches the hub and posts reconcile keys to its hooks
    (mailbox, where, translate); restarted with backoff if it dies; EDGEPLANE_RELAY=off leaves it out
  - simulated edge clusters (default two: florin env=prod, guilder env=prod extended=si), each a
    kube-compatible API on https://127.0.0.1:<free port> with a workload simulator, registered as
    a SyncTarget and a Location in root:imw-1, joined through the edge bootstrap (the manifests
    are applied to it and its agent reads the token from the Secret they hold), with its own edge
    agent polling the center; both restarted with backoff if they die
The hub also serves the dashboard at https://127.0.0.1:$EDGEPLANE_PORT/ui/ (sign in with a token,
e.g. the admin token in $EDGEPLANE_DATA/admin-token).
When ready it prints one line with the hub URL, the dashboard URL and the kubeconfig path; logs
(JSON) go to stderr,
wrangler's output to $EDGEPLANE_DATA/wrangler.log, the relay's to $EDGEPLANE_DATA/relay.log and
each edge's to $EDGEPLANE_DATA/edges/<name>/edge.log and agent.log.
Stopping keeps all data; the next start reuses the table, the admin token, the certificate and
every object (the relay resumes from its saved watch cursors, each edge keeps its objects and
its agent its credential and state).

Environment:
  EDGEPLANE_PORT   hub port on 127.0.0.1 (default 8787); other ports are picked free
  EDGEPLANE_DATA   data folder (default .edgeplane/)
  TABLE_NAME       DynamoDB table name (default edgeplane)
  LOG_LEVEL        debug | info | warn | error (default info), for this program, the Worker and
                   the relay
  EDGEPLANE_RELAY  on | off (default on): run the watch relay
  EDGEPLANE_EDGES  the simulated edges, comma-separated name[:key=value]... (default
                   florin:env=prod,guilder:env=prod:extended=si; empty: none). Each gets a
                   SyncTarget (labels loc-name=<name>, id=<name> and the given ones) and a Location
                   (loc-name=<name> and the given ones, instanceSelector id=<name>) in root:imw-1
                   and a kubeconfig context named after it
  EDGEPLANE_POLL_INTERVAL  seconds between the edge agents' polls (default 2)
  EDGEPLANE_AGENT_TIMEOUT  seconds the edge agents wait for each answer of the center before
                   counting it unreachable (their --center-timeout; default 30, 1 to 120)
  EDGEPLANE_HUB_RESTARTS   restarts in a row of a dead hub before the stack stops (default 3;
                   0: stop at once)
  EDGEPLANE_CRON_PERIOD    seconds between the local cron ticks (sweeps, resync; default 60,
                   like the deployed cron)
  EDGEPLANE_EDGE_FAULTS    failures the simulated edges are told to have (default none):
                   <edge>=<faults>;..., each <faults> a comma-separated list of image-pull,
                   crash-loop or job-fail, each optionally @<image glob>, e.g.
                   florin=crash-loop@*:bad (the edge simulator's --faults)
  EDGEPLANE_STALE_AFTER    seconds of silence after which an edge is stale (default 180, 3 to
                   86400): the Worker's and relay's EDGE_STALE_AFTER_SECONDS, and the agents
                   send a heartbeat every third of it (at most every 60 s) to stay live
  EDGEPLANE_HOLD_MAX       the longest hold the Worker grants an edge's desired-state poll,
                   seconds (its EDGE_HOLD_MAX_SECONDS; default 300, 0 to 370; 0: no holds)
  EDGEPLANE_HOLD_SECONDS   the hold the edge agents ask (their --hold-seconds; default 300, 0 to
                   370; 0: plain polls every EDGEPLANE_POLL_INTERVAL)
  EDGEPLANE_PROGRAMS       bundles (default): the relay, edges and agents run from bundles built
                   as their images' are, and the Worker as wrangler deploy builds it, cached in
                   node_modules/.cache/edgeplane/programs/ (rebuilt at the next start when a
                   source changes); source: from their TypeScript sources, the Worker bundled
                   by wrangler dev (which rebuilds it on edits)

Files in the data folder (created 0700, its files readable by their owner only):
  admin-token      the admin bearer token (mode 0600), generated on first start
  kubeconfig       contexts root (current), root:espw and one per edge (mode 0600)
  tls/             cert.pem (the hub's certificate, also its CA) and key.pem (mode 0600)
  stack.json       URLs, ports (dynalite endpoint, inspector) and pids of the running stack
                   and of each edge (edges[]: url, mailbox, pid, agentPid); pids are rewritten
                   when a child restarts: kill the relay or an agent to test a restart
  dynalite/        the stored objects, spaces and tokens
  wrangler/        wrangler dev state (--persist-to)
  wrangler.log     wrangler and Worker output
  relay.log        the watch relay's output
  edges/<name>/    per edge: kubeconfig and admin-token of its API, credentials/ (token and CA
                   read from its edgeplane-agent Secret), agent/ (the agent's state), edge.log,
                   agent.log
  lock             pid of the program owning the folder, while it runs

Examples:
  npm start
  KUBECONFIG=.edgeplane/kubeconfig kubectl get workspaces
  curl --cacert .edgeplane/tls/cert.pem -H "Authorization: Bearer $(cat .edgeplane/admin-token)" \\
    https://127.0.0.1:8787/clusters/root/api/v1/namespaces
  EDGEPLANE_PORT=8800 EDGEPLANE_DATA=/tmp/second npm start   # a second stack alongside
  EDGEPLANE_RELAY=off npm start                                # no relay: steps run only by cron
  EDGEPLANE_EDGES='a:env=prod,b:env=dev' npm start              # other edges; '' for none
  KUBECONFIG=.edgeplane/kubeconfig kubectl --context florin get deploy -A
`

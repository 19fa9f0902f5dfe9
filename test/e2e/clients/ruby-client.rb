# ruby-kubeclient (Debian's ruby-kubeclient) against an edgeplane hub, used as its README shows:
# Kubeclient::Client.new(url, version, ssl_options:, auth_options: { bearer_token: }), the
# generated create/get/update/patch/json_patch/merge_patch/delete methods for namespaces and
# config maps, watch_config_maps (which watches through the legacy
# /api/v1/watch/namespaces/<ns>/configmaps path), and clients for /apis/tenancy.kcp.io (to make a
# workspace) and /apis/edge.kcp.io on that workspace.
#
# Run with /usr/bin/ruby:  ruby-client.rb SERVER TOKEN CA_FILE NAMESPACE WORKSPACE
# SERVER is the root workspace's URL (https://host:port/clusters/root). Prints one JSON object per
# line, {"step": ...}; a step that raised prints {"step", "error", "status"} and the script goes on.
require 'json'
require 'kubeclient'

SERVER, TOKEN, CA_FILE, NS, WS = ARGV
WATCH_SECONDS = 30
BASE = SERVER[0...SERVER.index('/clusters/')]

def emit(step, fields = {})
  puts({ step: step }.merge(fields).to_json)
  $stdout.flush
end

def step(name)
  yield
rescue Kubeclient::HttpError => e
  emit(name, error: e.message, status: e.error_code)
rescue StandardError => e
  emit(name, error: "#{e.class}: #{e.message}", status: nil)
end

# The HTTP status a call answers: 200 when it returns, the HttpError's code otherwise.
def status_of
  yield
  200
rescue Kubeclient::HttpError => e
  e.error_code
end

def client_for(url, version)
  Kubeclient::Client.new(
    url, version,
    ssl_options: { ca_file: CA_FILE, verify_ssl: OpenSSL::SSL::VERIFY_PEER },
    auth_options: { bearer_token: TOKEN }
  )
end

# Watches with `watcher` until `stop_after` says so or WATCH_SECONDS pass; the first notice about
# `marker` (its synthetic ADDED) says the watch is running, and runs `changes` once.
def watch_events(watcher, marker, changes)
  events = []
  timer = Thread.new do
    sleep WATCH_SECONDS
    watcher.finish
  end
  changed = nil
  begin
    watcher.each do |notice|
      name = notice.object.metadata.name
      if name == marker
        changed ||= Thread.new { changes.call }
        next
      end
      events << { type: notice.type, name: name, object: notice.object.to_h }
      watcher.finish if notice.type == 'DELETED'
    end
  rescue StandardError => e
    events << { type: 'ERROR', error: "#{e.class}: #{e.message}" }
  ensure
    timer.kill
  end
  changed&.join
  events
end

# A watch event on an EdgePlacement, summed up: type, name and its first selector's env label.
def placement_event(event)
  env = event.dig(:object, :spec, :locationSelectors, 0, :matchLabels, :env)
  { type: event[:type], name: event[:name], env: env, error: event[:error] }.compact
end

core = client_for("#{SERVER}/api", 'v1')

step('discovery') do
  core.discover
  emit('discovery', api_version: core.api_valid?,
       config_map_methods: %w[get_config_map get_config_maps create_config_map watch_config_maps]
                             .all? { |m| core.respond_to?(m) })
end

step('namespace.create') do
  made = core.create_namespace(Kubeclient::Resource.new(metadata: { name: NS }))
  emit('namespace.create', name: made.metadata.name, kind: made.kind, phase: made.status&.phase)
end

step('namespace.update') do
  core.patch_namespace(NS, { metadata: { labels: { team: 'rb' } } })
  got = core.get_namespace(NS)
  got.metadata.labels.tier = 'gold'
  updated = core.update_namespace(got)
  emit('namespace.update', labels: updated.metadata.labels.to_h)
end

step('configmap.create') do
  made = core.create_config_map(Kubeclient::Resource.new(
    metadata: { name: 'cm1', namespace: NS, labels: { app: 'rb' } }, data: { a: '1' }
  ))
  emit('configmap.create', name: made.metadata.name, kind: made.kind, data: made.data.to_h,
       resource_version: made.metadata.resourceVersion)
  again = Kubeclient::Resource.new(metadata: { name: 'cm1', namespace: NS }, data: { a: 'x' })
  emit('configmap.create-again', status: status_of { core.create_config_map(again) })
end

step('configmap.get') do
  got = core.get_config_map('cm1', NS)
  listed = core.get_config_maps(namespace: NS, label_selector: 'app=rb')
  emit('configmap.get', data: got.data.to_h, labels: got.metadata.labels.to_h,
       listed: listed.map { |c| c.metadata.name }, list_version: listed.resourceVersion,
       missing: status_of { core.get_config_map('nope', NS) })
end

step('configmap.update') do
  got = core.get_config_map('cm1', NS)
  got.data.a = '2'
  updated = core.update_config_map(got)
  # A fresh resource without kind, apiVersion or resourceVersion, as kubeclient allows.
  fresh = Kubeclient::Resource.new(
    metadata: { name: 'cm1', namespace: NS, labels: { app: 'rb' } }, data: { a: '3' }
  )
  again = core.update_config_map(fresh)
  got.data.a = 'stale'
  emit('configmap.update', data: updated.data.to_h, fresh_data: again.data.to_h,
       stale_status: status_of { core.update_config_map(got) })
end

step('configmap.patch') do
  strategic = core.patch_config_map('cm1', { data: { b: '2' } }, NS)
  merged = core.merge_patch_config_map('cm1', { data: { c: '3', b: nil } }, NS)
  json = core.json_patch_config_map('cm1', [{ op: 'replace', path: '/data/a', value: '4' }], NS)
  bad = status_of do
    core.json_patch_config_map('cm1', [{ op: 'test', path: '/data/a', value: 'no' }], NS)
  end
  emit('configmap.patch', strategic: strategic.data.to_h, merged: merged.data.to_h,
       json: json.data.to_h, failed_test_status: bad)
end

step('configmap.delete') do
  deleted = core.delete_config_map('cm1', NS)
  emit('configmap.delete', kind: deleted.kind,
       after: status_of { core.get_config_map('cm1', NS) })
end

step('watch') do
  core.create_config_map(Kubeclient::Resource.new(metadata: { name: 'marker', namespace: NS }))
  watcher = core.watch_config_maps(namespace: NS)
  changes = lambda do
    core.create_config_map(Kubeclient::Resource.new(
      metadata: { name: 'watched', namespace: NS }, data: { v: '1' }
    ))
    core.merge_patch_config_map('watched', { data: { v: '2' } }, NS)
    core.delete_config_map('watched', NS)
  end
  events = watch_events(watcher, 'marker', changes)
  emit('watch', events: events.map { |e| e.merge(data: e.dig(:object, :data)).except(:object) })
end

step('workspace') do
  tenancy = client_for("#{SERVER}/apis/tenancy.kcp.io", 'v1alpha1')
  tenancy.create_workspace(Kubeclient::Resource.new(metadata: { name: WS }))
  got = tenancy.get_workspace(WS)
  emit('workspace', phase: got.status&.phase, url: got.status&.URL)
end

step('edgeplacement') do
  edge = client_for("#{BASE}/clusters/root:#{WS}/apis/edge.kcp.io", 'v1alpha1')
  spec = {
    locationSelectors: [{ matchLabels: { env: 'prod' } }],
    namespaceSelector: { matchLabels: { app: 'rb' } }
  }
  edge.create_edge_placement(Kubeclient::Resource.new(metadata: { name: 'marker' }, spec: spec))
  made = nil
  got = nil
  patched = nil
  listed = nil
  changes = lambda do
    made = edge.create_edge_placement(Kubeclient::Resource.new(metadata: { name: 'rb-ep' },
                                                               spec: spec))
    got = edge.get_edge_placement('rb-ep')
    patched = edge.merge_patch_edge_placement(
      'rb-ep', { spec: { locationSelectors: [{ matchLabels: { env: 'edge' } }] } }
    )
    listed = edge.get_edge_placements
    edge.delete_edge_placement('rb-ep')
  end
  events = watch_events(edge.watch_edge_placements, 'marker', changes)
  root_edge = client_for("#{SERVER}/apis/edge.kcp.io", 'v1alpha1')
  emit('edgeplacement', kind: made&.kind, generation: made&.metadata&.generation,
       read: got&.spec&.locationSelectors&.first&.matchLabels&.env,
       patched: patched&.spec&.to_h, patched_generation: patched&.metadata&.generation,
       listed: listed&.map { |p| p.metadata.name }&.sort,
       in_root: root_edge.get_edge_placements.map { |p| p.metadata.name },
       after: status_of { edge.get_edge_placement('rb-ep') },
       events: events.map { |e| placement_event(e) })
end

step('namespace.delete') do
  core.delete_namespace(NS)
  deadline = Time.now + 30
  status = 200
  while status == 200 && Time.now < deadline
    status = status_of { core.get_namespace(NS) }
    sleep 0.5 if status == 200
  end
  emit('namespace.delete', after: status)
end

emit('done')

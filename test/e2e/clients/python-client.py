"""The official Kubernetes Python client (Debian's python3-kubernetes) against an edgeplane hub,
used as its documentation shows: typed models through CoreV1Api and AppsV1Api (which send creates
without apiVersion/kind), watch.Watch().stream over a list function, and the DynamicClient for a
ConfigMap and for an EdgePlacement in a workspace reached through its /clusters/<path> URL.

Run with /usr/bin/python3 (where Debian's modules load):
    python-client.py KUBECONFIG NAMESPACE WORKSPACE
Prints one JSON object per line, {"step": ..., ...}; a step that raised prints {"step", "error",
"status"} instead, and the script goes on with the next step. The e2e test asserts on these lines.
"""
import json
import sys
import threading
import time

from kubernetes import client, config, dynamic, watch
from kubernetes.client.rest import ApiException

KUBECONFIG, NS, WS = sys.argv[1], sys.argv[2], sys.argv[3]
WATCH_SECONDS = 30


def emit(step, **fields):
    print(json.dumps({"step": step, **fields}, default=str), flush=True)


def step(name):
    """Runs the decorated function at once as one step; an exception becomes an error line."""

    def run(fn):
        try:
            fn()
        except ApiException as e:
            emit(name, error=(e.reason or "ApiException"), status=e.status, body=e.body)
        except Exception as e:  # noqa: BLE001 - any failure is a result to report
            emit(name, error=f"{type(e).__name__}: {e}", status=None)
        return fn

    return run


def status_of(fn):
    """The HTTP status a call answers: 200 when it returns, the ApiException's status otherwise."""
    try:
        fn()
        return 200
    except ApiException as e:
        return e.status


config.load_kube_config(config_file=KUBECONFIG)
v1 = client.CoreV1Api()
apps = client.AppsV1Api()


@step("namespace.create")
def _():
    made = v1.create_namespace(client.V1Namespace(metadata=client.V1ObjectMeta(name=NS)))
    emit("namespace.create", name=made.metadata.name, uid=made.metadata.uid,
         api_version=made.api_version, kind=made.kind, phase=made.status.phase)


@step("namespace.patch")
def _():
    v1.patch_namespace(NS, {"metadata": {"labels": {"team": "py"}}})
    got = v1.read_namespace(NS)
    emit("namespace.patch", labels=got.metadata.labels)


@step("configmap.create")
def _():
    body = client.V1ConfigMap(
        metadata=client.V1ObjectMeta(name="cm1", labels={"app": "py"}), data={"a": "1"})
    made = v1.create_namespaced_config_map(NS, body)
    emit("configmap.create", name=made.metadata.name, namespace=made.metadata.namespace,
         kind=made.kind, api_version=made.api_version, data=made.data,
         resource_version=made.metadata.resource_version)


@step("configmap.create-again")
def _():
    body = client.V1ConfigMap(metadata=client.V1ObjectMeta(name="cm1"), data={"a": "x"})
    emit("configmap.create-again",
         status=status_of(lambda: v1.create_namespaced_config_map(NS, body)))


@step("configmap.read")
def _():
    got = v1.read_namespaced_config_map("cm1", NS)
    emit("configmap.read", data=got.data, labels=got.metadata.labels, uid=got.metadata.uid)


@step("configmap.list")
def _():
    listed = v1.list_namespaced_config_map(NS, label_selector="app=py")
    emit("configmap.list", names=[i.metadata.name for i in listed.items],
         resource_version=listed.metadata.resource_version)


@step("configmap.replace")
def _():
    current = v1.read_namespaced_config_map("cm1", NS)
    current.data = {"a": "2"}
    replaced = v1.replace_namespaced_config_map("cm1", NS, current)
    # A fresh typed model, as a user writes it: no apiVersion, kind or resourceVersion.
    fresh = client.V1ConfigMap(
        metadata=client.V1ObjectMeta(name="cm1", labels={"app": "py"}), data={"a": "3"})
    again = v1.replace_namespaced_config_map("cm1", NS, fresh)
    stale = client.V1ConfigMap(
        metadata=client.V1ObjectMeta(name="cm1", resource_version=current.metadata.resource_version),
        data={"a": "stale"})
    emit("configmap.replace", data=replaced.data, fresh_data=again.data,
         stale_status=status_of(lambda: v1.replace_namespaced_config_map("cm1", NS, stale)),
         rv_grew=int(again.metadata.resource_version) > int(replaced.metadata.resource_version))


@step("configmap.patch-strategic")
def _():
    # A dict body: the client sends application/strategic-merge-patch+json.
    patched = v1.patch_namespaced_config_map("cm1", NS, {"data": {"b": "2"}})
    emit("configmap.patch-strategic", data=patched.data)


@step("configmap.patch-json")
def _():
    # A list body: the client sends application/json-patch+json.
    patched = v1.patch_namespaced_config_map(
        "cm1", NS, [{"op": "replace", "path": "/data/a", "value": "4"}])
    emit("configmap.patch-json", data=patched.data)


@step("configmap.delete")
def _():
    deleted = v1.delete_namespaced_config_map("cm1", NS)
    emit("configmap.delete", kind=deleted.kind if hasattr(deleted, "kind") else None,
         read_status=status_of(lambda: v1.read_namespaced_config_map("cm1", NS)))


@step("watch")
def _():
    events = []
    bookmarks = []
    ready = threading.Event()
    done = threading.Event()
    w = watch.Watch()

    def consume():
        try:
            for ev in w.stream(v1.list_namespaced_config_map, NS, timeout_seconds=WATCH_SECONDS,
                               allow_watch_bookmarks=True):
                if ev["type"] == "BOOKMARK":  # left undecoded by the client: a dict
                    bookmarks.append(ev["raw_object"]["metadata"]["resourceVersion"])
                    continue
                obj = ev["object"]
                name = obj.metadata.name
                if name == "marker":
                    ready.set()
                    continue
                events.append({"type": ev["type"], "name": name, "data": obj.data,
                               "kind": type(obj).__name__})
                if ev["type"] == "DELETED" and name == "watched":
                    w.stop()
        except Exception as e:  # noqa: BLE001
            events.append({"type": "ERROR", "error": f"{type(e).__name__}: {e}"})
            ready.set()
        finally:
            done.set()

    # An object that exists before the watch: its synthetic ADDED says the watch is running.
    v1.create_namespaced_config_map(
        NS, client.V1ConfigMap(metadata=client.V1ObjectMeta(name="marker")))
    t = threading.Thread(target=consume, daemon=True)
    t.start()
    if not ready.wait(WATCH_SECONDS):
        emit("watch", error="the watch delivered nothing", status=None, events=events)
        w.stop()
        return
    body = client.V1ConfigMap(metadata=client.V1ObjectMeta(name="watched"), data={"v": "1"})
    v1.create_namespaced_config_map(NS, body)
    v1.patch_namespaced_config_map("watched", NS, {"data": {"v": "2"}})
    v1.delete_namespaced_config_map("watched", NS)
    done.wait(WATCH_SECONDS + 5)
    emit("watch", events=events, finished=done.is_set(), bookmarks=bookmarks)


@step("dynamic.configmap")
def _():
    dyn = dynamic.DynamicClient(client.ApiClient())
    cms = dyn.resources.get(api_version="v1", kind="ConfigMap")
    made = cms.create(body={"apiVersion": "v1", "kind": "ConfigMap",
                            "metadata": {"name": "dyn"}, "data": {"x": "1"}}, namespace=NS)
    merged = cms.patch(body={"data": {"y": "2"}}, name="dyn", namespace=NS,
                       content_type="application/merge-patch+json")
    got = cms.get(name="dyn", namespace=NS)
    listed = cms.get(namespace=NS)
    # This client version sends application/apply-patch+yaml only for a body given as text.
    applied = cms.server_side_apply(
        body=json.dumps({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "dyn"},
                         "data": {"z": "3"}}),
        name="dyn", namespace=NS, field_manager="py-apply")
    managers = sorted(m.manager for m in applied.metadata.managedFields)
    cms.delete(name="dyn", namespace=NS)
    emit("dynamic.configmap", created=made.metadata.name, merged=dict(merged.data),
         read=dict(got.data), listed=sorted(i.metadata.name for i in listed.items),
         applied=dict(applied.data), apply_managers=managers,
         after_delete=status_of(lambda: cms.get(name="dyn", namespace=NS)))


@step("dynamic.workspace")
def _():
    dyn = dynamic.DynamicClient(client.ApiClient())
    wss = dyn.resources.get(api_version="tenancy.kcp.io/v1alpha1", kind="Workspace")
    wss.create(body={"apiVersion": "tenancy.kcp.io/v1alpha1", "kind": "Workspace",
                     "metadata": {"name": WS}})
    got = wss.get(name=WS)
    emit("dynamic.workspace", phase=got.status.phase, url=got.status.URL)


@step("dynamic.edgeplacement")
def _():
    cfg = client.Configuration()
    config.load_kube_config(config_file=KUBECONFIG, client_configuration=cfg)
    root = cfg.host
    cfg.host = root[: root.index("/clusters/")] + f"/clusters/root:{WS}"
    dyn = dynamic.DynamicClient(client.ApiClient(cfg))
    eps = dyn.resources.get(api_version="edge.kcp.io/v1alpha1", kind="EdgePlacement")
    events = []
    ready = threading.Event()
    done = threading.Event()
    w = watch.Watch()
    body = {"apiVersion": "edge.kcp.io/v1alpha1", "kind": "EdgePlacement",
            "metadata": {"name": "py-ep"},
            "spec": {"locationSelectors": [{"matchLabels": {"env": "prod"}}],
                     "namespaceSelector": {"matchLabels": {"app": "py"}}}}
    eps.create(body={**body, "metadata": {"name": "marker"}})

    def consume():
        try:
            for ev in eps.watch(timeout=WATCH_SECONDS, watcher=w):
                name = ev["object"].metadata.name
                if name == "marker":
                    ready.set()
                    continue
                spec = ev["raw_object"].get("spec", {})
                events.append({"type": ev["type"], "name": name,
                               "selectors": spec.get("locationSelectors")})
                if ev["type"] == "DELETED":
                    w.stop()
        except Exception as e:  # noqa: BLE001
            events.append({"type": "ERROR", "error": f"{type(e).__name__}: {e}"})
            ready.set()
        finally:
            done.set()

    threading.Thread(target=consume, daemon=True).start()
    ready.wait(WATCH_SECONDS)
    made = eps.create(body=body)
    got = eps.get(name="py-ep")
    patched = eps.patch(body={"spec": {"locationSelectors": [{"matchLabels": {"env": "edge"}}]}},
                        name="py-ep", content_type="application/merge-patch+json")
    listed = eps.get()
    eps.delete(name="py-ep")
    done.wait(WATCH_SECONDS + 5)
    root_dyn = dynamic.DynamicClient(client.ApiClient())
    root_eps = root_dyn.resources.get(api_version="edge.kcp.io/v1alpha1", kind="EdgePlacement")
    emit("dynamic.edgeplacement", host=cfg.host, generation=made.metadata.generation,
         read=got.spec.locationSelectors[0].matchLabels.env,
         patched=patched.to_dict()["spec"],
         patched_generation=patched.metadata.generation,
         listed=sorted(i.metadata.name for i in listed.items),
         in_root=sorted(i.metadata.name for i in root_eps.get().items),
         after_delete=status_of(lambda: eps.get(name="py-ep")),
         events=events, finished=done.is_set())


@step("deployment")
def _():
    labels = {"app": "web"}
    dep = client.V1Deployment(
        metadata=client.V1ObjectMeta(name="web"),
        spec=client.V1DeploymentSpec(
            replicas=2,
            selector=client.V1LabelSelector(match_labels=labels),
            template=client.V1PodTemplateSpec(
                metadata=client.V1ObjectMeta(labels=labels),
                spec=client.V1PodSpec(containers=[
                    client.V1Container(name="web", image="nginx:1.25"),
                    client.V1Container(name="side", image="busybox:1.36"),
                ]))))
    made = apps.create_namespaced_deployment(NS, dep)
    # Strategic merge: containers merge by name, so the image of "web" changes and "side" stays.
    patched = apps.patch_namespaced_deployment("web", NS, {"spec": {"template": {"spec": {
        "containers": [{"name": "web", "image": "nginx:1.27"}]}}}})
    scaled = apps.patch_namespaced_deployment_scale("web", NS, {"spec": {"replicas": 3}})
    got = apps.read_namespaced_deployment("web", NS)
    apps.delete_namespaced_deployment("web", NS)
    emit("deployment", kind=made.kind, replicas=made.spec.replicas,
         containers=[[c.name, c.image] for c in patched.spec.template.spec.containers],
         scale_kind=scaled.kind, replicas_after_scale=got.spec.replicas,
         after_delete=status_of(lambda: apps.read_namespaced_deployment("web", NS)))


@step("namespace.delete")
def _():
    v1.delete_namespace(NS)
    deadline = time.time() + 30
    status = status_of(lambda: v1.read_namespace(NS))
    while status == 200 and time.time() < deadline:
        time.sleep(0.5)
        status = status_of(lambda: v1.read_namespace(NS))
    emit("namespace.delete", read_status=status)


emit("done")

# SPDX-License-Identifier: Apache-2.0
"""Conformance cases: extended resources (nvidia.com/gpu and the like) as the API server admits
them (requests defaulted from limits, requests equal to limits, whole numbers)."""


def register(g):
    globals().update({k: v for k, v in g.items() if not k.startswith("__")})
    GPU_RES = "nvidia.com/gpu"

    def plugin_nodes(a, b):
        return [node("node-a", extra={GPU_RES: a}), node("node-b", extra={GPU_RES: b})]

    # ---- admission: requests default to limits (SetDefaults_Pod) ----
    case("extended-resource-limits-only", "a container with only limits asks for its limits: nvidia.com/gpu 2",
         plugin_nodes("1", "2") + [pod("p1", limits={GPU_RES: "2"}), pod("p2", limits={GPU_RES: "2"})],
         ["pod p1 node node-b", "pod p2 pending " + pending(2, "2 Insufficient nvidia.com/gpu")])
    case("cpu-limits-only", "cpu and memory limits without requests are requests too",
         [node("node-a", cpu="4"), node("node-b", cpu="8")]
         + [pod("p1", limits={"cpu": "6", "memory": "1Gi"}), pod("p2", limits={"cpu": "6"})],
         ["pod p1 node node-b", "pod p2 pending " + pending(2, "2 Insufficient cpu")])
    case("cpu-request-below-limit-kept", "a cpu request below its limit stays: only missing requests are defaulted",
         [node("node-a", cpu="4")] + [pod("p", cpu="2", limits={"cpu": "6"})],
         ["pod p node node-a"])

    # ---- validation (ValidateResourceRequirements) ----
    case("extended-resource-request-not-limit", "an extended resource cannot be overcommitted: request must equal limit",
         plugin_nodes("2", "2") + [pod("p", requests={GPU_RES: "1"}, limits={GPU_RES: "2"})],
         ["error Pod default/p: spec.containers[0].resources.requests: Invalid value: \"1\": "
          "must be equal to nvidia.com/gpu limit of 2"])
    case("extended-resource-request-without-limit", "an extended resource request needs a limit",
         plugin_nodes("2", "2") + [pod("p", requests={GPU_RES: "1"})],
         ["error Pod default/p: spec.containers[0].resources.limits: Required value: "
          "Limit must be set for non overcommitable resources"])
    case("extended-resource-fraction", "extended resources are whole numbers",
         plugin_nodes("2", "2") + [pod("p", limits={GPU_RES: "500m"})],
         ["error Pod default/p: spec.containers[0].resources.limits[nvidia.com/gpu]: Invalid value: 500m: "
          "must be an integer"])
    case("cpu-request-above-limit", "cpu may be overcommitted, but a request above its limit is invalid",
         [node("node-a")] + [pod("p", cpu="2", limits={"cpu": "1"})],
         ["error Pod default/p: spec.containers[0].resources.requests: Invalid value: \"2\": "
          "must be less than or equal to cpu limit of 1"])

    # ---- extended resources backed by DRA (§6.8): the special claim ----
    def gpu_class(ext=GPU_RES, name="gpu.example.com"):
        c = cls(name, driver=GPU)
        if ext:
            c["spec"]["extendedResourceName"] = ext
        return c

    def special(p):
        return p + "-extended-resources-00000"

    case("extended-resource-via-dra", "a node that does not advertise nvidia.com/gpu serves it from the class that names it",
         [node("node-a"), gpu_class(), gpus("node-a"), pod("p", limits={GPU_RES: "2"})],
         ["pod p node node-a",
          "claim " + special("p") + " devices container-0-request-0=node-a/gpu-0,container-0-request-0=node-a/gpu-1",
          "claim " + special("p") + " reserved p"])
    case("extended-resource-device-plugin-first", "a node advertising the resource is checked by count, never through DRA",
         [node("node-a", extra={GPU_RES: "1"}), node("node-b"), gpu_class(), gpus("node-a"), gpus("node-b"),
          pod("p1", limits={GPU_RES: "2"}), pod("p2", limits={GPU_RES: "2"})],
         ["pod p1 node node-b",
          "claim " + special("p1") + " devices container-0-request-0=node-b/gpu-0,container-0-request-0=node-b/gpu-1",
          "pod p2 pending " + pending(2, "1 Insufficient nvidia.com/gpu", "1 cannot allocate all claims"),
          "claim " + special("p2") + " absent"])
    case("extended-resource-implicit-class-name", "deviceclass.resource.kubernetes.io/<class> asks a class that names no resource",
         [node("node-a"), gpu_class(ext=None), gpus("node-a"),
          pod("p", limits={"deviceclass.resource.kubernetes.io/gpu.example.com": "1"})],
         ["pod p node node-a", "claim " + special("p") + " devices container-0-request-0=node-a/gpu-0"])
    case("extended-resource-after-pod-claims", "the special claim is allocated after the pod's own claims",
         [node("node-a"), gpu_class(), gpus("node-a"), ONE_GPU,
          pod("p", templates=[("gpu", "one-gpu")], limits={GPU_RES: "1"})],
         ["pod p node node-a", "claim p-gpu devices gpu=node-a/gpu-0",
          "claim " + special("p") + " devices container-0-request-0=node-a/gpu-1",
          "claim " + special("p") + " reserved p"])
    case("extended-resource-not-enough-devices", "too few devices behind the class: the DRA filter rejects the node",
         [node("node-a"), gpu_class(), gpus("node-a"), pod("p", limits={GPU_RES: "3"})],
         ["pod p pending " + pending(1, "1 cannot allocate all claims"), "claim " + special("p") + " absent"])
    case("extended-resource-no-class", "without a class naming the resource, a node that does not advertise it is short",
         [node("node-a"), gpu_class(ext="example.com/other"), gpus("node-a"), pod("p", limits={GPU_RES: "1"})],
         ["pod p pending " + pending(1, "1 Insufficient nvidia.com/gpu")])

    # Request names: container index counts init containers first; the resource's index is its
    # place among the container's sorted request names; an init container reuses the devices of
    # the regular containers before asking for its own.
    multi = pod("p")
    multi["spec"]["initContainers"] = [
        {"name": "init", "image": "registry.k8s.io/pause:3.10", "resources": {"limits": {GPU_RES: "1"}}}]
    multi["spec"]["containers"] = [
        {"name": "main", "image": "registry.k8s.io/pause:3.10",
         "resources": {"requests": {"cpu": "1"}, "limits": {GPU_RES: "1"}}},
        {"name": "side", "image": "registry.k8s.io/pause:3.10", "resources": {"limits": {GPU_RES: "1"}}}]
    case("extended-resource-request-names", "one request per container and resource, named as kube-scheduler names them",
         [node("node-a"), gpu_class(), gpus("node-a", 3), multi],
         ["pod p node node-a",
          "claim " + special("p") + " devices container-1-request-1=node-a/gpu-0,container-2-request-0=node-a/gpu-1"])
    big_init = pod("q")
    big_init["spec"]["initContainers"] = [
        {"name": "warmup", "image": "registry.k8s.io/pause:3.10", "resources": {"limits": {GPU_RES: "3"}}}]
    big_init["spec"]["containers"] = [
        {"name": "main", "image": "registry.k8s.io/pause:3.10", "resources": {"limits": {GPU_RES: "1"}}}]
    case("extended-resource-init-container-extra", "an init container needing more than the regular containers asks for the difference",
         [node("node-a"), gpu_class(), gpus("node-a", 3), big_init],
         ["pod q node node-a",
          "claim " + special("q") + " devices container-0-request-0=node-a/gpu-0,container-0-request-0=node-a/gpu-1,"
          "container-1-request-0=node-a/gpu-2"])

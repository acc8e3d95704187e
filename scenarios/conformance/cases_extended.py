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

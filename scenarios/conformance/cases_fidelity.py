# SPDX-License-Identifier: Apache-2.0
"""Conformance cases: corners where randomized checking found drasim and Kubernetes apart (All-mode
step order, the visit order of pools that are not usable, the claim limit on nodes without free
devices)."""


def register(g):
    globals().update({k: v for k, v in g.items() if not k.startswith("__")})
    N1 = [node("node-1")]

    # §3.5 step 6 / §3.6: an All slot runs in-use, counters, taints, constraints, then capacity. A
    # share that an earlier request of the claim used up does not hide the constraint violation.
    case("all-mode-constraint-before-capacity",
         "an All slot checks constraints before capacity: the violation is an error even on a used-up share",
         N1 + [NIC_CLASS, rslice("s", NIC, "pool", [dev("nic-0", cap={"bandwidth": "4"}, multi=True)], node="node-1"),
               claim("c", [req("a", "nic.example.com"), req("b", "nic.example.com", mode="All")],
                     constraints=[match("nic.example.com/port", ["b"])]),
               pod("p", [("c", "c")])],
         ["pod p pending-contains claim default/c, request b: cannot add device nic.example.com/pool/nic-0 "
          "because a claim constraint would not be satisfied"])

    # §3.2 step 6 / §3.3: only usable pools are moved behind for binding conditions; an incomplete or
    # invalid pool keeps its place by name, so All reports the first of them by (driver, pool).
    case("all-mode-unusable-pool-order",
         "an incomplete pool with binding conditions keeps its place by name for All's error",
         N1 + [GPU_CLASS,
               rslice("s-a", GPU, "aaa", [dev("a-0", binding=(["ready"], ["failed"]))], node="node-1", count=2),
               rslice("s-b1", GPU, "bbb", [dev("b-0")], node="node-1", count=2),
               rslice("s-b2", GPU, "bbb", [dev("b-0")], node="node-1", count=2),
               claim("c", [req("gpu", "gpu.example.com", mode="All")]), pod("p", [("gpu", "c")])],
         ["pod p pending-contains claim default/c, request gpu: asks for all devices, but resource pool "
          "gpu.example.com/aaa is currently being updated"])

    # §3.4 step 3 / §3.14: the claim limit is checked before any device is looked at, on every node,
    # also on nodes without a single free device.
    case("claim-over-limit-no-devices", "33 devices exceed the claim limit even where the node has no device",
         N1 + [GPU_CLASS, claim("c", [req("gpu", "gpu.example.com", count=33)]), pod("p", [("gpu", "c")])],
         ["pod p pending-contains claim default/c: number of requested devices 33 exceeds the claim limit of 32"])
    case("claim-over-limit-all-busy", "33 devices exceed the claim limit even where every device is in use",
         N1 + [GPU_CLASS, gpus("node-1", 1),
               claim("old", [req("gpu", "gpu.example.com")], allocation=[("gpu", GPU, "node-1", "gpu-0")],
                     reserved=["x"]),
               claim("c", [req("gpu", "gpu.example.com", count=33)]), pod("p", [("gpu", "c")])],
         ["pod p pending-contains claim default/c: number of requested devices 33 exceeds the claim limit of 32"])

    # §2.5 defaulting: count is an int64 without a pointer, so a written 0 is no count; ExactCount
    # defaults it to 1 (SetDefaults_ExactDeviceRequest) and the API server accepts the claim.
    case("count-zero-defaults-to-one", "count: 0 is no count: the request gets one device",
         N1 + [GPU_CLASS, gpus("node-1", 2), claim("c", [req("gpu", "gpu.example.com", count=0)]),
               pod("p", [("gpu", "c")])],
         ["pod p node node-1", "claim c devices gpu=node-1/gpu-0"])

    # validateDeviceToleration: a toleration's key is optional for Equal too; without one it matches
    # every key with that value (ToleratesTaint), so the tainted device is usable.
    case("toleration-equal-without-key", "an Equal toleration without a key tolerates any key with its value",
         N1 + [GPU_CLASS,
               rslice("s", GPU, "node-1", [dev("gpu-0", taints=[("maintenance", "planned", "NoSchedule")])],
                      node="node-1"),
               claim("c", [req("gpu", "gpu.example.com", tolerations=[(None, "Equal", "planned")])]),
               pod("p", [("gpu", "c")])],
         ["pod p node node-1", "claim c devices gpu=node-1/gpu-0"])

    # validateRequestPolicyValidValues: every option must fit into the capacity.
    case("request-policy-option-above-capacity", "a requestPolicy option above the capacity is refused",
         N1 + [GPU_CLASS,
               rslice("s", GPU, "node-1",
                      [dev("gpu-0", cap={"memory": "8Gi"}, multi=True,
                           policy={"memory": {"default": "1Gi", "validValues": ["1Gi", "16Gi"]}})],
                      node="node-1")],
         ["error spec.devices[0].capacity[memory].requestPolicy.validValues[1]: Invalid value: \"16Gi\": "
          "option is larger than capacity value: 8Gi"])

# SPDX-License-Identifier: Apache-2.0
"""Conformance cases: what changed for DRA in Kubernetes 1.37 (resources/docs/kubernetes-versions.md),
each beside the 1.36 behaviour where the two differ."""


def register(g):
    globals().update({k: v for k, v in g.items() if not k.startswith("__")})
    N1 = [node("node-1")]
    PENDING = pending(1, "1 cannot allocate all claims")
    GPU_CONFIG_CLASS = cls("gpu.example.com", driver=GPU, config=[(GPU, {"sharing": "timeSlicing"})])

    # ---- allocation config: once per claim config, "all" left empty (kubernetes#139731/#139732) ----
    two_requests = N1 + [GPU_CONFIG_CLASS, gpus("node-1", 2),
                         claim("c", [req("r1", "gpu.example.com"), req("r2", "gpu.example.com")],
                               config=[(["r1", "r2"], GPU, {"both": True}), (["r1"], GPU, {"first": True})]),
                         pod("p", [("c", "c")])]
    case("config-1-37-covering-all-requests-names-none",
         "1.37: a config covering every request is copied once and names none; one naming r1 keeps it",
         two_requests,
         ["claim c devices r1=node-1/gpu-0,r2=node-1/gpu-1",
          "claim c config FromClass:*,FromClaim:*,FromClaim:r1"])
    case("config-1-36-every-entry-names-requests",
         "1.36: the claim config for r1 and r2 is copied once per request, every entry names its requests",
         two_requests,
         ["claim c devices r1=node-1/gpu-0,r2=node-1/gpu-1",
          "claim c config FromClass:r1+r2,FromClaim:r1+r2,FromClaim:r1+r2,FromClaim:r1"], version="1.36")
    case("config-1-37-alternatives-of-one-request-keep-names",
         "1.37: two alternatives of r1 are two names but cover one of two requests: the list stays (#139814)",
         N1 + [GPU_CLASS, gpus("node-1", 2),
               claim("c", [plist("r1", ("a", "gpu.example.com", {}), ("b", "gpu.example.com", {"count": 2})),
                           req("r2", "gpu.example.com")],
                     config=[(["r1/a", "r1/b"], GPU, {"alt": True})]),
               pod("p", [("c", "c")])],
         ["claim c devices r1/a=node-1/gpu-0,r2=node-1/gpu-1", "claim c config FromClaim:r1/a+r1/b"])
    case("config-1-37-chosen-alternative-covers-its-request",
         "1.37: a config naming the chosen alternative of the only request applies to all and names none",
         N1 + [GPU_CLASS, gpus("node-1", 1),
               claim("c", [plist("gpu", ("two", "gpu.example.com", {"count": 2}), ("one", "gpu.example.com", {}))],
                     config=[(["gpu/one"], GPU, {"mode": "single"}), (["gpu/two"], GPU, {"mode": "dual"})]),
               pod("p", [("c", "c")])],
         ["claim c devices gpu/one=node-1/gpu-0", "claim c config FromClaim:*"])

    # ---- DeviceTaintRule: GA in resource.k8s.io/v1 and on by default in 1.37 (kubernetes#138676) ----
    two = rslice("s", GPU, "pool", [dev("dev-0"), dev("dev-1")], node="node-1")
    one_gpu_claim = [claim("c", [req("gpu", "gpu.example.com")]), pod("p", [("c", "c")])]
    rule = {"driver": GPU, "device": "dev-0"}
    case("taint-rule-v1-1-37", "1.37: a resource.k8s.io/v1 DeviceTaintRule taints the device it selects",
         N1 + [GPU_CLASS, two, taint_rule("drain-dev-0", rule, version="v1")] + one_gpu_claim,
         ["pod p node node-1", "claim c devices gpu=pool/dev-1"])
    case("taint-rule-1-36-gate-off",
         "1.36: DRADeviceTaintRules is off by default, so the API server does not serve DeviceTaintRule",
         N1 + [GPU_CLASS, two, taint_rule("drain-dev-0", rule)] + one_gpu_claim,
         ['error DeviceTaintRule drain-dev-0: apiVersion: no matches for kind "DeviceTaintRule" in version '
          '"resource.k8s.io/v1beta2" (Kubernetes 1.36 serves it only with the feature gate DRADeviceTaintRules on)'],
         version="1.36")
    case("taint-rule-1-36-gate-on", "1.36 with DRADeviceTaintRules on: the v1beta2 rule taints its device",
         N1 + [GPU_CLASS, two, taint_rule("drain-dev-0", rule)] + one_gpu_claim,
         ["claim c devices gpu=pool/dev-1"], version="1.36", gates="DRADeviceTaintRules=true")
    case("taint-rule-1-35-gate-off", "1.35: DeviceTaintRule is alpha and off",
         N1 + [GPU_CLASS, two, taint_rule("drain-dev-0", rule, version="v1alpha3")] + one_gpu_claim,
         ['error DeviceTaintRule drain-dev-0: apiVersion: no matches for kind "DeviceTaintRule" in version '
          '"resource.k8s.io/v1alpha3" (Kubernetes 1.35 serves it only with the feature gate DRADeviceTaintRules on)'],
         version="1.35")

    # ---- allocator fixes of 1.37 ----
    numa = "gpu.example.com/numa"
    case("distinct-1-37-every-device-of-one-request",
         "distinctAttribute compares each device of one request with all earlier ones (#140600)",
         N1 + [GPU_CLASS, rslice("s", GPU, "pool", [dev(f"d{i + 1}", {"numa": n}) for i, n in enumerate([1, 2, 1, 3])],
                                 node="node-1"),
               claim("c", [req("gpu", "gpu.example.com", count=3)], constraints=[distinct(numa)]),
               pod("p", [("c", "c")])],
         ["claim c devices gpu=pool/d1,gpu=pool/d2,gpu=pool/d4"])

    mem = {"mem": "10Gi"}
    shared_pair = rslice("s", NIC, "pool", [dev("dev-a", cap=mem, multi=True), dev("dev-b", cap=mem, multi=True)],
                         node="node-1")
    case("all-mode-capacity-1-37-every-device-must-fit",
         "allocationMode All with a capacity request fails while one matching device lacks the room (#140769)",
         N1 + [NIC_CLASS, shared_pair,
               claim("old", [req("nic", "nic.example.com")],
                     allocation=[("nic", NIC, "pool", "dev-b",
                                  {"shareID": "11111111-2222-4333-8444-555555555555",
                                   "consumedCapacity": {"mem": "8Gi"}})], reserved=["x"]),
               claim("c", [req("nic", "nic.example.com", mode="All", capacity={"mem": "4Gi"})]),
               pod("p", [("c", "c")])],
         ["pod p pending " + PENDING, "claim c unallocated"])

    def named(d):
        return [f'device.attributes["{GPU}"].id == "{d}"']
    counters8 = {"mem": {"memory": "8"}}
    case("shared-partition-1-37-blocks-exclusive-one",
         "a shared partition holds its counters: the exclusive one on the same set waits, a second share fits "
         "(#139040, #140437)",
         N1 + [GPU_CLASS, rslice("c", GPU, "pool", node="node-1", count=2, counters=counters8),
               rslice("d", GPU, "pool", [dev("dev-a", {"id": "dev-a"}, counters=counters8, multi=True),
                                         dev("dev-b", {"id": "dev-b"}, counters=counters8)],
                      node="node-1", count=2)]
         + [claim(f"c{i}", [req("gpu", "gpu.example.com", selectors=named(d))]) for i, d in
            [(1, "dev-a"), (2, "dev-b"), (3, "dev-a")]]
         + [pod(f"p{i}", [("c", f"c{i}")]) for i in (1, 2, 3)],
         ["pod p1 node node-1", "pod p2 pending " + PENDING, "pod p3 node node-1",
          "claim c1 devices gpu=pool/dev-a", "claim c3 devices gpu=pool/dev-a"])

    # ---- DRA-backed extended resources: alpha (off) in 1.35, beta in 1.36, GA in 1.37 (#138488) ----
    ext_class = cls("gpu.example.com", driver=GPU)
    ext_class["spec"]["extendedResourceName"] = "nvidia.com/gpu"
    ext_pod = [node("node-a"), ext_class, gpus("node-a"), pod("p", limits={"nvidia.com/gpu": "1"})]
    case("extended-resource-1-35-gate-off",
         "1.35: DRAExtendedResource is off by default, so a node without nvidia.com/gpu cannot serve it",
         ext_pod, ["pod p pending " + pending(1, "1 Insufficient nvidia.com/gpu"), "claim p-extended-resources-00000 absent"],
         version="1.35")
    case("extended-resource-1-35-gate-on", "1.35 with DRAExtendedResource on: the class serves nvidia.com/gpu",
         ext_pod, ["pod p node node-a", "claim p-extended-resources-00000 devices container-0-request-0=node-a/gpu-0"],
         version="1.35", gates="DRAExtendedResource=true")
    case("all-mode-capacity-1-36-takes-the-devices-with-room",
         "1.36: allocationMode All left out a device another claim had filled and took the others",
         N1 + [NIC_CLASS, shared_pair,
               claim("old", [req("nic", "nic.example.com")],
                     allocation=[("nic", NIC, "pool", "dev-b",
                                  {"shareID": "11111111-2222-4333-8444-555555555555",
                                   "consumedCapacity": {"mem": "8Gi"}})], reserved=["x"]),
               claim("c", [req("nic", "nic.example.com", mode="All", capacity={"mem": "4Gi"})]),
               pod("p", [("c", "c")])],
         ["pod p node node-1", "claim c devices nic=pool/dev-a"], version="1.36")

    # ---- DRADeviceCompatibilityGroups (1.37 alpha, off by default; kubernetes#139795, KEP-5963) ----
    GROUPS = "DRADeviceCompatibilityGroups=true"

    def grouped(name, groups, memory="4Gi"):
        d = dev(name, {"id": name}, counters={"mem": {"memory": memory}})
        if groups is not None:
            d["consumesCounters"][0]["compatibilityGroups"] = groups
        return d

    def on_one_set(*devices, total="12Gi"):
        return [rslice("c", GPU, "pool", node="node-1", count=2, counters={"mem": {"memory": total}}),
                rslice("d", GPU, "pool", list(devices), node="node-1", count=2)]
    two_gpus = [claim("c", [req("gpu", "gpu.example.com", count=2)]), pod("p", [("c", "c")])]
    case("compat-groups-disjoint-not-together", "groups on: a mig and a vgpu partition of one GPU never go together",
         N1 + [GPU_CLASS] + on_one_set(grouped("mig-0", ["mig"]), grouped("vgpu-0", ["vgpu"])) + two_gpus,
         ["pod p pending " + PENDING, "claim c unallocated"], gates=GROUPS)
    case("compat-groups-shared-group-together", "groups on: two mig partitions share a group and are allocated",
         N1 + [GPU_CLASS] + on_one_set(grouped("mig-0", ["mig"]), grouped("vgpu-0", ["vgpu"]),
                                       grouped("mig-1", ["mig", "full"])) + two_gpus,
         ["claim c devices gpu=pool/mig-0,gpu=pool/mig-1"], gates=GROUPS)
    case("compat-groups-later-claim-rejected",
         "groups on: with mig-0 allocated, a claim for vgpu-0 on the same counter set waits though counters remain",
         N1 + [GPU_CLASS] + on_one_set(grouped("mig-0", ["mig"]), grouped("vgpu-0", ["vgpu"]))
         + [claim("c1", [req("gpu", "gpu.example.com", selectors=[f'device.attributes["{GPU}"].id == "mig-0"'])]),
            claim("c2", [req("gpu", "gpu.example.com", selectors=[f'device.attributes["{GPU}"].id == "vgpu-0"'])]),
            pod("p1", [("c", "c1")]), pod("p2", [("c", "c2")])],
         ["pod p1 node node-1", "pod p2 pending " + PENDING], gates=GROUPS)
    case("compat-groups-none-only-with-none", "groups on: a device without groups does not go with a grouped one",
         N1 + [GPU_CLASS] + on_one_set(grouped("plain-0", None), grouped("mig-0", ["mig"])) + two_gpus,
         ["pod p pending " + PENDING], gates=GROUPS)
    case("compat-groups-two-without-groups", "groups on: two devices without groups go together",
         N1 + [GPU_CLASS] + on_one_set(grouped("plain-0", None), grouped("mig-0", ["mig"]), grouped("plain-1", []))
         + two_gpus,
         ["claim c devices gpu=pool/plain-0,gpu=pool/plain-1"], gates=GROUPS)
    case("compat-groups-gate-off-dropped", "groups off (the 1.37 default): the field is cleared, counters alone decide",
         N1 + [GPU_CLASS] + on_one_set(grouped("mig-0", ["mig"]), grouped("vgpu-0", ["vgpu"])) + two_gpus,
         ["claim c devices gpu=pool/mig-0,gpu=pool/vgpu-0"])
    case("compat-groups-too-many", "at most two groups per counter consumption",
         N1 + [GPU_CLASS] + on_one_set(grouped("mig-0", ["a", "b", "c"])) + two_gpus,
         ["error spec.devices[0].consumesCounters[0].compatibilityGroups: Too many: 3: must have at most 2 items"],
         gates=GROUPS)
    case("compat-groups-duplicate", "group names are unique within one consumption",
         N1 + [GPU_CLASS] + on_one_set(grouped("mig-0", ["mig", "mig"])) + two_gpus,
         ['error spec.devices[0].consumesCounters[0].compatibilityGroups[1]: Duplicate value: "mig"'], gates=GROUPS)

    # ---- DRAOptionalNodeOperations (1.37 alpha, off by default; kubernetes#139933, KEP-5945) ----
    SKIP = "DRAOptionalNodeOperations=true"

    def declaring(name):
        n = node(name)
        n["status"]["declaredFeatures"] = ["DRAOptionalNodeOperations"]
        return n

    def skipping(ops):
        s = rslice("net", GPU, "fabric", [dev("d0")], all_nodes=True)
        s["spec"]["skipNodeOperations"] = ops
        return s
    one_claim = [claim("c", [req("gpu", "gpu.example.com")])]
    case("optional-node-ops-declaring-node",
         "skipNodeOperations: the device goes only to a node declaring DRAOptionalNodeOperations; the result copies it",
         [node("node-a"), declaring("node-b"), GPU_CLASS, skipping(["*"])] + one_claim + [pod("p", [("c", "c")])],
         ["pod p node node-b", "claim c devices gpu=fabric/d0"], gates=SKIP)
    case("optional-node-ops-pinned-elsewhere", "skipNodeOperations: a pod held to a node that does not declare it waits",
         [node("node-a", {"pin": "a"}), declaring("node-b"), GPU_CLASS, skipping(["NodePrepareResources", "NodeUnprepareResources"])]
         + one_claim + [pod("p", [("c", "c")], selector={"pin": "a"})],
         ["pod p pending-contains 1 cannot allocate all claims", "claim c unallocated"], gates=SKIP)
    case("optional-node-ops-gate-off", "DRAOptionalNodeOperations off (the default): the field is cleared, any node will do",
         [node("node-a"), declaring("node-b"), GPU_CLASS, skipping(["*"])] + one_claim + [pod("p", [("c", "c")])],
         ["pod p node node-a"])
    case("optional-node-ops-prepare-alone", "skipping NodePrepareResources needs NodeUnprepareResources too",
         [declaring("node-b"), GPU_CLASS, skipping(["NodePrepareResources"])] + one_claim + [pod("p", [("c", "c")])],
         ["error ResourceSlice net: spec.skipNodeOperations: Invalid value: NodePrepareResources may only be skipped "
          "together with NodeUnprepareResources"], gates=SKIP)
    case("optional-node-ops-unknown", "only NodePrepareResources, NodeUnprepareResources and * can be skipped",
         [declaring("node-b"), GPU_CLASS, skipping(["NodeUnprepareResources", "Attach"])] + one_claim
         + [pod("p", [("c", "c")])],
         ['error ResourceSlice net: spec.skipNodeOperations[1]: Unsupported value: "Attach"'], gates=SKIP)

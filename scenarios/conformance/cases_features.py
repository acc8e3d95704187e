# SPDX-License-Identifier: Apache-2.0
"""Conformance cases: constraints, counters, taints, consumable capacity, admin access, config,
node selectors of allocations."""


def register(g):
    globals().update({k: v for k, v in g.items() if not k.startswith("__")})
    N1 = [node("node-1")]
    ROOT = "resource.kubernetes.io/pcieRoot"

    def gpu_nic(gpu_roots, nic_roots):
        return [GPU_CLASS, NIC_CLASS,
                rslice("g", GPU, "gpus", [dev(f"gpu-{i}", {ROOT: r}) for i, r in enumerate(gpu_roots)], node="node-1"),
                rslice("n", NIC, "nics", [dev(f"nic-{i}", {ROOT: r}) for i, r in enumerate(nic_roots)], node="node-1")]

    # ---- constraints (§3.8) ----
    case("match-attribute-pcie-root", "GPU and NIC must share a PCIe root",
         N1 + gpu_nic(["pci0", "pci1"], ["pci1"])
         + [claim("c", [req("gpu", "gpu.example.com"), req("nic", "nic.example.com")], constraints=[match(ROOT)]),
            pod("p", [("c", "c")])],
         ["claim c devices gpu=gpus/gpu-1,nic=nics/nic-0"])
    case("match-attribute-backtrack-nic", "the first GPU's root has no free NIC: the search backtracks to gpu-1",
         N1 + gpu_nic(["pci0", "pci1"], ["pci1", "pci0"])
         + [claim("busy", [req("nic", "nic.example.com")], allocation=[("nic", NIC, "nics", "nic-1")], reserved=["x"]),
            claim("c", [req("gpu", "gpu.example.com"), req("nic", "nic.example.com")], constraints=[match(ROOT)]),
            pod("p", [("c", "c")])],
         ["claim c devices gpu=gpus/gpu-1,nic=nics/nic-0"])
    case("match-attribute-missing", "a device without the attribute never satisfies matchAttribute",
         N1 + [GPU_CLASS, rslice("s", GPU, "pool", [dev("d0"), dev("d1", {"model": "x"}), dev("d2", {"model": "x"})],
                                 node="node-1"),
               claim("c", [req("gpu", "gpu.example.com", count=2)], constraints=[match("gpu.example.com/model")]),
               pod("p", [("c", "c")])],
         ["claim c devices gpu=pool/d1,gpu=pool/d2"])
    case("match-attribute-type-aware", "a string never equals an int with the same spelling",
         N1 + [GPU_CLASS, rslice("s", GPU, "pool", [dev("d0", {"numa": 1}), dev("d1", {"numa": "1"}), dev("d2", {"numa": 1})],
                                 node="node-1"),
               claim("c", [req("gpu", "gpu.example.com", count=2)], constraints=[match("gpu.example.com/numa")]),
               pod("p", [("c", "c")])],
         ["claim c devices gpu=pool/d0,gpu=pool/d2"])
    case("match-attribute-version", "versions match by their text",
         N1 + [GPU_CLASS, rslice("s", GPU, "pool", [dev("d0", {"fw": "v:1.2.0"}), dev("d1", {"fw": "v:1.3.0"}),
                                                     dev("d2", {"fw": "v:1.3.0"})], node="node-1"),
               claim("c", [req("a", "gpu.example.com", selectors=['device.attributes["gpu.example.com"].fw.major() == 1 && device.attributes["gpu.example.com"].fw.minor() == 3']),
                           req("b", "gpu.example.com")], constraints=[match("gpu.example.com/fw")]),
               pod("p", [("c", "c")])],
         ["claim c devices a=pool/d1,b=pool/d2"])
    case("match-attribute-subset", "a constraint listing requests a and b does not bind request c",
         N1 + [GPU_CLASS, rslice("s", GPU, "pool", [dev("d0", {"numa": 0}), dev("d1", {"numa": 1}), dev("d2", {"numa": 0})],
                                 node="node-1"),
               claim("c", [req("a", "gpu.example.com"), req("c", "gpu.example.com"), req("b", "gpu.example.com")],
                     constraints=[match("gpu.example.com/numa", ["a", "b"])]),
               pod("p", [("c", "c")])],
         ["claim c devices a=pool/d0,c=pool/d1,b=pool/d2"])
    case("match-attribute-driver-domain", "a constraint on driver/attr finds the device's bare attribute",
         N1 + [GPU_CLASS, rslice("s", GPU, "pool", [dev("d0", {"uuid": "u0"}), dev("d1", {"uuid": "u1"}),
                                                     dev("d2", {"uuid": "u0"})], node="node-1"),
               claim("c", [req("gpu", "gpu.example.com", count=2)], constraints=[match("gpu.example.com/uuid")]),
               pod("p", [("c", "c")])],
         ["claim c devices gpu=pool/d0,gpu=pool/d2"])
    case("distinct-attribute", "two requests must land on different NUMA nodes",
         N1 + [GPU_CLASS, rslice("s", GPU, "pool", [dev("d0", {"numa": 0}), dev("d1", {"numa": 0}), dev("d2", {"numa": 1})],
                                 node="node-1"),
               claim("c", [req("x", "gpu.example.com"), req("y", "gpu.example.com")],
                     constraints=[distinct("gpu.example.com/numa")]),
               pod("p", [("c", "c")])],
         ["claim c devices x=pool/d0,y=pool/d2"])
    case("distinct-attribute-impossible", "all devices share the value: no solution",
         N1 + [GPU_CLASS, rslice("s", GPU, "pool", [dev("d0", {"numa": 0}), dev("d1", {"numa": 0})], node="node-1"),
               claim("c", [req("x", "gpu.example.com"), req("y", "gpu.example.com")],
                     constraints=[distinct("gpu.example.com/numa")]),
               pod("p", [("c", "c")])],
         ["pod p pending " + pending(1, "1 cannot allocate all claims")])
    case("distinct-attribute-three-of-one-request", "three devices of one request all differ, not just neighbours",
         N1 + [GPU_CLASS, rslice("s", GPU, "pool", [dev("d0", {"numa": 0}), dev("d1", {"numa": 1}), dev("d2", {"numa": 0}),
                                                     dev("d3", {"numa": 2})], node="node-1"),
               claim("c", [req("x", "gpu.example.com", count=3)], constraints=[distinct("gpu.example.com/numa")]),
               pod("p", [("c", "c")])],
         ["claim c devices x=pool/d0,x=pool/d1,x=pool/d3"])
    case("distinct-attribute-after-backtrack", "undoing a device keeps the values of the request's other devices",
         N1 + [GPU_CLASS, rslice("s", GPU, "pool", [dev("d0", {"numa": 0, "kind": "plain"}),
                                                     dev("d1", {"numa": 1, "kind": "special"}),
                                                     dev("d2", {"numa": 0, "kind": "plain"}),
                                                     dev("d3", {"numa": 2, "kind": "plain"})], node="node-1"),
               claim("c", [req("x", "gpu.example.com", count=2),
                           req("y", "gpu.example.com", selectors=['device.attributes["gpu.example.com"].kind == "special"'])],
                     constraints=[distinct("gpu.example.com/numa", ["x"])]),
               pod("p", [("c", "c")])],
         ["claim c devices x=pool/d0,x=pool/d3,y=pool/d1"])
    case("constraints-two-kinds", "matchAttribute and distinctAttribute together",
         N1 + [GPU_CLASS, rslice("s", GPU, "pool", [dev("d0", {"rack": "r1", "numa": 0}), dev("d1", {"rack": "r2", "numa": 1}),
                                                     dev("d2", {"rack": "r1", "numa": 0}), dev("d3", {"rack": "r1", "numa": 1})],
                                 node="node-1"),
               claim("c", [req("x", "gpu.example.com"), req("y", "gpu.example.com")],
                     constraints=[match("gpu.example.com/rack"), distinct("gpu.example.com/numa")]),
               pod("p", [("c", "c")])],
         ["claim c devices x=pool/d0,y=pool/d3"])

    # ---- counters (§3.9) ----
    def part(n, m, **kw):
        return dev(n, cap={"memory": m}, counters={"mem": {"memory": m}}, **kw)
    counters8 = {"mem": {"memory": "8Gi"}}
    case("counters-basic", "two 4Gi partitions fit an 8Gi counter; the third pod does not",
         N1 + [GPU_CLASS, rslice("c", GPU, "pool", node="node-1", count=2, counters=counters8),
               rslice("d", GPU, "pool", [part("a", "4Gi"), part("b", "4Gi"), part("x", "4Gi")], node="node-1", count=2),
               ONE_GPU] + [pod(f"p{i}", templates=[("gpu", "one-gpu")]) for i in range(1, 4)],
         ["claim p1-gpu devices gpu=pool/a", "claim p2-gpu devices gpu=pool/b",
          "pod p3 pending " + pending(1, "1 cannot allocate all claims")])
    case("counters-full-device-blocks-partitions", "the whole-GPU device uses the full counter: partitions no longer fit",
         N1 + [GPU_CLASS, rslice("c", GPU, "pool", node="node-1", count=2, counters=counters8),
               rslice("d", GPU, "pool", [part("whole", "8Gi"), part("half-0", "4Gi"), part("half-1", "4Gi")],
                      node="node-1", count=2),
               ONE_GPU, pod("p1", templates=[("gpu", "one-gpu")]), pod("p2", templates=[("gpu", "one-gpu")])],
         ["claim p1-gpu devices gpu=pool/whole", "pod p2 pending " + pending(1, "1 cannot allocate all claims")])
    case("counters-charged-for-input-allocations", "an allocated partition's counters are charged before the search",
         N1 + [GPU_CLASS, rslice("c", GPU, "pool", node="node-1", count=2, counters=counters8),
               rslice("d", GPU, "pool", [part("whole", "8Gi"), part("half-0", "4Gi"), part("half-1", "4Gi")],
                      node="node-1", count=2),
               claim("old", [req("gpu", "gpu.example.com")], allocation=[("gpu", GPU, "pool", "half-1")], reserved=["x"]),
               claim("c", [req("gpu", "gpu.example.com")]), pod("p", [("c", "c")])],
         ["claim c devices gpu=pool/half-0"])
    case("counters-unknown-counter", "consuming a counter the set does not define invalidates the pool",
         N1 + [GPU_CLASS, rslice("c", GPU, "pool", node="node-1", count=2, counters=counters8),
               rslice("d", GPU, "pool", [dev("x", counters={"mem": {"bogus": "1"}})], node="node-1", count=2),
               claim("c", [req("gpu", "gpu.example.com")]), pod("p", [("c", "c")])],
         ["pod p pending " + pending(1, "1 invalid resource pools were encountered")])
    case("counters-two-sets", "a device consuming from two counter sets needs both",
         N1 + [GPU_CLASS, rslice("c", GPU, "pool", node="node-1", count=2,
                                 counters={"mem": {"memory": "8Gi"}, "sm": {"slices": "7"}}),
               rslice("d", GPU, "pool", [dev("big", counters={"mem": {"memory": "2Gi"}, "sm": {"slices": "7"}}),
                                        dev("small", counters={"mem": {"memory": "2Gi"}, "sm": {"slices": "1"}})],
                      node="node-1", count=2),
               claim("c", [req("gpu", "gpu.example.com", count=2)]), pod("p", [("c", "c")])],
         ["pod p pending " + pending(1, "1 cannot allocate all claims")])

    # ---- taints (§3.10) ----
    def tainted(effect, key="maintenance", value="true"):
        return rslice("s", GPU, "pool", [dev("t0", taints=[(key, value, effect)]), dev("ok")], node="node-1")
    case("taint-noschedule-skipped", "an untolerated NoSchedule device taint skips the device",
         N1 + [GPU_CLASS, tainted("NoSchedule"), claim("c", [req("gpu", "gpu.example.com")]), pod("p", [("c", "c")])],
         ["claim c devices gpu=pool/ok"])
    case("taint-noexecute-skipped", "an untolerated NoExecute device taint skips the device",
         N1 + [GPU_CLASS, tainted("NoExecute"), claim("c", [req("gpu", "gpu.example.com")]), pod("p", [("c", "c")])],
         ["claim c devices gpu=pool/ok"])
    case("taint-none-ignored", "the None effect does not block allocation",
         N1 + [GPU_CLASS, tainted("None"), claim("c", [req("gpu", "gpu.example.com")]), pod("p", [("c", "c")])],
         ["claim c devices gpu=pool/t0"])
    case("taint-tolerated-exists", "Exists tolerates any value; the toleration is copied into the result",
         N1 + [GPU_CLASS, tainted("NoSchedule"),
               claim("c", [req("gpu", "gpu.example.com", tolerations=[("maintenance", "Exists", None, "NoSchedule")])]),
               pod("p", [("c", "c")])],
         ["claim c devices gpu=pool/t0"])
    case("taint-tolerated-equal", "Equal needs the same value",
         N1 + [GPU_CLASS, tainted("NoSchedule"),
               claim("c", [req("gpu", "gpu.example.com", tolerations=[("maintenance", "Equal", "true", None)])]),
               pod("p", [("c", "c")])],
         ["claim c devices gpu=pool/t0"])
    case("taint-value-mismatch", "Equal with another value does not tolerate",
         N1 + [GPU_CLASS, tainted("NoSchedule"),
               claim("c", [req("gpu", "gpu.example.com", tolerations=[("maintenance", "Equal", "false", None)])]),
               pod("p", [("c", "c")])],
         ["claim c devices gpu=pool/ok"])
    case("taint-effect-mismatch", "a toleration for NoSchedule does not tolerate NoExecute",
         N1 + [GPU_CLASS, tainted("NoExecute"),
               claim("c", [req("gpu", "gpu.example.com", tolerations=[("maintenance", "Exists", None, "NoSchedule")])]),
               pod("p", [("c", "c")])],
         ["claim c devices gpu=pool/ok"])
    case("taint-empty-key-exists", "an empty key with Exists tolerates every taint",
         N1 + [GPU_CLASS, tainted("NoSchedule"),
               claim("c", [req("gpu", "gpu.example.com", tolerations=[("", "Exists", None, None)])]),
               pod("p", [("c", "c")])],
         ["claim c devices gpu=pool/t0"])
    case("taint-admin-not-exempt", "admin access does not bypass device taints",
         N1 + [GPU_CLASS, rslice("s", GPU, "pool", [dev("t0", taints=[("k", "v", "NoSchedule")])], node="node-1"),
               claim("c", [req("gpu", "gpu.example.com", admin=True)]), pod("p", [("c", "c")])],
         ["pod p pending " + pending(1, "1 cannot allocate all claims")])

    # ---- admin access ----
    case("admin-ignores-in-use", "an admin-access request may take a device another claim holds",
         N1 + [GPU_CLASS, gpus("node-1", 1),
               claim("old", [req("gpu", "gpu.example.com")], allocation=[("gpu", GPU, "node-1", "gpu-0")], reserved=["x"]),
               claim("c", [req("gpu", "gpu.example.com", admin=True)]), pod("p", [("c", "c")])],
         ["claim c devices gpu=node-1/gpu-0"])
    case("admin-not-counted-as-use", "a device held with admin access stays free for normal claims",
         N1 + [GPU_CLASS, gpus("node-1", 1),
               claim("mon", [req("gpu", "gpu.example.com", admin=True)]),
               claim("c", [req("gpu", "gpu.example.com")]),
               pod("monitor", [("m", "mon")]), pod("p", [("c", "c")])],
         ["claim mon devices gpu=node-1/gpu-0", "claim c devices gpu=node-1/gpu-0"])
    case("admin-same-claim-twice", "an admin request cannot take the same device twice within its claim",
         N1 + [GPU_CLASS, gpus("node-1", 1), claim("c", [req("gpu", "gpu.example.com", admin=True, count=2)]),
               pod("p", [("c", "c")])],
         ["pod p pending " + pending(1, "1 cannot allocate all claims")])
    # Since 1.34 every pick of the attempt is recorded per claim, admin or not (addendum 4).
    indexed = rslice("node-1-gpus", GPU, "node-1", [dev("gpu-0", {"index": 0}), dev("gpu-1", {"index": 1})],
                     node="node-1")
    watch0 = claim("watch-gpu-0", [req("gpu", "gpu.example.com", admin=True,
                                       selectors=[f'device.attributes["{GPU}"].index == 0'])])
    both = claim("two-gpus", [req("gpus", "gpu.example.com", count=2)])
    case("admin-pick-in-use-for-later-claim", "a device picked with admin access by an earlier claim of the pod is in use",
         N1 + [GPU_CLASS, indexed, watch0, both, pod("p", [("watch", "watch-gpu-0"), ("gpus", "two-gpus")])],
         ["pod p pending " + pending(1, "1 cannot allocate all claims"), "claim watch-gpu-0 unallocated",
          "claim two-gpus unallocated"])
    case("admin-pick-after-normal-claim", "the same claims in the other order fit: admin access ignores other claims' picks",
         N1 + [GPU_CLASS, indexed, watch0, both, pod("p", [("gpus", "two-gpus"), ("watch", "watch-gpu-0")])],
         ["pod p node node-1", "claim two-gpus devices gpus=node-1/gpu-0,gpus=node-1/gpu-1",
          "claim watch-gpu-0 devices gpu=node-1/gpu-0"])
    case("admin-pick-in-use-same-claim", "a later normal request of the same claim skips the admin pick",
         N1 + [GPU_CLASS, indexed,
               claim("c", [req("watch", "gpu.example.com", admin=True,
                               selectors=[f'device.attributes["{GPU}"].index == 0']),
                           req("gpus", "gpu.example.com", count=2)]),
               pod("p", [("c", "c")])],
         ["pod p pending " + pending(1, "1 cannot allocate all claims"), "claim c unallocated"])
    case("admin-skips-own-claim-picks", "an admin request skips the dedicated devices its own claim picked",
         N1 + [GPU_CLASS, indexed,
               claim("c", [req("gpus", "gpu.example.com", count=2),
                           req("watch", "gpu.example.com", admin=True,
                               selectors=[f'device.attributes["{GPU}"].index == 0'])]),
               pod("p", [("c", "c")])],
         ["pod p pending " + pending(1, "1 cannot allocate all claims"), "claim c unallocated"])
    # Picks of a shareable device are never recorded as in use, not even for its own claim's admin
    # request: each result gets its own shareID and consumedCapacity.
    nic100 = rslice("node-1-nics", NIC, "node-1",
                    [dev("nic-0", cap={"bandwidth": "100G"}, multi=True,
                         policy={"bandwidth": {"default": "10G", "validRange": {"min": "10G", "step": "10G"}}})],
                    node="node-1")
    case("admin-repicks-shareable-own-claim", "an admin request may take the shareable device another request of its claim took",
         N1 + [NIC_CLASS, nic100,
               claim("c", [req("share", "nic.example.com"), req("watch", "nic.example.com", admin=True)]),
               pod("p", [("c", "c")])],
         ["pod p node node-1", "claim c devices share=node-1/nic-0,watch=node-1/nic-0"])
    case("admin-shareable-then-normal", "a normal request may share the device its claim's admin request took",
         N1 + [NIC_CLASS, nic100,
               claim("c", [req("watch", "nic.example.com", admin=True), req("share", "nic.example.com")]),
               pod("p", [("c", "c")])],
         ["pod p node node-1", "claim c devices watch=node-1/nic-0,share=node-1/nic-0"])

    # ---- consumable capacity (§3.11) ----
    bw_policy = {"bandwidth": {"default": "2", "validRange": {"min": "2", "max": "4", "step": "2"}}}

    def nic_multi(policy=bw_policy, value="4"):
        return [NIC_CLASS, rslice("s", NIC, "pool", [dev("nic-0", cap={"bandwidth": value}, multi=True, policy=policy)],
                                  node="node-1")]
    one_nic = tmpl("one-nic", [req("nic", "nic.example.com")])
    case("consumable-two-shares", "walk-through 5: two claims share a device, each consuming the default 2",
         N1 + nic_multi() + [one_nic, pod("p1", templates=[("n", "one-nic")]), pod("p2", templates=[("n", "one-nic")])],
         ["claim p1-n devices nic=pool/nic-0", "claim p2-n devices nic=pool/nic-0"])
    case("consumable-third-does-not-fit", "walk-through 5: a third share does not fit",
         N1 + nic_multi() + [one_nic] + [pod(f"p{i}", templates=[("n", "one-nic")]) for i in range(1, 4)],
         ["pod p3 pending " + pending(1, "1 cannot allocate all claims")])
    case("consumable-round-to-step", "walk-through 5: a request of 3 is rounded up to 4 (min + n*step)",
         N1 + nic_multi() + [claim("c", [req("nic", "nic.example.com", capacity={"bandwidth": "3"})]), pod("p", [("c", "c")])],
         ["claim c devices nic=pool/nic-0"])
    case("consumable-below-min", "a request below the minimum consumes the minimum",
         N1 + nic_multi() + [claim("c", [req("nic", "nic.example.com", capacity={"bandwidth": "1"})]), pod("p", [("c", "c")])],
         ["claim c devices nic=pool/nic-0"])
    case("consumable-above-max", "a request above validRange.max skips the device",
         N1 + nic_multi(value="8") + [claim("c", [req("nic", "nic.example.com", capacity={"bandwidth": "6"})]),
                                      pod("p", [("c", "c")])],
         ["pod p pending " + pending(1, "1 cannot allocate all claims")])
    case("consumable-valid-values", "a request is raised to the smallest valid value",
         N1 + nic_multi(policy={"bandwidth": {"default": "2", "validValues": ["2", "4", "8"]}}, value="8")
         + [claim("c", [req("nic", "nic.example.com", capacity={"bandwidth": "3"})]), pod("p", [("c", "c")])],
         ["claim c devices nic=pool/nic-0"])
    case("consumable-no-policy-full", "without a request or policy a share consumes the full capacity",
         N1 + nic_multi(policy=None) + [one_nic, pod("p1", templates=[("n", "one-nic")]),
                                        pod("p2", templates=[("n", "one-nic")])],
         ["claim p1-n devices nic=pool/nic-0", "pod p2 pending " + pending(1, "1 cannot allocate all claims")])
    case("consumable-unknown-capacity", "requesting a capacity the device does not have skips it",
         N1 + nic_multi() + [claim("c", [req("nic", "nic.example.com", capacity={"memory": "1Gi"})]), pod("p", [("c", "c")])],
         ["pod p pending " + pending(1, "1 cannot allocate all claims")])
    case("consumable-existing-share", "capacity consumed by an input claim's share is counted",
         N1 + nic_multi() + [claim("old", [req("nic", "nic.example.com")],
                                   allocation=[("nic", NIC, "pool", "nic-0",
                                                {"shareID": "11111111-2222-4333-8444-555555555555",
                                                 "consumedCapacity": {"bandwidth": "4"}})], reserved=["x"]),
                             claim("c", [req("nic", "nic.example.com")]), pod("p", [("c", "c")])],
         ["pod p pending " + pending(1, "1 cannot allocate all claims")])
    case("consumable-dedicated-result-busy", "a multi-allocatable device held by a dedicated result (no shareID) is busy",
         N1 + nic_multi() + [claim("old", [req("nic", "nic.example.com")], allocation=[("nic", NIC, "pool", "nic-0")],
                                   reserved=["x"]),
                             claim("c", [req("nic", "nic.example.com")]), pod("p", [("c", "c")])],
         ["pod p pending " + pending(1, "1 cannot allocate all claims")])
    case("consumable-same-request-twice", "one request with count 2 cannot pick the same shareable device twice (1.36)",
         N1 + nic_multi(value="8") + [claim("c", [req("nic", "nic.example.com", count=2)]), pod("p", [("c", "c")])],
         ["pod p pending " + pending(1, "1 cannot allocate all claims")])
    case("consumable-two-requests-one-device", "two requests of one claim may share one device",
         N1 + nic_multi() + [claim("c", [req("a", "nic.example.com"), req("b", "nic.example.com")]), pod("p", [("c", "c")])],
         ["claim c devices a=pool/nic-0,b=pool/nic-0"])
    case("consumable-counters-charged-once", "a shared partition charges its counters only for the first share",
         N1 + [NIC_CLASS, rslice("c", NIC, "pool", node="node-1", count=2, counters={"bw": {"lanes": "4"}}),
               rslice("d", NIC, "pool", [dev("v0", cap={"bandwidth": "4"}, multi=True, policy=bw_policy,
                                             counters={"bw": {"lanes": "4"}})], node="node-1", count=2),
               one_nic, pod("p1", templates=[("n", "one-nic")]), pod("p2", templates=[("n", "one-nic")])],
         ["claim p1-n devices nic=pool/v0", "claim p2-n devices nic=pool/v0"])

    # ---- config (§3.12) ----
    # Up to 1.36 every entry names its requests; 1.37's compact list is in cases_versions.py.
    case("config-class-and-claim", "class config first (FromClass), then claim config (FromClaim) (1.36)",
         N1 + [cls("gpu.example.com", driver=GPU, config=[(GPU, {"sharing": "timeSlicing"})]), gpus("node-1", 2),
               claim("c", [req("a", "gpu.example.com"), req("b", "gpu.example.com")],
                     config=[(None, GPU, {"all": True}), (["b"], GPU, {"only": "b"})]),
               pod("p", [("c", "c")])],
         ["claim c devices a=node-1/gpu-0,b=node-1/gpu-1",
          "claim c config FromClass:a+b,FromClaim:*,FromClaim:b"], version="1.36")
    case("config-subrequest", "a claim config naming req/sub is copied when that alternative is chosen (1.36)",
         N1 + [GPU_CLASS, gpus("node-1", 1),
               claim("c", [plist("gpu", ("two", "gpu.example.com", {"count": 2}), ("one", "gpu.example.com", {}))],
                     config=[(["gpu/one"], GPU, {"mode": "single"}), (["gpu/two"], GPU, {"mode": "dual"})]),
               pod("p", [("c", "c")])],
         ["claim c devices gpu/one=node-1/gpu-0", "claim c config FromClaim:gpu/one"], version="1.36")
    case("config-duplicated-per-request", "up to 1.36 upstream appends a config once per request it names",
         N1 + [GPU_CLASS, gpus("node-1", 2),
               claim("c", [req("a", "gpu.example.com"), req("b", "gpu.example.com")],
                     config=[(["a", "b"], GPU, {"x": 1})]),
               pod("p", [("c", "c")])],
         ["claim c devices a=node-1/gpu-0,b=node-1/gpu-1", "claim c config FromClaim:a+b,FromClaim:a+b"],
         version="1.36")

    # ---- node selectors of allocations (§3.13) ----
    rack = sel_term(("rack", "In", ["r1"]))
    case("network-slice-node-selector", "a device from a node-selector slice carries that selector into the allocation",
         [node("node-1", {"rack": "r1"}), GPU_CLASS, rslice("net", GPU, "fabric", [dev("d0")], node_selector=rack),
          claim("c", [req("gpu", "gpu.example.com")]), pod("p", [("c", "c")])],
         ["claim c devices gpu=fabric/d0"])
    case("network-slice-other-rack", "a node outside the slice's selector cannot use its devices",
         [node("node-1", {"rack": "r2"}), GPU_CLASS, rslice("net", GPU, "fabric", [dev("d0")], node_selector=rack),
          claim("c", [req("gpu", "gpu.example.com")]), pod("p", [("c", "c")])],
         ["pod p pending " + pending(1, "1 cannot allocate all claims")])
    case("all-nodes-no-selector", "an allNodes device adds no node selector",
         N1 + [GPU_CLASS, rslice("net", GPU, "fabric", [dev("d0")], all_nodes=True),
               claim("c", [req("gpu", "gpu.example.com")]), pod("p", [("c", "c")])],
         ["claim c devices gpu=fabric/d0"])
    case("local-device-pins-node", "a node-local device pins the allocation to the chosen node",
         N1 + [GPU_CLASS, rslice("net", GPU, "aaa-fabric", [dev("f0")], all_nodes=True), gpus("node-1", 1),
               claim("c", [req("gpu", "gpu.example.com", count=2)]), pod("p", [("c", "c")])],
         ["claim c devices gpu=aaa-fabric/f0,gpu=node-1/gpu-0"])
    case("per-device-node-selection", "per-device node selection: only the device assigned to the node is eligible",
         [node("node-1"), node("node-2"), GPU_CLASS,
          rslice("pd", GPU, "pool", [dev("for-2", node="node-2"), dev("for-1", node="node-1")], per_device=True),
          claim("c", [req("gpu", "gpu.example.com")]), pod("p", [("c", "c")])],
         ["pod p node node-1", "claim c devices gpu=pool/for-1"])
    case("per-device-node-selection-2", "per-device node selection with the device's own node selector",
         [node("node-1", {"zone": "a"}), GPU_CLASS,
          rslice("pd", GPU, "pool", [dev("zb", node_selector=sel_term(("zone", "In", ["b"]))),
                                    dev("za", node_selector=sel_term(("zone", "In", ["a"])))], per_device=True),
          claim("c", [req("gpu", "gpu.example.com")]), pod("p", [("c", "c")])],
         ["claim c devices gpu=pool/za"])
    case("binds-to-node-pins", "bindsToNode on a network device pins the allocation to the node",
         N1 + [GPU_CLASS, rslice("net", GPU, "fabric", [dev("d0", binds_to_node=True)], all_nodes=True),
               claim("c", [req("gpu", "gpu.example.com")]), pod("p", [("c", "c")])],
         ["claim c devices gpu=fabric/d0"])

# SPDX-License-Identifier: Apache-2.0
"""Conformance cases: visit order, search, selectors, firstAvailable, All mode, limits, pools."""


def register(g):
    globals().update({k: v for k, v in g.items() if not k.startswith("__")})
    N1 = [node("node-1")]

    # ---- visit order (§3.3) ----
    case("basic-one-device", "one claim, two free devices: the first device in list order is taken",
         N1 + [GPU_CLASS, gpus("node-1"), claim("c", [req("gpu", "gpu.example.com")]), pod("p", [("gpu", "c")])],
         ["pod p node node-1", "claim c devices gpu=node-1/gpu-0", "claim c reserved p"])
    case("pool-order-by-name", "pools are visited sorted by (driver, pool name), not in listing order",
         N1 + [GPU_CLASS, rslice("s-1", GPU, "pool-b", [dev("b-0")], node="node-1"),
               rslice("s-2", GPU, "pool-a", [dev("a-0")], node="node-1"),
               claim("c", [req("gpu", "gpu.example.com")]), pod("p", [("gpu", "c")])],
         ["claim c devices gpu=pool-a/a-0"])
    case("driver-order-by-name", "pools of different drivers: the driver name sorts first",
         N1 + [cls("any"), rslice("s-1", "z.example.com", "pool", [dev("z-0")], node="node-1"),
               rslice("s-2", "a.example.com", "pool", [dev("a-0")], node="node-1"),
               claim("c", [req("dev", "any")]), pod("p", [("dev", "c")])],
         ["claim c devices dev=pool/a-0"])
    case("slice-order-by-name", "slices of one pool are visited sorted by slice name",
         N1 + [GPU_CLASS, rslice("slice-z", GPU, "pool", [dev("z-0")], node="node-1", count=2),
               rslice("slice-a", GPU, "pool", [dev("a-0")], node="node-1", count=2),
               claim("c", [req("gpu", "gpu.example.com")]), pod("p", [("gpu", "c")])],
         ["claim c devices gpu=pool/a-0"])
    case("device-order-in-slice", "devices are tried in slice list order, not by name",
         N1 + [GPU_CLASS, rslice("s", GPU, "pool", [dev("gpu-b"), dev("gpu-a")], node="node-1"),
               claim("c", [req("gpu", "gpu.example.com")]), pod("p", [("gpu", "c")])],
         ["claim c devices gpu=pool/gpu-b"])
    case("binding-condition-pools-last", "a pool with binding conditions is visited after all other pools",
         N1 + [GPU_CLASS,
               rslice("s-a", GPU, "pool-a", [dev("a-0", binding=(["ready"], ["failed"]))], node="node-1"),
               rslice("s-b", GPU, "pool-b", [dev("b-0")], node="node-1"),
               claim("c", [req("gpu", "gpu.example.com")]), pod("p", [("gpu", "c")])],
         ["claim c devices gpu=pool-b/b-0"])
    case("binding-conditions-copied", "binding (failure) conditions are copied into the result; allocationTimestamp set",
         N1 + [GPU_CLASS, rslice("s-a", GPU, "pool-a", [dev("a-0", binding=(["ready"], ["failed"]))], node="node-1"),
               claim("c", [req("gpu", "gpu.example.com")]), pod("p", [("gpu", "c")])],
         ["claim c devices gpu=pool-a/a-0"])

    # ---- in use ----
    case("in-use-by-input-claim", "a device allocated to a claim given as input is not offered again",
         N1 + [GPU_CLASS, gpus("node-1"),
               claim("old", [req("gpu", "gpu.example.com")], allocation=[("gpu", GPU, "node-1", "gpu-0")],
                     reserved=["runner"]),
               claim("c", [req("gpu", "gpu.example.com")]), pod("p", [("gpu", "c")])],
         ["claim c devices gpu=node-1/gpu-1", "claim old devices gpu=node-1/gpu-0"])
    case("in-use-by-earlier-pod", "devices allocated for an earlier pod of the same run are in use",
         N1 + [GPU_CLASS, gpus("node-1"), ONE_GPU, pod("p1", templates=[("gpu", "one-gpu")]),
               pod("p2", templates=[("gpu", "one-gpu")])],
         ["claim p1-gpu devices gpu=node-1/gpu-0", "claim p2-gpu devices gpu=node-1/gpu-1"])
    case("no-devices-left", "the third pod finds both devices in use",
         [node("node-a"), node("node-b"), GPU_CLASS, gpus("node-a"), ONE_GPU]
         + [pod(f"p{i}", templates=[("gpu", "one-gpu")]) for i in range(1, 4)],
         ["pod p3 pending " + pending(2, "2 cannot allocate all claims"), "claim p3-gpu unallocated"])
    case("count-two", "ExactCount with count 2 takes the first two devices",
         N1 + [GPU_CLASS, gpus("node-1", 3), claim("c", [req("gpu", "gpu.example.com", count=2)]),
               pod("p", [("gpu", "c")])],
         ["claim c devices gpu=node-1/gpu-0,gpu=node-1/gpu-1"])
    case("count-more-than-node-has", "a count larger than any node offers leaves the pod pending",
         N1 + [GPU_CLASS, gpus("node-1", 2), claim("c", [req("gpu", "gpu.example.com", count=3)]),
               pod("p", [("gpu", "c")])],
         ["pod p pending " + pending(1, "1 cannot allocate all claims"), "claim c unallocated"])
    case("requests-in-order", "results are ordered by request",
         N1 + [GPU_CLASS, gpus("node-1", 3),
               claim("c", [req("a", "gpu.example.com"), req("b", "gpu.example.com", count=2)]),
               pod("p", [("gpu", "c")])],
         ["claim c devices a=node-1/gpu-0,b=node-1/gpu-1,b=node-1/gpu-2"])
    case("claims-in-pod-order", "a pod's claims are allocated in spec.resourceClaims order",
         N1 + [GPU_CLASS, gpus("node-1", 2), claim("x", [req("gpu", "gpu.example.com")]),
               claim("y", [req("gpu", "gpu.example.com")]), pod("p", [("second", "y"), ("first", "x")])],
         ["claim y devices gpu=node-1/gpu-0", "claim x devices gpu=node-1/gpu-1"])
    case("backtracking-walkthrough", "walk-through 1: small takes the large device first, then backtracks",
         N1 + [GPU_CLASS, rslice("s", GPU, "pool", [dev("gpu-large", cap={"memory": "2Gi"}),
                                                     dev("gpu-small", cap={"memory": "1Gi"})], node="node-1"),
               claim("c", [req("small", "gpu.example.com",
                               selectors=['device.capacity["gpu.example.com"].memory.compareTo(quantity("1Gi")) >= 0']),
                           req("large", "gpu.example.com",
                               selectors=['device.capacity["gpu.example.com"].memory.compareTo(quantity("2Gi")) >= 0'])]),
               pod("p", [("gpu", "c")])],
         ["claim c devices small=pool/gpu-small,large=pool/gpu-large"])
    case("backtracking-across-claims", "the second claim's failure makes the first claim pick another device",
         N1 + [GPU_CLASS, rslice("s", GPU, "pool", [dev("d0", {"kind": "any"}), dev("d1", {"kind": "special"})],
                                 node="node-1"),
               claim("first", [req("gpu", "gpu.example.com")]),
               claim("second", [req("gpu", "gpu.example.com",
                                    selectors=['device.attributes["gpu.example.com"].kind == "any"'])]),
               pod("p", [("a", "first"), ("b", "second")])],
         ["claim first devices gpu=pool/d1", "claim second devices gpu=pool/d0"])

    # ---- selectors ----
    case("class-selector-filters", "the class selector rejects devices of another model",
         N1 + [cls("a100", ['device.attributes["gpu.example.com"].model == "a100"'], driver=GPU),
               rslice("s", GPU, "pool", [dev("d0", {"model": "t4"}), dev("d1", {"model": "a100"})], node="node-1"),
               claim("c", [req("gpu", "a100")]), pod("p", [("gpu", "c")])],
         ["claim c devices gpu=pool/d1"])
    case("request-selector-filters", "request selectors are applied after the class selectors",
         N1 + [GPU_CLASS,
               rslice("s", GPU, "pool", [dev("d0", {"mem": 16}), dev("d1", {"mem": 80})], node="node-1"),
               claim("c", [req("gpu", "gpu.example.com", selectors=['device.attributes["gpu.example.com"].mem >= 40'])]),
               pod("p", [("gpu", "c")])],
         ["claim c devices gpu=pool/d1"])
    case("selectors-all-must-hold", "every class and request selector must be true",
         N1 + [cls("big", ['device.attributes["gpu.example.com"].mem >= 40'], driver=GPU),
               rslice("s", GPU, "pool", [dev("d0", {"mem": 80, "ecc": False}), dev("d1", {"mem": 16, "ecc": True}),
                                        dev("d2", {"mem": 80, "ecc": True})], node="node-1"),
               claim("c", [req("gpu", "big", selectors=['device.attributes["gpu.example.com"].ecc'])]),
               pod("p", [("gpu", "c")])],
         ["claim c devices gpu=pool/d2"])
    case("selector-other-domain", "an attribute with its own domain is looked up under that domain",
         N1 + [cls("fam", ['"family" in device.attributes["example.com"] && device.attributes["example.com"].family == "hopper"']),
               rslice("s", GPU, "pool", [dev("d0", {"family": "hopper"}), dev("d1", {"example.com/family": "hopper"})],
                      node="node-1"),
               claim("c", [req("gpu", "fam")]), pod("p", [("gpu", "c")])],
         ["claim c devices gpu=pool/d1"])
    case("selector-unknown-domain-key-error", "a missing domain is an empty map, so reading a key from it is a runtime error",
         N1 + [cls("fam", ['device.attributes["example.com"].family == "hopper"']),
               rslice("s", GPU, "pool", [dev("d0", {"family": "hopper"}), dev("d1", {"example.com/family": "hopper"})],
                      node="node-1"),
               claim("c", [req("gpu", "fam")]), pod("p", [("gpu", "c")])],
         ["pod p pending-contains class fam: selector #0: CEL runtime error: no such key: family", "claim c unallocated"])
    case("cel-runtime-error-visited", "a device without the attribute is visited first: CEL runtime error, pod pending",
         N1 + [GPU_CLASS, rslice("s", GPU, "pool", [dev("d0"), dev("d1", {"model": "a100"})], node="node-1"),
               claim("c", [req("gpu", "gpu.example.com", selectors=['device.attributes["gpu.example.com"].model == "a100"'])]),
               pod("p", [("gpu", "c")])],
         ["pod p pending-contains claim default/c: selector #0: CEL runtime error: no such key: model",
          "claim c unallocated"])
    case("cel-runtime-error-not-reached", "the failing device is after the solution: never evaluated, no error",
         N1 + [GPU_CLASS, rslice("s", GPU, "pool", [dev("d1", {"model": "a100"}), dev("d0")], node="node-1"),
               claim("c", [req("gpu", "gpu.example.com", selectors=['device.attributes["gpu.example.com"].model == "a100"'])]),
               pod("p", [("gpu", "c")])],
         ["claim c devices gpu=pool/d1"])
    case("cel-class-runtime-error", "a class selector error names the class",
         N1 + [cls("broken", ['device.attributes["gpu.example.com"].model == "x"']),
               rslice("s", GPU, "pool", [dev("d0")], node="node-1"),
               claim("c", [req("gpu", "broken")]), pod("p", [("gpu", "c")])],
         ["pod p pending-contains class broken: selector #0: CEL runtime error: no such key: model"])
    case("cel-guarded-lookup", "a guarded lookup skips devices without the attribute instead of failing",
         N1 + [GPU_CLASS, rslice("s", GPU, "pool", [dev("d0"), dev("d1", {"model": "a100"})], node="node-1"),
               claim("c", [req("gpu", "gpu.example.com",
                               selectors=['"model" in device.attributes["gpu.example.com"] && device.attributes["gpu.example.com"].model == "a100"'])]),
               pod("p", [("gpu", "c")])],
         ["claim c devices gpu=pool/d1"])
    case("cel-version-compare", "version attributes compare as semantic versions",
         N1 + [GPU_CLASS, rslice("s", GPU, "pool", [dev("d0", {"driverVersion": "v:1.9.0"}),
                                                     dev("d1", {"driverVersion": "v:1.10.0"})], node="node-1"),
               claim("c", [req("gpu", "gpu.example.com",
                               selectors=['device.attributes["gpu.example.com"].driverVersion.isGreaterThan(semver("1.9.5"))'])]),
               pod("p", [("gpu", "c")])],
         ["claim c devices gpu=pool/d1"])
    case("cel-driver-field", "device.driver distinguishes drivers sharing one class",
         N1 + [cls("any"), rslice("s1", "a.example.com", "p", [dev("a0")], node="node-1"),
               rslice("s2", "b.example.com", "p", [dev("b0")], node="node-1"),
               claim("c", [req("d", "any", selectors=['device.driver == "b.example.com"'])]), pod("p", [("d", "c")])],
         ["claim c devices d=p/b0"])
    case("selector-compile-error", "a request selector that does not compile is invalid input",
         N1 + [GPU_CLASS, gpus("node-1"),
               claim("c", [req("gpu", "gpu.example.com", selectors=['device.attributes["gpu.example.com"].model ==='])]),
               pod("p", [("gpu", "c")])],
         ["error ResourceClaim default/c: spec.devices.requests[0].exactly.selectors[0].cel.expression"])
    case("class-selector-compile-error", "a class selector referencing an unknown variable is invalid input",
         N1 + [cls("bad", ["pod.name == \"x\""]), gpus("node-1"), pod("p")],
         ["error DeviceClass bad: spec.selectors[0].cel.expression"])

    # ---- firstAvailable (§3.7) ----
    big = 'device.attributes["gpu.example.com"].mem >= 80'
    case("plist-first-choice", "the first subrequest that can be satisfied is used",
         N1 + [GPU_CLASS, rslice("s", GPU, "pool", [dev("d0", {"mem": 16}), dev("d1", {"mem": 80})], node="node-1"),
               claim("c", [plist("gpu", ("big", "gpu.example.com", {"selectors": [big]}),
                                 ("any", "gpu.example.com", {}))]), pod("p", [("gpu", "c")])],
         ["claim c devices gpu/big=pool/d1"])
    case("plist-fallback", "the preferred subrequest cannot be met: the next one is used",
         N1 + [GPU_CLASS, rslice("s", GPU, "pool", [dev("d0", {"mem": 16})], node="node-1"),
               claim("c", [plist("gpu", ("big", "gpu.example.com", {"selectors": [big]}),
                                 ("any", "gpu.example.com", {}))]), pod("p", [("gpu", "c")])],
         ["claim c devices gpu/any=pool/d0"])
    case("plist-none-fits", "no subrequest can be met: pending",
         N1 + [GPU_CLASS, rslice("s", GPU, "pool", [dev("d0", {"mem": 16})], node="node-1"),
               claim("c", [plist("gpu", ("big", "gpu.example.com", {"selectors": [big]}),
                                 ("two", "gpu.example.com", {"count": 2}))]), pod("p", [("gpu", "c")])],
         ["pod p pending " + pending(1, "1 cannot allocate all claims")])
    case("plist-scoring-prefers-better-node", "node-b satisfies the first alternative, node-a only the second: node-b wins",
         [node("node-a"), node("node-b"), GPU_CLASS,
          rslice("a", GPU, "node-a", [dev("d0", {"mem": 16})], node="node-a"),
          rslice("b", GPU, "node-b", [dev("d0", {"mem": 80})], node="node-b"),
          claim("c", [plist("gpu", ("big", "gpu.example.com", {"selectors": [big]}),
                            ("any", "gpu.example.com", {}))]), pod("p", [("gpu", "c")])],
         ["pod p node node-b", "claim c devices gpu/big=node-b/d0"])
    case("plist-result-limit", "walk-through 3: a 40-device alternative is skipped, the 1-device one is used",
         N1 + [GPU_CLASS, gpus("node-1", 40),
               claim("c", [plist("gpu", ("many", "gpu.example.com", {"count": 40}),
                                 ("one", "gpu.example.com", {}))]), pod("p", [("gpu", "c")])],
         ["claim c devices gpu/one=node-1/gpu-0"])
    counter = {"mem": {"memory": "8Gi"}}

    def part(n, m):
        return dev(n, cap={"memory": m}, counters={"mem": {"memory": m}})
    four = 'device.capacity["gpu.example.com"].memory.compareTo(quantity("4Gi")) == 0'
    six = 'device.capacity["gpu.example.com"].memory.compareTo(quantity("6Gi")) >= 0'
    case("plist-counters-walkthrough", "walk-through 2: a takes 4Gi, b falls back to the second 4Gi partition",
         N1 + [GPU_CLASS, rslice("counters", GPU, "pool", node="node-1", count=2, counters=counter),
               rslice("parts", GPU, "pool", [part("p4a", "4Gi"), part("p6", "6Gi"), part("p4b", "4Gi")],
                      node="node-1", count=2),
               claim("c", [req("a", "gpu.example.com", selectors=[four]),
                           plist("b", ("big", "gpu.example.com", {"selectors": [six]}),
                                 ("small", "gpu.example.com", {"selectors": [four]}))]),
               pod("p", [("gpu", "c")])],
         ["claim c devices a=pool/p4a,b/small=pool/p4b"])
    case("plist-constraint-on-subrequest", "a constraint naming req/sub applies only when that alternative is chosen",
         N1 + [GPU_CLASS, rslice("s", GPU, "pool", [dev("d0", {"numa": 0}), dev("d1", {"numa": 1})], node="node-1"),
               claim("c", [req("a", "gpu.example.com"),
                           plist("b", ("same", "gpu.example.com", {}), ("other", "gpu.example.com", {}))],
                     constraints=[match("gpu.example.com/numa", ["a", "b/same"])]),
               pod("p", [("gpu", "c")])],
         ["claim c devices a=pool/d0,b/other=pool/d1"])
    case("plist-all-mode-second", "an All-mode subrequest at index 1 takes every matching device",
         N1 + [GPU_CLASS, gpus("node-1", 2),
               claim("c", [plist("gpu", ("three", "gpu.example.com", {"count": 3}),
                                 ("all", "gpu.example.com", {"mode": "All"}))]), pod("p", [("gpu", "c")])],
         ["claim c devices gpu/all=node-1/gpu-0,gpu/all=node-1/gpu-1"])

    # ---- All mode ----
    case("all-mode-basic", "All takes every matching device of the node",
         N1 + [GPU_CLASS, gpus("node-1", 3), claim("c", [req("gpu", "gpu.example.com", mode="All")]),
               pod("p", [("gpu", "c")])],
         ["claim c devices gpu=node-1/gpu-0,gpu=node-1/gpu-1,gpu=node-1/gpu-2"])
    case("all-mode-in-use", "walk-through 4: All lists the in-use device too, so the claim cannot be allocated",
         N1 + [GPU_CLASS, gpus("node-1", 2),
               claim("old", [req("gpu", "gpu.example.com")], allocation=[("gpu", GPU, "node-1", "gpu-1")],
                     reserved=["runner"]),
               claim("c", [req("gpu", "gpu.example.com", mode="All")]), pod("p", [("gpu", "c")])],
         ["pod p pending " + pending(1, "1 cannot allocate all claims")])
    case("all-mode-admin", "an admin-access All request ignores other claims' allocations",
         N1 + [GPU_CLASS, gpus("node-1", 2),
               claim("old", [req("gpu", "gpu.example.com")], allocation=[("gpu", GPU, "node-1", "gpu-1")],
                     reserved=["runner"]),
               claim("c", [req("gpu", "gpu.example.com", mode="All", admin=True)]), pod("p", [("gpu", "c")])],
         ["claim c devices gpu=node-1/gpu-0,gpu=node-1/gpu-1"])
    case("all-mode-no-devices", "All with no matching device fails on that node",
         [node("node-a"), node("node-b"), GPU_CLASS, gpus("node-a", 1),
          claim("c", [req("gpu", "gpu.example.com", mode="All")]), pod("p", [("gpu", "c")])],
         ["pod p node node-a"])
    case("all-mode-incomplete-pool", "All on a node whose pool is incomplete is a fatal error",
         N1 + [GPU_CLASS, rslice("s", GPU, "pool", [dev("d0")], node="node-1", count=2),
               claim("c", [req("gpu", "gpu.example.com", mode="All")]), pod("p", [("gpu", "c")])],
         ["pod p pending-contains claim default/c, request gpu: asks for all devices, but resource pool gpu.example.com/pool is currently being updated"])
    case("all-mode-invalid-pool", "All on a node with an invalid pool is a fatal error",
         N1 + [GPU_CLASS, rslice("s1", GPU, "pool", [dev("d0")], node="node-1", count=2),
               rslice("s2", GPU, "pool", [dev("d0")], node="node-1", count=2),
               claim("c", [req("gpu", "gpu.example.com", mode="All")]), pod("p", [("gpu", "c")])],
         ["pod p pending-contains asks for all devices, but resource pool gpu.example.com/pool is currently invalid"])
    case("all-mode-constraint-error", "All with devices that violate a matchAttribute constraint is an error",
         N1 + [GPU_CLASS, rslice("s", GPU, "pool", [dev("d0", {"model": "a"}), dev("d1", {"model": "b"})], node="node-1"),
               claim("c", [req("gpu", "gpu.example.com", mode="All")], constraints=[match("gpu.example.com/model")]),
               pod("p", [("gpu", "c")])],
         ["pod p pending-contains claim default/c, request gpu: cannot add device gpu.example.com/pool/d1 because a claim constraint would not be satisfied"])
    case("all-mode-over-limit", "All matching 33 devices exceeds the 32-result limit",
         N1 + [GPU_CLASS, gpus("node-1", 33), claim("c", [req("gpu", "gpu.example.com", mode="All")]),
               pod("p", [("gpu", "c")])],
         ["pod p pending-contains claim default/c: number of requested devices 33 exceeds the claim limit of 32"])
    case("claim-over-limit", "ExactCount 33 exceeds the claim limit of 32 (error, not silently pending)",
         N1 + [GPU_CLASS, gpus("node-1", 2), claim("c", [req("gpu", "gpu.example.com", count=33)]),
               pod("p", [("gpu", "c")])],
         ["pod p pending-contains claim default/c: number of requested devices 33 exceeds the claim limit of 32"])
    case("claim-exactly-32", "32 devices in one claim is allowed",
         N1 + [GPU_CLASS, gpus("node-1", 32), claim("c", [req("gpu", "gpu.example.com", count=32)]),
               pod("p", [("gpu", "c")])],
         ["pod p node node-1"])

    # ---- pools (§3.2) ----
    case("incomplete-pool-skipped", "ExactCount silently skips a pool whose slices are not all published",
         N1 + [GPU_CLASS, rslice("s", GPU, "aaa", [dev("d0")], node="node-1", count=2),
               rslice("t", GPU, "bbb", [dev("d1")], node="node-1"),
               claim("c", [req("gpu", "gpu.example.com")]), pod("p", [("gpu", "c")])],
         ["claim c devices gpu=bbb/d1"])
    case("pool-spanning-nodes-complete", "a pool with one slice per node is complete for each node",
         [node("node-a"), node("node-b"), GPU_CLASS,
          rslice("sa", GPU, "shared", [dev("a0")], node="node-a", count=2),
          rslice("sb", GPU, "shared", [dev("b0")], node="node-b", count=2),
          claim("c", [req("gpu", "gpu.example.com")]), pod("p", [("gpu", "c")])],
         ["pod p node node-a", "claim c devices gpu=shared/a0"])
    case("obsolete-generation", "slices of an older pool generation are ignored",
         N1 + [GPU_CLASS, rslice("old", GPU, "pool", [dev("old-0")], node="node-1", gen=1),
               rslice("new", GPU, "pool", [dev("new-0")], node="node-1", gen=2),
               claim("c", [req("gpu", "gpu.example.com")]), pod("p", [("gpu", "c")])],
         ["claim c devices gpu=pool/new-0"])
    case("invalid-pool-duplicate-device", "duplicate device names across slices make the pool invalid",
         N1 + [GPU_CLASS, rslice("s1", GPU, "pool", [dev("d0")], node="node-1", count=2),
               rslice("s2", GPU, "pool", [dev("d0")], node="node-1", count=2),
               claim("c", [req("gpu", "gpu.example.com")]), pod("p", [("gpu", "c")])],
         ["pod p pending " + pending(1, "1 invalid resource pools were encountered")])
    case("invalid-pool-with-alternative", "an invalid pool is skipped when another pool has a solution",
         N1 + [GPU_CLASS, rslice("s1", GPU, "bad", [dev("d0")], node="node-1", count=2),
               rslice("s2", GPU, "bad", [dev("d0")], node="node-1", count=2),
               rslice("s3", GPU, "good", [dev("g0")], node="node-1"),
               claim("c", [req("gpu", "gpu.example.com")]), pod("p", [("gpu", "c")])],
         ["claim c devices gpu=good/g0"])
    case("invalid-pool-unknown-counter-set", "a device consuming a counter set nobody defines invalidates the pool",
         N1 + [GPU_CLASS, rslice("s", GPU, "pool", [dev("d0", counters={"nope": {"memory": "1Gi"}})], node="node-1"),
               claim("c", [req("gpu", "gpu.example.com")]), pod("p", [("gpu", "c")])],
         ["pod p pending " + pending(1, "1 invalid resource pools were encountered")])

    # ---- search bound (§6.3, filterTimeout; deterministic step budget) ----
    case("search-timeout", "a hopeless claim (8 requests, 6 distinct values) stops at the step budget: timed out",
         N1 + [GPU_CLASS, rslice("s", GPU, "pool", [dev(f"d{i}", {"numa": i % 6}) for i in range(32)], node="node-1"),
               claim("c", [req(f"r{i}", "gpu.example.com") for i in range(8)],
                     constraints=[distinct("gpu.example.com/numa")]),
               pod("p", [("c", "c")])],
         ["pod p pending " + pending(1, "1 timed out trying to allocate devices"), "claim c unallocated"])

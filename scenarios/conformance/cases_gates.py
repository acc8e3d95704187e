# SPDX-License-Identifier: Apache-2.0
"""Conformance cases: DRA features behind gates that are off in Kubernetes 1.35 (alpha there, beta and
on from 1.36). With a gate off the API server clears the feature's fields on create
(dropDisabledFields of the resourceslice and resourceclaim strategies), so neither validation nor the
scheduler sees them; the allocator upstream picks then knows only the features that are on."""


def register(g):
    globals().update({k: v for k, v in g.items() if not k.startswith("__")})
    N1 = [node("node-1")]
    PENDING = pending(1, "1 cannot allocate all claims")

    # ---- DRAPartitionableDevices: sharedCounters, consumesCounters, per-device node selection ----
    def part(n, m):
        return dev(n, cap={"memory": m}, counters={"mem": {"memory": m}})

    partitions = [GPU_CLASS, rslice("c", GPU, "pool", node="node-1", count=2, counters={"mem": {"memory": "8Gi"}}),
                  rslice("d", GPU, "pool", [part("whole", "8Gi"), part("half-0", "4Gi"), part("half-1", "4Gi")],
                         node="node-1", count=2),
                  claim("c", [req("gpu", "gpu.example.com", count=3)]), pod("p", [("c", "c")])]
    case("partitionable-1-35-gate-off",
         "1.35: counters are cleared, so the whole GPU and both halves are three plain devices",
         N1 + partitions,
         ["pod p node node-1", "claim c devices gpu=pool/whole,gpu=pool/half-0,gpu=pool/half-1"], version="1.35")
    case("partitionable-1-35-gate-on", "1.35 with DRAPartitionableDevices on: 8Gi of counters cannot hold all three",
         N1 + partitions, ["pod p pending " + PENDING, "claim c unallocated"],
         version="1.35", gates="DRAPartitionableDevices=true")
    case("partitionable-1-35-per-device-node-selection",
         "1.35: perDeviceNodeSelection is cleared before validation, leaving the slice without node selection",
         N1 + [GPU_CLASS, rslice("pd", GPU, "pool", [dev("for-1", node="node-1")], per_device=True)],
         ["error ResourceSlice pd: spec: Required value: exactly one of `nodeName`, `nodeSelector`, `allNodes`, "
          "`perDeviceNodeSelection` is required"], version="1.35")

    # ---- DRAConsumableCapacity: allowMultipleAllocations, requestPolicy, capacity requests ----
    bw_policy = {"bandwidth": {"default": "2", "validRange": {"min": "2", "max": "4", "step": "2"}}}
    shared_nic = [NIC_CLASS, rslice("s", NIC, "pool", [dev("nic-0", cap={"bandwidth": "4"}, multi=True, policy=bw_policy)],
                                    node="node-1"),
                  claim("c1", [req("nic", "nic.example.com", capacity={"bandwidth": "2"})]),
                  claim("c2", [req("nic", "nic.example.com")]),
                  pod("p1", [("n", "c1")]), pod("p2", [("n", "c2")])]
    case("consumable-capacity-1-35-gate-off",
         "1.35: allowMultipleAllocations and the capacity request are cleared: the NIC goes to one claim only",
         N1 + shared_nic,
         ["pod p1 node node-1", "claim c1 devices nic=pool/nic-0", "pod p2 pending " + PENDING, "claim c2 unallocated"],
         version="1.35")
    case("consumable-capacity-1-35-gate-on", "1.35 with DRAConsumableCapacity on: both claims share the NIC",
         N1 + shared_nic, ["claim c1 devices nic=pool/nic-0", "claim c2 devices nic=pool/nic-0"],
         version="1.35", gates="DRAConsumableCapacity=true")
    case("consumable-capacity-1-35-distinct-attribute",
         "1.35: distinctAttribute is stored, but the allocator without consumable capacity has no such constraint",
         N1 + [GPU_CLASS, rslice("s", GPU, "pool", [dev("d0", {"numa": 0}), dev("d1", {"numa": 1})], node="node-1"),
               claim("c", [req("x", "gpu.example.com"), req("y", "gpu.example.com")],
                     constraints=[distinct("gpu.example.com/numa")]),
               pod("p", [("c", "c")])],
         ["pod p pending-contains claim default/c, constraint #0: empty constraint (unsupported constraint type?)",
          "claim c unallocated"], version="1.35")

    # ---- DRADeviceTaints: device taints and request tolerations ----
    tainted = [GPU_CLASS, rslice("s", GPU, "pool", [dev("t0", taints=[("maintenance", "true", "NoSchedule")]), dev("ok")],
                                 node="node-1"),
               claim("c", [req("gpu", "gpu.example.com")]), pod("p", [("c", "c")])]
    case("device-taints-1-35-gate-off", "1.35: the device's taint is cleared, so the first device is taken",
         N1 + tainted, ["pod p node node-1", "claim c devices gpu=pool/t0"], version="1.35")
    case("device-taints-1-35-gate-on", "1.35 with DRADeviceTaints on: the tainted device is skipped",
         N1 + tainted, ["claim c devices gpu=pool/ok"], version="1.35", gates="DRADeviceTaints=true")

    # ---- DRADeviceBindingConditions: bindsToNode, bindingConditions, bindingFailureConditions ----
    case("binding-conditions-1-35-gate-off",
         "1.35: binding conditions are cleared: the pool is not put last and the result carries none",
         N1 + [GPU_CLASS,
               rslice("s-a", GPU, "pool-a", [dev("a-0", binding=(["ready"], ["failed"]), binds_to_node=True)],
                      node="node-1"),
               rslice("s-b", GPU, "pool-b", [dev("b-0")], node="node-1"),
               claim("c", [req("gpu", "gpu.example.com")]), pod("p", [("gpu", "c")])],
         ["pod p node node-1", "claim c devices gpu=pool-a/a-0"], version="1.35")

    # ---- DRAFractionalCapacityRange (1.37 beta, off unless --min-compatibility-version=1.37): validation ----
    # validValues 100m and 200m are one value in whole units: a duplicate unless the gate is on.
    tenths = {"bandwidth": {"default": "100m", "validValues": ["100m", "200m", "1"]}}
    tenths_nic = [NIC_CLASS, rslice("s", NIC, "pool", [dev("nic-0", cap={"bandwidth": "1"}, multi=True, policy=tenths)],
                                    node="node-1"),
                  claim("c", [req("nic", "nic.example.com", capacity={"bandwidth": "150m"})]), pod("p", [("n", "c")])]
    case("fractional-capacity-valid-values-gate-off", "gate off: 100m and 200m collide as whole units",
         N1 + tenths_nic,
         ['error ResourceSlice s: spec.devices[0].capacity[bandwidth].requestPolicy.validValues[1]: Duplicate value: "1"'])
    case("fractional-capacity-valid-values-gate-on", "gate on: 100m and 200m are two values; 150m takes 200m",
         N1 + tenths_nic, ["pod p node node-1", "claim c devices nic=pool/nic-0"],
         gates="DRAFractionalCapacityRange=true")
    # A default off the step in thousandths is only seen with the gate on.
    misaligned = {"bandwidth": {"default": "250m", "validRange": {"min": "200m", "max": "1", "step": "100m"}}}
    case("fractional-capacity-step-misaligned-gate-on", "gate on: a default of 250m is not 200m plus whole 100m steps",
         N1 + [NIC_CLASS, rslice("s", NIC, "pool", [dev("nic-0", cap={"bandwidth": "1"}, multi=True, policy=misaligned)],
                                 node="node-1")],
         ['error ResourceSlice s: spec.devices[0].capacity[bandwidth].requestPolicy.validRange.step: Invalid value: '
          '"250m": value is not a multiple of a given step (100m) from (200m)'],
         gates="DRAFractionalCapacityRange=true")
    case("fractional-capacity-step-misaligned-gate-off", "gate off: 200m, 250m and 100m are all 1 in whole units",
         N1 + [NIC_CLASS, rslice("s", NIC, "pool", [dev("nic-0", cap={"bandwidth": "1"}, multi=True, policy=misaligned)],
                                 node="node-1"),
               claim("c", [req("nic", "nic.example.com")]), pod("p", [("n", "c")])],
         ["pod p node node-1", "claim c devices nic=pool/nic-0"])

    # ---- DRAFractionalCapacityRange: how the allocator rounds a request (consumable_capacity.go of
    # 1.37: useMilli, roundUpRange, violateValidRange). With the gate off, request, min and step are
    # each rounded up to whole units (Value()) before min + n * step: 300m on a 250m range takes 1.
    # With it on, a range with a fractional min, max or step rounds in thousandths: 300m takes 500m.
    def quarters(max_value="1"):
        policy = {"bandwidth": {"default": "250m",
                                "validRange": {"min": "250m", "max": max_value, "step": "250m"}}}
        return [NIC_CLASS, rslice("s", NIC, "pool", [dev("nic-0", cap={"bandwidth": "1"}, multi=True, policy=policy)],
                                  node="node-1")]

    def two_shares(max_value="1"):
        return N1 + quarters(max_value) + [
            claim(f"c{i}", [req("nic", "nic.example.com", capacity={"bandwidth": "300m"})]) for i in (1, 2)] + [
            pod(f"p{i}", [("n", f"c{i}")]) for i in (1, 2)]

    one_share = ["pod p1 node node-1", "claim c1 devices nic=pool/nic-0", "pod p2 pending " + PENDING,
                 "claim c2 unallocated"]
    case("fractional-capacity-round-gate-off", "gate off: 300m on a 250m-step range takes the whole NIC of 1",
         two_shares(), one_share)
    case("fractional-capacity-round-gate-on", "gate on: 300m on a 250m-step range takes 500m, two shares fit in 1",
         two_shares(), ["pod p1 node node-1", "claim c1 devices nic=pool/nic-0", "pod p2 node node-1",
                        "claim c2 devices nic=pool/nic-0"], gates="DRAFractionalCapacityRange=true")
    case("fractional-capacity-round-1-36", "1.36 knows no DRAFractionalCapacityRange: whole units, one share of 1",
         two_shares(), one_share, version="1.36")
    # The max is compared exactly, after rounding: 1 is above a max of 750m, 500m is not.
    case("fractional-capacity-max-gate-off", "gate off: 300m rounds to 1, above the max of 750m: no share fits",
         two_shares("750m"), ["pod p1 pending " + PENDING, "pod p2 pending " + PENDING])
    case("fractional-capacity-max-gate-on", "gate on: 300m rounds to 500m, within the max of 750m: one share each",
         two_shares("750m"), ["pod p1 node node-1", "claim c1 devices nic=pool/nic-0", "pod p2 node node-1",
                              "claim c2 devices nic=pool/nic-0"], gates="DRAFractionalCapacityRange=true")

# SPDX-License-Identifier: Apache-2.0
"""Conformance cases: derived attributes (DRADerivedAttributes, 1.37 alpha, off by default;
kubernetes#140029, KEP-6080). A request computes an attribute per candidate device with CEL; only
the claim's matchAttribute/distinctAttribute constraints see it, where it hides a driver attribute
of the same name. Rules from k8s.io/api resource/v1 types.go (DeviceDerivedAttribute),
pkg/apis/resource/validation (validateDeviceDerivedAttribute, isAttributeUsedByConstraint) and
dynamic-resource-allocation/cel (EvaluateDerivedAttribute, validateOutputType)."""


def register(g):
    globals().update({k: v for k, v in g.items() if not k.startswith("__")})
    ON = "DRADerivedAttributes=true"
    N1 = [node("node-1")]
    PENDING = pending(1, "1 cannot allocate all claims")
    GPU_NUMA = f'device.attributes["{GPU}"].numa'
    NIC_NUMA = f'device.attributes["{NIC}"].numaNode'

    # The GPU driver says "numa", the NIC driver "numaNode" (the KEP's and the docs' example).
    def gpus(*numas):
        return rslice("gpus", GPU, "gpus", [dev(f"gpu-{i}", {"numa": n}) for i, n in enumerate(numas)],
                      node="node-1")

    def nics(*numas):
        return rslice("nics", NIC, "nics", [dev(f"nic-{i}", {"numaNode": n} if n is not None else {"id": i})
                                            for i, n in enumerate(numas)], node="node-1")

    def pair(gpu_expr=GPU_NUMA, nic_expr=NIC_NUMA, constraint=None, name="derived/numa"):
        return claim("c", [req("gpu", "gpu.example.com", derived=[(name, gpu_expr)]),
                           req("nic", "nic.example.com", derived=[(name, nic_expr)])],
                     constraints=[constraint or match(name, ["gpu", "nic"])])
    P = [pod("p", [("c", "c")])]
    base = N1 + [GPU_CLASS, NIC_CLASS]

    case("derived-match-pairs-different-names",
         "gpu numa and nic numaNode derive one attribute: matchAttribute pairs gpu-1 with nic-0",
         base + [gpus(0, 1), nics(1), pair()] + P,
         ["pod p node node-1", "claim c devices gpu=gpus/gpu-1,nic=nics/nic-0"], gates=ON)
    case("derived-gate-off-dropped",
         "DRADerivedAttributes off (the 1.37 default): the field is dropped, no device has derived/numa",
         base + [gpus(0, 1), nics(1), pair()] + P,
         ["pod p pending " + PENDING, "claim c unallocated"])
    case("derived-1-36-dropped", "1.36 has no DRADerivedAttributes: the field is dropped likewise",
         base + [gpus(0, 1), nics(1), pair()] + P,
         ["pod p pending " + PENDING, "claim c unallocated"], version="1.36")
    case("derived-distinct-over-derived-values",
         "distinctAttribute over numa/2: gpu-0 and gpu-1 derive 0 alike, so gpu-0 goes with gpu-2",
         N1 + [GPU_CLASS, gpus(0, 1, 2),
               claim("c", [req("gpu", "gpu.example.com", count=2, derived=[("derived/socket", GPU_NUMA + " / 2")])],
                     constraints=[distinct("derived/socket")])] + P,
         ["claim c devices gpu=gpus/gpu-0,gpu=gpus/gpu-2"], gates=ON)
    case("derived-overrides-driver-attribute",
         "a derived attribute named like the driver's gpu.example.com/numa replaces it in the constraint",
         N1 + [GPU_CLASS, gpus(0, 1),
               claim("c", [req("gpu", "gpu.example.com", count=2, derived=[(f"{GPU}/numa", GPU_NUMA + " / 2")])],
                     constraints=[match(f"{GPU}/numa")])] + P,
         ["claim c devices gpu=gpus/gpu-0,gpu=gpus/gpu-1"], gates=ON)
    case("derived-override-only-for-its-request",
         "the override is the defining request's: the other request compares the driver's numa",
         N1 + [GPU_CLASS, gpus(0, 1, 2),
               claim("c", [req("a", "gpu.example.com", derived=[(f"{GPU}/numa", "2")]),
                           req("b", "gpu.example.com")], constraints=[match(f"{GPU}/numa")])] + P,
         ["claim c devices a=gpus/gpu-0,b=gpus/gpu-2"], gates=ON)
    case("derived-runtime-error-aborts",
         "nic-0 lacks numaNode: the expression fails on it and the allocation stops, though nic-1 would do",
         base + [gpus(0, 1), nics(None, 1), pair()] + P,
         ["pod p pending-contains claim default/c, request nic, derived attribute derived/numa, device "
          "nic.example.com/nics/nic-0: CEL runtime error: no such key: numaNode", "claim c unallocated"], gates=ON)
    case("derived-guarded-expression",
         "with has() the device without numaNode derives -1 and is passed over for nic-1",
         base + [gpus(0, 1), nics(None, 1),
                 pair(nic_expr=f'has({NIC_NUMA}) ? {NIC_NUMA} : -1')] + P,
         ["pod p node node-1", "claim c devices gpu=gpus/gpu-1,nic=nics/nic-1"], gates=ON)
    case("derived-first-available",
         "a subrequest's derived attribute counts for a constraint naming its parent request",
         base + [gpus(0, 1), nics(1),
                 claim("c", [plist("gpu", ("big", "gpu.example.com", {"count": 2, "derived": [("derived/numa", GPU_NUMA)]}),
                                   ("one", "gpu.example.com", {"derived": [("derived/numa", GPU_NUMA)]})),
                             req("nic", "nic.example.com", derived=[("derived/numa", NIC_NUMA)])],
                       constraints=[match("derived/numa", ["gpu", "nic"])])] + P,
         ["pod p node node-1", "claim c devices gpu/one=gpus/gpu-1,nic=nics/nic-0"], gates=ON)
    case("derived-template", "a claim made from a template keeps the derived attributes and pairs by them",
         base + [gpus(0, 1), nics(1),
                 tmpl("pair", [req("gpu", "gpu.example.com", derived=[("derived/numa", GPU_NUMA)]),
                               req("nic", "nic.example.com", derived=[("derived/numa", NIC_NUMA)])],
                      constraints=[match("derived/numa")]),
                 pod("p", templates=[("c", "pair")])],
         ["pod p node node-1", "claim p-c devices gpu=gpus/gpu-1,nic=nics/nic-0"], gates=ON)

    # ---- validation (validateDeviceDerivedAttribute, +k8s:format, validateCELExpression) ----
    case("derived-unreferenced", "a derived attribute no constraint names is refused",
         base + [gpus(0, 1), nics(1), pair(constraint=match(f"{GPU}/numa", ["gpu"]))] + P,
         ['error spec.devices.requests[0].exactly.derivedAttributes[0].name: Invalid value: "derived/numa": must be '
          "referenced by at least one matchAttribute or distinctAttribute constraint targeting this request"],
         gates=ON)
    case("derived-constraint-of-other-request", "a constraint that covers only nic leaves gpu's derived attribute unused",
         base + [gpus(0, 1), nics(1), pair(constraint=match("derived/numa", ["nic"]))] + P,
         ['error spec.devices.requests[0].exactly.derivedAttributes[0].name: Invalid value: "derived/numa": must be '
          "referenced"], gates=ON)
    case("derived-name-without-domain", "the name is fully qualified: a domain, a slash and a C identifier",
         base + [gpus(0, 1), nics(1), pair(name="numa")] + P,
         ['error spec.devices.requests[0].exactly.derivedAttributes[0].name: Invalid value: "numa"'], gates=ON)
    case("derived-duplicate-name", "derived attribute names are unique within one request",
         N1 + [GPU_CLASS, gpus(0, 1),
               claim("c", [req("gpu", "gpu.example.com", derived=[("derived/numa", GPU_NUMA), ("derived/numa", "1")])],
                     constraints=[match("derived/numa")])] + P,
         ['error spec.devices.requests[0].exactly.derivedAttributes[1]: Duplicate value: "derived/numa"'], gates=ON)
    case("derived-cel-syntax", "the expression must compile in the selector environment",
         base + [gpus(0, 1), nics(1), pair(gpu_expr=GPU_NUMA + " +")] + P,
         ["error spec.devices.requests[0].exactly.derivedAttributes[0].expression"], gates=ON)
    case("derived-result-type", "a derived attribute must be a string, int, bool or semver, not a double",
         base + [gpus(0, 1), nics(1), pair(gpu_expr="1.5")] + P,
         ["error must evaluate to a primitive scalar (string, integer, boolean, semver), not double"], gates=ON)
    case("derived-too-many", "at most 32 derived attributes per request",
         N1 + [GPU_CLASS, gpus(0, 1),
               claim("c", [req("gpu", "gpu.example.com", derived=[(f"derived/a{i}", "1") for i in range(33)])],
                     constraints=[match(f"derived/a{i}") for i in range(32)] + [distinct("derived/a32")])] + P,
         ["error spec.devices.requests[0].exactly.derivedAttributes: Too many: 33: must have at most 32 items"],
         gates=ON)

    # ---- list values (with DRAListTypeAttributes: dynamic-resource-allocation/cel valToDeviceAttribute
    # turns a CEL list into a list attribute; the experimental allocator compares sets, KEP-5491:
    # matchAttribute needs the devices' values to share one element, distinctAttribute needs them
    # pairwise disjoint, and a scalar is a set of one) ----
    LISTS = "DRADerivedAttributes=true,DRAListTypeAttributes=true"
    SPAN = f'[device.attributes["{GPU}"].lo, device.attributes["{GPU}"].hi]'

    def spans(*pairs):
        return rslice("gpus", GPU, "gpus", [dev(f"gpu-{i}", {"lo": lo, "hi": hi}) for i, (lo, hi) in enumerate(pairs)],
                      node="node-1")

    def gpu_claim(count, constraint, expr=SPAN):
        return claim("c", [req("gpu", "gpu.example.com", count=count, derived=[("derived/numa", expr)])],
                     constraints=[constraint])

    case("derived-list-match-intersects",
         "a GPU spanning NUMA nodes [2, 3] pairs with the NIC on node 3; the GPU on [0, 1] does not",
         base + [spans((0, 1), (2, 3)), nics(3),
                 claim("c", [req("gpu", "gpu.example.com", derived=[("derived/numa", SPAN)]),
                             req("nic", "nic.example.com", derived=[("derived/numa", NIC_NUMA)])],
                       constraints=[match("derived/numa")])] + P,
         ["pod p node node-1", "claim c devices gpu=gpus/gpu-1,nic=nics/nic-0"], gates=LISTS)
    case("derived-list-match-all-share-one",
         "three GPUs must share one value: gpu-0 and gpu-1 share 1, which gpu-2 lacks; gpu-0, gpu-2, gpu-3 share 0",
         N1 + [GPU_CLASS, spans((0, 1), (1, 2), (2, 0), (0, 5)), gpu_claim(3, match("derived/numa"))] + P,
         ["pod p node node-1", "claim c devices gpu=gpus/gpu-0,gpu=gpus/gpu-2,gpu=gpus/gpu-3"], gates=LISTS)
    case("derived-list-distinct-disjoint",
         "distinctAttribute over lists: gpu-0 [0, 1] and gpu-1 [1, 2] overlap, so gpu-0 goes with gpu-2 [3, 4]",
         N1 + [GPU_CLASS, spans((0, 1), (1, 2), (3, 4)), gpu_claim(2, distinct("derived/numa"))] + P,
         ["pod p node node-1", "claim c devices gpu=gpus/gpu-0,gpu=gpus/gpu-2"], gates=LISTS)
    case("derived-list-types-differ",
         "a list of strings shares no value with the NIC's int numaNode: a string never equals an int",
         base + [spans((0, 1), (2, 3)), nics(3),
                 claim("c", [req("gpu", "gpu.example.com", derived=[
                     ("derived/numa", f'[string(device.attributes["{GPU}"].lo), string(device.attributes["{GPU}"].hi)]')]),
                     req("nic", "nic.example.com", derived=[("derived/numa", NIC_NUMA)])],
                     constraints=[match("derived/numa")])] + P,
         ["pod p pending " + PENDING, "claim c unallocated"], gates=LISTS)
    case("derived-list-element-types-mixed",
         "a list whose elements differ in type at run time stops the allocation",
         N1 + [GPU_CLASS, spans((0, 1), (2, 3)),
               gpu_claim(2, distinct("derived/numa"), f'[device.attributes["{GPU}"].lo, dyn("x")]')] + P,
         ["pod p pending-contains claim default/c, request gpu, derived attribute derived/numa, device "
          "gpu.example.com/gpus/gpu-0: CEL runtime error: expected list element at index 1 to be int, got string",
          "claim c unallocated"], gates=LISTS)
    case("derived-list-gate-off",
         "without DRAListTypeAttributes a derived attribute must be a scalar",
         N1 + [GPU_CLASS, spans((0, 1), (2, 3)), gpu_claim(2, distinct("derived/numa"))] + P,
         ["error must evaluate to a primitive scalar (string, integer, boolean, semver), not list(dyn)"], gates=ON)

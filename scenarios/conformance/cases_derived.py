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

    case("derived-gate-off-dropped",
         "DRADerivedAttributes off (the 1.37 default): the field is dropped, no device has derived/numa",
         base + [gpus(0, 1), nics(1), pair()] + P,
         ["pod p pending " + PENDING, "claim c unallocated"])
    case("derived-1-36-dropped", "1.36 has no DRADerivedAttributes: the field is dropped likewise",
         base + [gpus(0, 1), nics(1), pair()] + P,
         ["pod p pending " + PENDING, "claim c unallocated"], version="1.36")

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

# SPDX-License-Identifier: Apache-2.0
"""Conformance cases: only the newest generation of a pool exists (addendum 5). A device name that
appears in two generations names two different devices; nothing learned about the outdated one (a
selector verdict, a CEL error, a device count) may decide for the current one."""


def register(g):
    globals().update({k: v for k, v in g.items() if not k.startswith("__")})
    N1 = [node("node-1")]
    FPGA = "fpga.example.com"
    alveo = cls("fpga-alveo", [f'device.attributes["{FPGA}"].family == "alveo"'], driver=FPGA)
    fpga_claim = [claim("c", [req("fpga", "fpga-alveo")]), pod("p", [("fpga", "c")])]

    def fpga_slice(name, gen, family):
        attrs = {"family": family} if family else None
        return rslice(name, FPGA, "node-1", [dev("fpga-1", attrs)], node="node-1", gen=gen)

    # The outdated slice's name sorts first, so it is the first one met in listing order.
    case("generation-newer-device-matches", "the current fpga-1 matches; the outdated fpga-1 of the same name does not",
         N1 + [alveo, fpga_slice("node-1-fpga-b-new", 2, "alveo"), fpga_slice("node-1-fpga-a-old", 1, "agilex")]
         + fpga_claim,
         ["pod p node node-1", "claim c devices fpga=node-1/fpga-1"])
    case("generation-outdated-device-matches", "only the outdated fpga-1 would match: the current one decides",
         N1 + [alveo, fpga_slice("node-1-fpga-b-new", 2, "agilex"), fpga_slice("node-1-fpga-a-old", 1, "alveo")]
         + fpga_claim,
         ["pod p pending " + pending(1, "1 cannot allocate all claims"), "claim c unallocated"])
    case("generation-outdated-cel-error", "a CEL error only the outdated device raises (missing attribute) is not raised",
         N1 + [alveo, fpga_slice("node-1-fpga-b-new", 2, "alveo"), fpga_slice("node-1-fpga-a-old", 1, None)]
         + fpga_claim,
         ["pod p node node-1", "claim c devices fpga=node-1/fpga-1"])
    case("generation-current-cel-error", "a CEL error of the current device is raised even when the outdated one matched",
         N1 + [alveo, fpga_slice("node-1-fpga-b-new", 2, None), fpga_slice("node-1-fpga-a-old", 1, "alveo")]
         + fpga_claim,
         ["pod p pending-contains class fpga-alveo: selector #1: CEL runtime error", "claim c unallocated"])
    case("generation-newer-has-fewer-devices", "the newer generation lists one device where the old listed three",
         N1 + [GPU_CLASS, ONE_GPU,
               rslice("node-1-gpus-a", GPU, "node-1", [dev(f"gpu-{i}") for i in range(3)], node="node-1", gen=1),
               rslice("node-1-gpus-b", GPU, "node-1", [dev("gpu-0")], node="node-1", gen=2),
               pod("p1", templates=[("gpu", "one-gpu")]), pod("p2", templates=[("gpu", "one-gpu")])],
         ["pod p1 node node-1", "claim p1-gpu devices gpu=node-1/gpu-0",
          "pod p2 pending " + pending(1, "1 cannot allocate all claims"), "claim p2-gpu unallocated"])
    case("generation-newer-has-fewer-devices-count", "a request for two devices cannot use the old generation's extra devices",
         N1 + [GPU_CLASS,
               rslice("node-1-gpus-a", GPU, "node-1", [dev(f"gpu-{i}") for i in range(3)], node="node-1", gen=1),
               rslice("node-1-gpus-b", GPU, "node-1", [dev("gpu-0")], node="node-1", gen=2),
               claim("c", [req("gpu", "gpu.example.com", count=2)]), pod("p", [("gpu", "c")])],
         ["pod p pending " + pending(1, "1 cannot allocate all claims"), "claim c unallocated"])
    case("generation-counters-newest", "shared counters come from the newest generation's counter slice only",
         N1 + [GPU_CLASS, ONE_GPU,
               rslice("node-1-a-counters", GPU, "node-1", node="node-1", gen=1, count=2, counters={"mem": {"memory": "8Gi"}}),
               rslice("node-1-a-parts", GPU, "node-1", [dev(f"part-{i}", counters={"mem": {"memory": "4Gi"}}) for i in range(2)],
                      node="node-1", gen=1, count=2),
               rslice("node-1-b-counters", GPU, "node-1", node="node-1", gen=2, count=2, counters={"mem": {"memory": "4Gi"}}),
               rslice("node-1-b-parts", GPU, "node-1", [dev(f"part-{i}", counters={"mem": {"memory": "4Gi"}}) for i in range(2)],
                      node="node-1", gen=2, count=2),
               pod("p1", templates=[("gpu", "one-gpu")]), pod("p2", templates=[("gpu", "one-gpu")])],
         ["pod p1 node node-1", "claim p1-gpu devices gpu=node-1/part-0",
          "pod p2 pending " + pending(1, "1 cannot allocate all claims")])
    case("generation-outdated-device-in-use-by-name", "an allocated result names a device, whatever generation it was picked in",
         N1 + [GPU_CLASS,
               rslice("node-1-gpus-a", GPU, "node-1", [dev("gpu-0"), dev("gpu-1")], node="node-1", gen=1),
               rslice("node-1-gpus-b", GPU, "node-1", [dev("gpu-0"), dev("gpu-1")], node="node-1", gen=2),
               claim("old", [req("gpu", "gpu.example.com")], allocation=[("gpu", GPU, "node-1", "gpu-0")], reserved=["x"]),
               claim("c", [req("gpu", "gpu.example.com")]), pod("p", [("gpu", "c")])],
         ["pod p node node-1", "claim c devices gpu=node-1/gpu-1"])

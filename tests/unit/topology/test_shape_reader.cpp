// SPDX-License-Identifier: Apache-2.0
#include <gtest/gtest.h>

#include "core/topology/shape_reader.h"

namespace drasim::topology {
namespace {

// A minimal valid shape; tests patch one line to make it invalid.
const char* kBase = R"(apiVersion: drasim.dev/v1alpha1
kind: NodeShape
metadata:
  name: tiny
spec:
  price: {purchaseUSD: 1000, perHourUSD: 1.5}
  cpu:
    sockets:
      - model: test cpu
        numaNodes: [{id: 0, cores: 8, memory: 64Gi}]
  pcie:
    - name: rc-0
      bus: "0000:10"
      numaNode: 0
      children:
        - kind: switch
          name: sw-0
          children:
            - {kind: gpu, name: gpu0, model: L40S, busID: "0000:12:00.0"}
            - {kind: nic, name: nic0, model: ConnectX-6-Dx, busID: "0000:13:00.0"}
  fabrics: []
)";

std::vector<std::string> errorsFor(const std::string& yaml)
{
    Diagnostics d;
    readNodeShapes(yaml, "s.yaml", d);
    std::vector<std::string> out;
    for (const auto& x : d.all())
        out.push_back(x.format());
    return out;
}

std::string patched(const std::string& from, const std::string& to)
{
    std::string s = kBase;
    auto at = s.find(from);
    if (at == std::string::npos)
        throw std::runtime_error("pattern not in base shape: " + from);
    s.replace(at, from.size(), to);
    return s;
}

TEST(ShapeReader, ValidShapeReadsCompletely)
{
    Diagnostics d;
    auto shapes = readNodeShapes(kBase, "s.yaml", d);
    ASSERT_EQ(shapes.size(), 1u) << d.formatAll();
    const auto& s = shapes[0];
    EXPECT_EQ(s.name, "tiny");
    EXPECT_EQ(s.price.perHourUsd, 1.5);
    EXPECT_EQ(s.totalCores(), 8);
    EXPECT_EQ(s.totalMemory().toString(), "64Gi");
    ASSERT_EQ(s.components.size(), 4u);
    EXPECT_EQ(s.components[s.find("gpu0")].numaNode, 0);
    EXPECT_EQ(s.components[s.find("gpu0")].index, 0);
    EXPECT_EQ(s.components[s.find("gpu0")].parent, s.find("sw-0"));
    EXPECT_EQ(s.components[s.find("gpu0")].pos.line, 19);
}

struct BadCase
{
    const char* name;
    const char* from;
    const char* to;
    const char* error;
};

class ShapeReaderErrors : public ::testing::TestWithParam<BadCase>
{
};

TEST_P(ShapeReaderErrors, ReportFileLineFieldAndReason)
{
    const auto& c = GetParam();
    auto errors = errorsFor(patched(c.from, c.to));
    ASSERT_FALSE(errors.empty()) << c.name;
    EXPECT_EQ(errors[0], c.error) << c.name;
}

INSTANTIATE_TEST_SUITE_P(Cases, ShapeReaderErrors,
    ::testing::Values(BadCase { "wrongApiVersion", "drasim.dev/v1alpha1", "drasim.dev/v2",
                          "s.yaml:1:13: NodeShape tiny: apiVersion: Unsupported value: \"drasim.dev/v2\": "
                          "supported values: "
                          "\"drasim.dev/v1alpha1\"" },
        BadCase { "badName", "name: tiny", "name: Tiny_Box",
            "s.yaml:4:9: NodeShape Tiny_Box: metadata.name: Invalid value: \"Tiny_Box\": must be a lowercase "
            "RFC 1123 label" },
        BadCase { "unknownSpecField", "  price:", "  prize:",
            "s.yaml:6:3: NodeShape tiny: spec.prize: unknown field \"prize\"; expected one of: description, "
            "sources, arch, labels, price, powerWatts, kubelet, nvidia, cpu, models, pcie, fabrics, "
            "observed" },
        BadCase { "negativePrice", "perHourUSD: 1.5", "perHourUSD: -2",
            "s.yaml:6:42: NodeShape tiny: spec.price.perHourUSD: Invalid value: -2: must be greater than or "
            "equal to 0" },
        BadCase { "badQuantity", "memory: 64Gi", "memory: 64GB",
            "s.yaml:10:47: NodeShape tiny: spec.cpu.sockets[0].numaNodes[0].memory: invalid quantity "
            "\"64GB\": "
            "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'" },
        BadCase { "badBus", "bus: \"0000:10\"", "bus: \"10\"",
            "s.yaml:13:12: NodeShape tiny: spec.pcie[0].bus: Invalid value: \"10\": must be a PCI domain:bus "
            "such as \"0000:15\"" },
        BadCase { "undefinedNuma", "      numaNode: 0", "      numaNode: 3",
            "s.yaml:12:7: NodeShape tiny: spec.pcie[0].numaNode: NUMA node 3 is not defined in spec.cpu" },
        BadCase { "unknownKind", "kind: switch", "kind: hub",
            "s.yaml:16:17: NodeShape tiny: spec.pcie[0].children[0].kind: Unsupported value: \"hub\": "
            "supported values: \"switch\", \"bridge\", \"gpu\", \"nic\", \"fpga\", \"accelerator\", "
            "\"other\"" },
        BadCase { "unknownModel", "model: L40S", "model: L40X",
            "s.yaml:19:15: NodeShape tiny: spec.pcie[0].children[0].children[0].model: unknown device model "
            "\"L40X\" (define it under spec.models or use a built-in model)" },
        BadCase { "modelKindMismatch", "model: ConnectX-6-Dx", "model: L40S",
            "s.yaml:20:15: NodeShape tiny: spec.pcie[0].children[0].children[1].model: model L40S is a gpu, "
            "but nic0 is a nic" },
        BadCase { "badBusId", "busID: \"0000:12:00.0\"", "busID: \"0000:12:00\"",
            "s.yaml:19:59: NodeShape tiny: spec.pcie[0].children[0].children[0].busID: Invalid value: "
            "\"0000:12:00\": must be a PCI address such as \"0000:18:00.0\"" },
        BadCase { "duplicateBusId", "busID: \"0000:13:00.0\"", "busID: \"0000:12:00.0\"",
            "s.yaml:20:15: NodeShape tiny: spec.pcie[0].children[0].children[1].busID: PCI address "
            "0000:12:00.0 "
            "is used by both gpu0 and nic0" },
        BadCase { "duplicateName", "name: nic0", "name: gpu0",
            "s.yaml:20:15: NodeShape tiny: spec.pcie[0].children[0].children[1].name: component name "
            "\"gpu0\" "
            "is used twice" },
        BadCase { "fabricUnknownDevice", "fabrics: []",
            "fabrics: [{name: nv, linksPerDevice: 4, devices: [gpu0, gpu9]}]",
            "s.yaml:21:59: NodeShape tiny: spec.fabrics[0].devices[1]: no component named \"gpu9\" in "
            "spec.pcie" },
        BadCase { "fabricOnSwitch", "fabrics: []",
            "fabrics: [{name: nv, linksPerDevice: 4, devices: [gpu0, sw-0]}]",
            "s.yaml:21:59: NodeShape tiny: spec.fabrics[0].devices[1]: \"sw-0\" is a switch, only devices "
            "join "
            "a fabric" },
        BadCase { "migOnL40s", "busID: \"0000:12:00.0\"}", "busID: \"0000:12:00.0\", migLayout: [1g.10gb]}",
            "s.yaml:19:86: NodeShape tiny: spec.pcie[0].children[0].children[0].migLayout: L40S does not "
            "support MIG" },
        BadCase { "missingCpu", "  cpu:\n", "  cpux:\n",
            "s.yaml:7:3: NodeShape tiny: spec.cpux: unknown field \"cpux\"; expected one of: description, "
            "sources, arch, labels, price, powerWatts, kubelet, nvidia, cpu, models, pcie, fabrics, "
            "observed" },
        // Worded like every other drasim document (Scenario, Study, workload specs).
        BadCase { "emptyNumaList", "numaNodes: [{id: 0, cores: 8, memory: 64Gi}]", "numaNodes: []",
            "s.yaml:9:9: NodeShape tiny: spec.cpu.sockets[0].numaNodes: Required value: at least one NUMA "
            "node" },
        BadCase { "numaNotAList", "numaNodes: [{id: 0, cores: 8, memory: 64Gi}]", "numaNodes: {id: 0}",
            "s.yaml:10:20: NodeShape tiny: spec.cpu.sockets[0].numaNodes: expected a list, got map" },
        BadCase { "coresNotAnInteger", "cores: 8", "cores: eight",
            "s.yaml:10:36: NodeShape tiny: spec.cpu.sockets[0].numaNodes[0].cores: expected an integer, got "
            "string \"eight\"" },
        BadCase { "missingBus", "      bus: \"0000:10\"\n", "",
            "s.yaml:12:7: NodeShape tiny: spec.pcie[0].bus: Required value" },
        BadCase { "fabricListedTwice", "fabrics: []",
            "fabrics: [{name: nv, linksPerDevice: 4, devices: [gpu0, gpu0]}]",
            "s.yaml:21:59: NodeShape tiny: spec.fabrics[0].devices[1]: Duplicate value: \"gpu0\"" }),
    [](const ::testing::TestParamInfo<BadCase>& info) { return info.param.name; });

TEST(ShapeReader, MalformedYamlIsOneLocatedError)
{
    auto errors = errorsFor("apiVersion: drasim.dev/v1alpha1\nkind: NodeShape\nspec: [unclosed\n");
    ASSERT_FALSE(errors.empty());
    EXPECT_EQ(errors[0].rfind("s.yaml:", 0), 0u) << errors[0];
}

TEST(ShapeReader, WrongKindIsRejected)
{
    auto errors = errorsFor(patched("kind: NodeShape", "kind: Node"));
    ASSERT_FALSE(errors.empty());
    EXPECT_EQ(errors[0],
        "s.yaml:2:7: NodeShape tiny: kind: Unsupported value: \"Node\": supported values: \"NodeShape\"");
}

TEST(ShapeReader, CustomModelsAreUsable)
{
    std::string yaml = patched("  pcie:\n", R"(  models:
    - {id: my-accel, kind: accelerator, driver: gaudi, productName: Gaudi2, pciVendorID: "0x1da3", pciDeviceID: "0x1020"}
  pcie:
)");
    yaml = yaml.replace(yaml.find("kind: gpu, name: gpu0, model: L40S"), 34,
        "kind: accelerator, name: acc0, model: my-accel");
    Diagnostics d;
    auto shapes = readNodeShapes(yaml, "s.yaml", d);
    ASSERT_EQ(shapes.size(), 1u) << d.formatAll();
    const auto& s = shapes[0];
    const DeviceModel* m = s.modelOf(s.components[s.find("acc0")]);
    ASSERT_NE(m, nullptr);
    EXPECT_EQ(m->productName, "Gaudi2");
}

} // namespace
} // namespace drasim::topology

// SPDX-License-Identifier: Apache-2.0
// The real DeviceClasses shipped with the drivers must select the devices we generate, exactly
// as they would on the real machine (the run-ai/fake-gpu-operator#189 failure mode).
#include <map>

#include <gtest/gtest.h>

#include "core/cel/cel.h"
#include "core/topology/cluster_builder.h"
#include "core/yamlio/loader.h"
#include "tests/unit/topology/test_helpers.h"

namespace drasim::topology {
namespace {

struct CompiledClass
{
    std::string name;
    std::vector<std::shared_ptr<const cel::Selector>> selectors;
};

std::vector<CompiledClass> loadClasses()
{
    auto result = yamlio::loadPaths({ testing::hardwareDir() + "/deviceclasses" });
    if (result.diagnostics.hasErrors())
        throw std::runtime_error(result.diagnostics.formatAll());
    std::vector<CompiledClass> out;
    for (const auto& dc : result.objects.deviceClasses) {
        CompiledClass c;
        c.name = dc.meta.name;
        for (const auto& sel : dc.selectors) {
            cel::CompileError err;
            auto compiled = cel::Selector::compile(sel.expression, &err);
            if (!compiled)
                throw std::runtime_error(c.name + ": " + err.message);
            c.selectors.push_back(compiled);
        }
        out.push_back(c);
    }
    return out;
}

// Classes that select the device; a CEL runtime error fails the test (the real allocator would
// fail the pod's scheduling attempt).
std::vector<std::string> selecting(
    const std::vector<CompiledClass>& classes, const std::string& driver, const api::Device& d)
{
    std::vector<std::string> out;
    for (const auto& c : classes) {
        bool all = true;
        for (const auto& s : c.selectors) {
            cel::DeviceView view;
            view.driver = driver;
            view.attributes = &d.attributes;
            view.capacity = &d.capacity;
            auto r = s->evaluate(view);
            EXPECT_NE(r.outcome, cel::Outcome::Error) << c.name << " on " << d.name << ": " << r.error;
            all = all && r.outcome == cel::Outcome::True;
        }
        if (all)
            out.push_back(c.name);
    }
    return out;
}

TEST(DeviceClasses, ShippedManifestsLoadAndCompile)
{
    auto classes = loadClasses();
    std::vector<std::string> names;
    for (const auto& c : classes)
        names.push_back(c.name);
    for (const char* want : { "gpu.nvidia.com", "mig.nvidia.com", "dranet", "gpu.amd.com", "gaudi.intel.com",
             "gpu.example.com", "fpga.example.com" })
        EXPECT_NE(std::find(names.begin(), names.end(), want), names.end()) << want;
}

TEST(DeviceClasses, EveryGeneratedDeviceIsSelectedByItsDriversClass)
{
    auto classes = loadClasses();
    // Expected class per (driver, type): full GPUs only by gpu.nvidia.com, MIG only by mig.nvidia.com.
    std::map<std::string, int> selectedBy;
    for (const auto& shape : testing::catalog().shapes()) {
        for (auto mode : { MigMode::None, MigMode::Dynamic }) {
            GenerateOptions o;
            o.mig = mode;
            auto set = generateNodePool(shape, 1, "n", o);
            for (const auto& s : set.resourceSlices) {
                for (const auto& d : s.devices) {
                    auto sel = selecting(classes, s.driver, d);
                    std::vector<std::string> expected;
                    if (s.driver == "gpu.nvidia.com")
                        expected = { d.attributes.at("type").stringValue == "mig" ? "mig.nvidia.com"
                                                                                  : "gpu.nvidia.com" };
                    else if (s.driver == "dra.net")
                        expected = d.attributes.at("dra.net/rdma").boolValue
                            ? std::vector<std::string> { "dranet", "rdma-net" }
                            : std::vector<std::string> { "dranet" };
                    else
                        expected = { s.driver };
                    std::sort(sel.begin(), sel.end());
                    EXPECT_EQ(sel, expected) << shape.name << " " << s.driver << "/" << d.name;
                    for (const auto& c : sel)
                        ++selectedBy[c];
                }
            }
        }
    }
    for (const char* c : { "gpu.nvidia.com", "mig.nvidia.com", "dranet", "rdma-net", "gpu.amd.com",
             "gaudi.intel.com", "gpu.example.com", "fpga.example.com" })
        EXPECT_GT(selectedBy[c], 0) << c;
}

TEST(DeviceClasses, PcieRootAlignsGpuWithItsRailNic)
{
    // The matchAttribute pattern of real GPU+NIC claims: same resource.kubernetes.io/pcieRoot.
    auto set = generateNodePool(*testing::catalog().find("dgx-h100"), 1, "n");
    std::map<std::string, std::vector<std::string>> byRoot;
    for (const auto& s : set.resourceSlices)
        for (const auto& d : s.devices)
            byRoot[d.attributes.at("resource.kubernetes.io/pcieRoot").stringValue].push_back(d.name);
    EXPECT_EQ(byRoot["pci0000:15"], (std::vector<std::string> { "pci-0000-18-00-0", "gpu-0" }));
    EXPECT_EQ(byRoot["pci0000:d9"], (std::vector<std::string> { "pci-0000-dc-00-0", "gpu-7" }));
}

} // namespace
} // namespace drasim::topology

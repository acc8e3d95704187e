// SPDX-License-Identifier: Apache-2.0
#include <gtest/gtest.h>

#include "core/topology/catalog.h"
#include "core/topology/topology.h"
#include "tests/unit/topology/test_helpers.h"

namespace drasim::topology {
namespace {

TEST(Catalog, EveryShippedShapeLoadsWithoutDiagnostics)
{
    Diagnostics d;
    Catalog c = Catalog::load(testing::hardwareDir(), d);
    EXPECT_TRUE(d.all().empty()) << d.formatAll();
    const std::vector<std::string> required = { "a100-pcie-8gpu", "alveo-u55c-4fpga", "cpu-epyc-9654",
        "dgx-h100", "dgx-h200", "gaudi3-8", "gb200-nvl72-tray", "hgx-b200", "l40s-pcie-4gpu", "mi300x-8gpu" };
    for (const auto& name : required) {
        const NodeShape* s = c.find(name);
        ASSERT_NE(s, nullptr) << name;
        EXPECT_GT(s->price.perHourUsd, 0) << name;
        EXPECT_GT(s->powerWatts, 0) << name;
        EXPECT_FALSE(s->sources.empty()) << name;
    }
    EXPECT_EQ(c.find("no-such-shape"), nullptr);
    auto names = c.names();
    EXPECT_TRUE(std::is_sorted(names.begin(), names.end()));
}

TEST(Catalog, MissingDirectoryIsADiagnostic)
{
    Diagnostics d;
    Catalog c = Catalog::load("/nonexistent/drasim/hardware", d);
    ASSERT_EQ(d.errorCount(), 1u);
    EXPECT_EQ(d.all()[0].format(), "/nonexistent/drasim/hardware: hardware catalog directory not found");
    EXPECT_TRUE(c.shapes().empty());
}

TEST(Catalog, DefaultDirectoryFindsTheSourceTree)
{
    EXPECT_FALSE(Catalog::defaultDirectory().empty());
}

TEST(Catalog, RealLayoutsPairGpusWithNicsWhereTheMachinesDo)
{
    struct Case
    {
        const char* shape;
        const char* a;
        const char* b;
        const char* label;
    };
    const Case cases[] = {
        { "dgx-h100", "gpu3", "nic3", "PIX" },
        { "dgx-a100-mig", "gpu0", "nic1", "PXB" },
        { "dgx-a100-mig", "gpu1", "gpu6", "NV12" },
        { "dgx-a100-mig", "gpu0", "nic2", "SYS" },
        { "hgx-b200", "gpu5", "nic5", "PIX" },
        { "mi300x-8gpu", "gpu2", "nic2", "PIX" },
        { "mi300x-8gpu", "gpu0", "gpu7", "XGMI1" },
        { "a100-pcie-8gpu", "gpu0", "gpu1", "NV12" },
        { "a100-pcie-8gpu", "gpu1", "gpu2", "NODE" },
        { "a100-pcie-8gpu", "gpu2", "nic0", "NODE" },
        { "a100-pcie-8gpu", "gpu4", "nic1", "PIX" },
        { "l40s-pcie-4gpu", "gpu0", "gpu1", "NODE" },
        { "l40s-pcie-4gpu", "gpu0", "gpu2", "SYS" },
        { "gb200-nvl72-tray", "gpu0", "gpu3", "NV18" },
        { "gb200-nvl72-tray", "gpu0", "nic0", "NODE" },
        { "gb200-nvl72-tray", "gpu0", "nic2", "SYS" },
        { "gaudi3-8", "hl0", "hl1", "ROCE3" },
        { "alveo-u55c-4fpga", "fpga1", "nic0", "PHB" },
        { "alveo-u55c-4fpga", "fpga0", "fpga2", "SYS" },
    };
    for (const auto& c : cases) {
        const NodeShape* s = testing::catalog().find(c.shape);
        ASSERT_NE(s, nullptr) << c.shape;
        Topology t(*s);
        EXPECT_EQ(t.distance(s->find(c.a), s->find(c.b)).label(), c.label)
            << c.shape << " " << c.a << "-" << c.b;
    }
}

} // namespace
} // namespace drasim::topology

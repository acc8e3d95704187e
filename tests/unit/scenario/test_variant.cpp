// SPDX-License-Identifier: Apache-2.0
#include <filesystem>
#include <fstream>
#include <stdlib.h>

#include <gtest/gtest.h>

#include "core/scenario/variant.h"

using namespace drasim;
using namespace drasim::scenario;
namespace fs = std::filesystem;

namespace {

const char* const kBase = R"(apiVersion: drasim.dev/v1alpha1
kind: Scenario
metadata: {name: base}
spec:
  cluster:
    nodePools:
      - {name: h100, shape: dgx-h100, count: 4}
      - {name: l40s, shape: l40s-pcie-4gpu, count: 6}
  workloads:
    - name: training
      manifests: [w.yaml]
      arrival: {process: poisson, rate: 2/h, until: 1d}
      duration: {distribution: exponential, mean: 1h}
  events:
    - {at: 10h, type: NodeFailure, node: h100-1}
)";

class Folder
{
public:
    Folder()
    {
        std::string tmpl = (fs::temp_directory_path() / "drasim-variant-XXXXXX").string();
        m_path = mkdtemp(tmpl.data());
        write("scenario.yaml", kBase);
    }
    ~Folder() { fs::remove_all(m_path); }
    std::string write(const std::string& name, const std::string& text) const
    {
        std::ofstream(m_path + "/" + name) << text;
        return m_path + "/" + name;
    }
    const std::string& path() const { return m_path; }

private:
    std::string m_path;
};

std::string variant(const std::string& name, const std::string& base, const std::string& overrides)
{
    return "apiVersion: drasim.dev/v1alpha1\nkind: Variant\nmetadata: {name: " + name
        + "}\nspec:\n  base: " + base + "\n  overrides:\n" + overrides;
}

} // namespace

TEST(Variant, OverridesApplyInOrderToTheBase)
{
    Folder dir;
    const std::string file = dir.write("more.yaml",
        variant("more", "scenario.yaml",
            "    - addNodePool: {name: burst, shape: dgx-h100, count: 2}\n"
            "    - removeNodePool: l40s\n"
            "    - setNodePool: {name: h100, count: 6, shape: dgx-h200}\n"
            "    - scaleWorkload: {name: training, arrival: 1.5, duration: 2}\n"
            "    - scheduling: {scoring: most-allocated}\n"
            "    - failure: {at: 3h, node: h100-0, for: 90m}\n"));
    Diagnostics diags;
    auto sc = loadScenarioOrVariant(file, diags);
    ASSERT_TRUE(sc) << diags.formatAll();
    EXPECT_EQ(sc->name, "more");
    ASSERT_EQ(sc->nodePools.size(), 2u);
    EXPECT_EQ(sc->nodePools[0].name, "h100");
    EXPECT_EQ(sc->nodePools[0].count, 6);
    EXPECT_EQ(sc->nodePools[0].shape, "dgx-h200");
    EXPECT_EQ(sc->nodePools[1].name, "burst");
    EXPECT_EQ(sc->scoring, "most-allocated");
    ASSERT_TRUE(sc->workloads[0].arrival);
    EXPECT_DOUBLE_EQ(sc->workloads[0].arrival->ratePerSecond, 3.0 / 3600);
    EXPECT_DOUBLE_EQ(sc->workloads[0].duration->mean, 7200);
    // Failures join the base's events in time order; `for` brings the node back.
    ASSERT_EQ(sc->events.size(), 3u);
    EXPECT_EQ(sc->events[0].at, 3 * sim::kHour);
    EXPECT_EQ(sc->events[0].type, sim::InjectedEvent::Type::NodeFailure);
    EXPECT_EQ(sc->events[1].at, 3 * sim::kHour + 90 * sim::kMinute);
    EXPECT_EQ(sc->events[1].type, sim::InjectedEvent::Type::NodeReturn);
    EXPECT_EQ(sc->events[2].node, "h100-1");
    // Relative paths still resolve against the base's folder.
    EXPECT_EQ(sc->resolvedPath("w.yaml"), dir.path() + "/w.yaml");
}

TEST(Variant, AVariantOfAVariantStacksTheirOverrides)
{
    Folder dir;
    dir.write("a.yaml", variant("a", "scenario.yaml", "    - setNodePool: {name: h100, count: 8}\n"));
    const std::string b = dir.write("b.yaml", variant("b", "a.yaml", "    - removeNodePool: l40s\n"));
    Diagnostics diags;
    auto sc = loadScenarioOrVariant(b, diags);
    ASSERT_TRUE(sc) << diags.formatAll();
    EXPECT_EQ(sc->name, "b");
    ASSERT_EQ(sc->nodePools.size(), 1u);
    EXPECT_EQ(sc->nodePools[0].count, 8);

    const std::string loop
        = dir.write("loop.yaml", variant("loop", "loop.yaml", "    - removeNodePool: l40s\n"));
    Diagnostics loopDiags;
    EXPECT_FALSE(loadScenarioOrVariant(loop, loopDiags));
    EXPECT_NE(loopDiags.formatAll().find("more than 8 variants deep"), std::string::npos)
        << loopDiags.formatAll();
}

TEST(Variant, WhatTheBaseLacksIsReportedAtTheOverride)
{
    Folder dir;
    const std::string file = dir.write("bad.yaml",
        variant("bad", "scenario.yaml",
            "    - removeNodePool: a100\n"
            "    - addNodePool: {name: h100, shape: dgx-h100, count: 1}\n"
            "    - scaleWorkload: {name: serving, arrival: 2}\n"));
    Diagnostics diags;
    EXPECT_FALSE(loadScenarioOrVariant(file, diags));
    EXPECT_EQ(diags.formatAll(),
        file + ":7:7: Variant bad: spec.overrides[0].removeNodePool: no node pool \"a100\" in scenario base\n"
            + file
            + ":8:7: Variant bad: spec.overrides[1].addNodePool: scenario base already has a node pool "
              "\"h100\"\n"
            + file
            + ":9:7: Variant bad: spec.overrides[2].scaleWorkload: no workload \"serving\" in scenario "
              "base\n");
}

TEST(Variant, MalformedOverridesAreLocated)
{
    Diagnostics diags;
    const std::string text = variant("v", "scenario.yaml",
        "    - {removeNodePool: a, scheduling: {scoring: default}}\n"
        "    - scheduling: {scoring: fastest}\n"
        "    - scaleWorkload: {name: t, arrival: 0}\n"
        "    - explode: {}\n"
        "    - failure: {node: x}\n");
    EXPECT_FALSE(parseVariant(text, "v.yaml", diags));
    const std::string all = diags.formatAll();
    EXPECT_NE(all.find("v.yaml:7:7: Variant v: spec.overrides[0]: an override has exactly one key, got 2"),
        std::string::npos)
        << all;
    EXPECT_NE(
        all.find("spec.overrides[1].scheduling.scoring: Unsupported value: \"fastest\""), std::string::npos)
        << all;
    EXPECT_NE(all.find("spec.overrides[2].scaleWorkload.arrival: Invalid value"), std::string::npos) << all;
    EXPECT_NE(all.find("spec.overrides[3].explode: unknown field \"explode\""), std::string::npos) << all;
    EXPECT_NE(all.find("spec.overrides[4].failure.at: Required value"), std::string::npos) << all;
    EXPECT_TRUE(isVariantText(text));
    EXPECT_FALSE(isVariantText(kBase));
}

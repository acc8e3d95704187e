// SPDX-License-Identifier: Apache-2.0
// A study's input through a Scenario: the trace files it names, and what it says when one is
// missing.

#include <gtest/gtest.h>

#include "core/fragstudy/scenario_input.h"
#include "core/scenario/variant.h"

namespace drasim::fragstudy {
namespace scenario_input_test {

TEST(ScenarioStudyInput, ReadsTheNodeListAndTheFirstAlibabaTrace)
{
    Diagnostics diags;
    auto scenario = scenario::loadScenarioOrVariant(
        std::string(DRASIM_SOURCE_DIR) + "/scenarios/plan/fragmentation/scenario.yaml", diags);
    ASSERT_TRUE(scenario) << diags.formatAll();
    auto input = scenarioStudyInput(*scenario, diags);
    ASSERT_TRUE(input) << diags.formatAll();
    EXPECT_EQ(input->nodes.size(), 1213u);
    EXPECT_EQ(input->gpuCount(), 6212);
    EXPECT_EQ(input->pods.size(), 8152u);
}

TEST(ScenarioStudyInput, WithoutATraceClusterSaysWhatIsMissing)
{
    scenario::Scenario scenario;
    scenario.name = "plain";
    Diagnostics diags;
    EXPECT_FALSE(scenarioStudyInput(scenario, diags));
    EXPECT_NE(diags.formatAll().find(
                  "a fragmentation study needs the trace's node list (spec.cluster.trace.nodes)"),
        std::string::npos)
        << diags.formatAll();
}

TEST(ScenarioStudyInput, WithoutAnAlibabaTraceWorkloadSaysWhatIsMissing)
{
    scenario::Scenario scenario;
    scenario.name = "nodes-only";
    scenario.traceCluster = workload::TraceClusterSpec {};
    scenario.workloads.push_back(workload::WorkloadSpec {});
    Diagnostics diags;
    EXPECT_FALSE(scenarioStudyInput(scenario, diags));
    EXPECT_NE(diags.formatAll().find("a fragmentation study needs a workload with an alibaba-2023 trace"),
        std::string::npos)
        << diags.formatAll();
}

} // namespace scenario_input_test
} // namespace drasim::fragstudy

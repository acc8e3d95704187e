// SPDX-License-Identifier: Apache-2.0
// The scenario's feature gates decide whether a workload's `scheduling:` makes PodGroups the
// scheduler queues (GenericWorkload and WorkloadWithJob) and whether their topology key binds
// (TopologyAwareWorkloadScheduling), with each Kubernetes version's defaults.
#include <gtest/gtest.h>

#include "core/scenario/prepare.h"
#include "core/scenario/scenario.h"
#include "core/sim/run_prepared.h"

using namespace drasim;
using namespace drasim::scenario;
using namespace drasim::sim;

namespace {

const std::string kGang = DRASIM_SOURCE_DIR "/scenarios/learn/14-gang-scheduling/scenario.yaml";

Scenario load(const std::string& file)
{
    Diagnostics diags;
    auto s = loadScenario(file, diags);
    EXPECT_TRUE(s.has_value()) << diags.formatAll();
    return s.value_or(Scenario {});
}

RunSummary run(const Scenario& s)
{
    Diagnostics diags;
    auto p = prepareScenario(s, {}, diags);
    EXPECT_TRUE(p.has_value()) << diags.formatAll();
    if (!p)
        return {};
    auto summary = runPrepared(*p, RunOptions {}, diags);
    EXPECT_TRUE(summary.has_value()) << diags.formatAll();
    return summary.value_or(RunSummary {});
}

api::FeatureGates gates(api::KubernetesVersion v, std::initializer_list<std::pair<const char*, bool>> set)
{
    api::FeatureGates g(v);
    for (const auto& [name, on] : set)
        EXPECT_EQ(g.set(name, on), "") << name;
    return g;
}

} // namespace

TEST(GangGates, GenericWorkloadAndWorkloadWithJobTurnTheGroupCycleOn)
{
    Scenario s = load(kGang);
    ASSERT_TRUE(s.featureGates.enabled("GenericWorkload"));
    const RunSummary on = run(s);
    EXPECT_GT(on.gangs.groupCycles, 0u);
    EXPECT_EQ(on.gangs.idleDeviceHours, 0);

    // Either gate off (both are off by default, even in 1.37): plain pods, bound one by one.
    for (const char* only : { "GenericWorkload", "WorkloadWithJob" }) {
        s.featureGates = gates(api::KubernetesVersion::V1_37, { { only, true } });
        const RunSummary plain = run(s);
        EXPECT_EQ(plain.gangs.groupCycles, 0u) << only;
        EXPECT_GT(plain.gangs.idleDeviceHours, 0) << only;
    }
    // Kubernetes 1.35 has GenericWorkload but no WorkloadWithJob: no Job gets a PodGroup.
    s.featureGates = gates(api::KubernetesVersion::V1_35, { { "GenericWorkload", true } });
    EXPECT_EQ(run(s).gangs.groupCycles, 0u);
}

TEST(GangGates, TopologyAwareWorkloadSchedulingHonoursTheKey)
{
    Scenario s = load(kGang);
    for (auto& w : s.workloads)
        if (w.scheduling)
            w.scheduling->topologyKey = "example.com/no-such-label";
    // Without the gate the key is dropped and the gangs run; with it no node has the label.
    EXPECT_GT(run(s).gangs.started, 0);
    s.featureGates.set("TopologyAwareWorkloadScheduling", true);
    const RunSummary constrained = run(s);
    EXPECT_GT(constrained.gangs.jobs, 0);
    EXPECT_EQ(constrained.gangs.started, 0);
}

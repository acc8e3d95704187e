// SPDX-License-Identifier: Apache-2.0
// DRA claims shared by a PodGroup in a run (gate DRAWorkloadResourceClaims, group_claims.h): a
// gang's members share one claim from the group's template entry, its devices count once, and the
// claim is released only when the job ends (the Job controller deletes the PodGroup), which lets
// the next gang in. Gate off on 1.36: every member gets its own claim from the template.
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "core/scheduler/cluster.h"
#include "core/sim/scheduler_cluster_port.h"
#include "core/sim/simulator.h"
#include "tests/unit/sim/sim_test_util.h"

namespace group_claims_run_test {

using namespace drasim;
using namespace drasim::sim;
using namespace drasim::sim::testing;

std::vector<std::string> claimNames(const scheduler::Cluster& cluster)
{
    std::vector<std::string> out;
    for (const api::ResourceClaim* c : cluster.claims())
        out.push_back(c->meta.name + (c->allocation ? " allocated" : ""));
    return out;
}

/// When each pod was scheduled, and the cluster's claims as the last pod event before 50 s left
/// them.
struct ScheduledTimes : RunRecorder
{
    explicit ScheduledTimes(const scheduler::Cluster& c)
        : cluster(c)
    { }
    const scheduler::Cluster& cluster;
    std::map<std::string, SimTime> at;
    std::vector<std::string> claimsMidway;
    void onPodEvent(const PodEvent& e) override
    {
        if (e.type == PodEventType::Scheduled)
            at[e.pod] = e.time;
        if (e.time < 50 * kSecond)
            claimsMidway = claimNames(cluster);
    }
};

/// The class "gpu" and the template "gpu-8": eight devices of it in one claim.
api::ObjectSet eightGpuTemplate()
{
    return withGpuTemplate(8);
}

/// A gang of four whose members' entry "gpu" (template gpu-8) is also its PodGroup's entry.
workload::JobSpec sharingGang(const std::string& name, double at, double seconds)
{
    workload::JobSpec job = gpuJob(name, at, seconds, 8);
    job.parallelism = 4;
    job.completions = 4;
    workload::GroupSpec g;
    g.gang = true;
    api::PodGroupResourceClaim entry;
    entry.name = "gpu";
    entry.resourceClaimTemplateName = "gpu-8";
    g.resourceClaims.push_back(entry);
    job.group = g;
    return job;
}

struct ClaimsRun
{
    std::map<std::string, SimTime> scheduledAt;
    RunSummary summary;
    std::vector<std::string> claimsAtEnd;
    std::vector<std::string> claimsMidway; ///< after the last pod event before 50 s

    ClaimsRun(bool gate, api::KubernetesVersion version, int nodes, std::vector<workload::JobSpec> jobs)
    {
        scheduler::SchedulerOptions so;
        so.kubernetesVersion = version;
        so.draWorkloadResourceClaims = gate;
        scheduler::Cluster cluster(eightGpuTemplate(), so);
        SchedulerClusterPort port(cluster);
        SimOptions options;
        options.scenarioName = "group-claims";
        options.duration = 1000 * kSecond;
        options.metricInterval = 10 * kSecond;
        options.podGroups = true;
        Simulator sim(port, options);
        sim.addNodePool(gpuPool("n", nodes, 8));
        sim.setArrivals(source(std::move(jobs)));
        ScheduledTimes times(cluster);
        sim.addRecorder(&times);
        summary = sim.run();
        scheduledAt = times.at;
        claimsMidway = times.claimsMidway;
        claimsAtEnd = claimNames(cluster);
    }

    const UtilizationSummary& driver() const
    {
        for (const auto& u : summary.utilization)
            if (u.dimension == "driver")
                return u;
        throw std::runtime_error("no driver utilization");
    }
};

// One gang of four on four nodes of eight GPUs: the members share the claim "a-gpu" and its eight
// devices, all on the node that holds them; the 32 GPUs are a quarter used, not all of them.
TEST(GroupClaimsRun, MembersShareOneClaimAndItsDevicesCountOnce)
{
    ClaimsRun r(true, api::KubernetesVersion::V1_37, 4, { sharingGang("a", 0, 100) });
    for (int i = 0; i < 4; ++i)
        EXPECT_EQ(r.scheduledAt.at("default/a-" + std::to_string(i)), 0) << i;
    EXPECT_EQ(r.claimsMidway, std::vector<std::string> { "a-gpu allocated" });
    EXPECT_DOUBLE_EQ(r.driver().peak, 0.25);
    // The job ended: its PodGroup went, and the claim made for it with it.
    EXPECT_TRUE(r.claimsAtEnd.empty());
}

// One node of eight GPUs: the second gang waits wholly until the first job ends and its PodGroup's
// claim is released, then gets the devices.
TEST(GroupClaimsRun, SecondGangGetsTheDevicesWhenTheFirstJobEnds)
{
    ClaimsRun r(
        true, api::KubernetesVersion::V1_37, 1, { sharingGang("a", 0, 100), sharingGang("b", 10, 100) });
    for (int i = 0; i < 4; ++i) {
        EXPECT_EQ(r.scheduledAt.at("default/a-" + std::to_string(i)), 0) << i;
        EXPECT_EQ(r.scheduledAt.at("default/b-" + std::to_string(i)), 100 * kSecond) << i;
    }
    // At 50 s b's claim exists (the controller made it for the PodGroup) but holds nothing.
    EXPECT_EQ(r.claimsMidway, (std::vector<std::string> { "a-gpu allocated", "b-gpu" }));
    EXPECT_DOUBLE_EQ(r.driver().peak, 1.0);
    EXPECT_TRUE(r.claimsAtEnd.empty());
}

// 1.36 with the gate off: the controllers ignore the group's entry and each member gets its own
// eight-GPU claim, so the gang needs all four nodes.
TEST(GroupClaimsRun, GateOffOn136GivesEachMemberItsOwnClaim)
{
    ClaimsRun r(false, api::KubernetesVersion::V1_36, 4, { sharingGang("a", 0, 100) });
    for (int i = 0; i < 4; ++i)
        EXPECT_EQ(r.scheduledAt.at("default/a-" + std::to_string(i)), 0) << i;
    EXPECT_EQ(r.claimsMidway,
        (std::vector<std::string> {
            "a-0-gpu allocated", "a-1-gpu allocated", "a-2-gpu allocated", "a-3-gpu allocated" }));
    EXPECT_DOUBLE_EQ(r.driver().peak, 1.0);
}

// 1.37 with the gate off: the claim controller makes no claim for the matching template entry, so
// the members never start.
TEST(GroupClaimsRun, GateOffOn137LeavesMembersWithoutAClaim)
{
    ClaimsRun r(false, api::KubernetesVersion::V1_37, 4, { sharingGang("a", 0, 100) });
    EXPECT_TRUE(r.scheduledAt.empty());
    EXPECT_TRUE(r.claimsMidway.empty());
    EXPECT_EQ(r.summary.podsPendingAtEnd, 4);
}

} // namespace group_claims_run_test

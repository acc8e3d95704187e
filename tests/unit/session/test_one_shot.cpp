// SPDX-License-Identifier: Apache-2.0
// The one-shot scheduling `drasim allocate`, `drasim explain` and the desktop share: PodGroups
// scheduled in one group cycle, and a member explained after its group's cycle.
#include <algorithm>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "core/session/one_shot.h"
#include "core/session/session.h"

using namespace drasim;

namespace one_shot_test {

const std::string kData = DRASIM_SOURCE_DIR "/tests/cli/data/";

api::FeatureGates gates(const std::string& flag)
{
    api::FeatureGates g;
    EXPECT_EQ(g.parse(flag), "");
    return g;
}

std::string keyOf(const api::Pod& pod)
{
    return pod.meta.namespace_ + "/" + pod.meta.name;
}

struct Opened
{
    session::Session session;
    std::unique_ptr<scheduler::Cluster> cluster;
};

/// A fresh cluster of `file` at `g`, built as the desktop builds it (also from input with
/// errors): every schedule or explain starts from the input. `clean`: whether the input must open
/// without errors at these gates.
std::unique_ptr<Opened> open(const std::string& file, const api::FeatureGates& g, bool clean = true)
{
    auto out = std::make_unique<Opened>();
    out->session.setFeatureGates(g);
    const bool opened = out->session.openManifests({ kData + file });
    EXPECT_EQ(opened, clean) << out->session.diagnostics().formatAll();
    out->cluster
        = std::make_unique<scheduler::Cluster>(out->session.objects(), session::clusterOptionsFor(g, {}));
    return out;
}

} // namespace one_shot_test

using namespace one_shot_test;

TEST(OneShot, AGangMemberIsExplainedAfterItsGroupsCycle)
{
    // Two of the gang's three pods would fit: the cycle keeps nothing, and each member says so
    // before its own fit on the node the cycle left free. Nothing runs below the gang, so
    // workload-aware preemption (1.37 with GenericWorkload) finds no victim and says so.
    auto opened = open("gang-allocate-unschedulable.yaml", gates("GenericWorkload=true"));
    auto batch = session::explainManifestPod(
        *opened->cluster, opened->session.objects(), opened->session.featureGates(), "default/worker-1");
    ASSERT_TRUE(batch.explainFound);
    ASSERT_NE(batch.diagnosis, nullptr);
    EXPECT_EQ(batch.diagnosis->group,
        "pod group default/train-workers (gang, minCount 3): last group cycle: minCount (3) cannot be "
        "satisfied: 2 scheduled, 0 remaining; pod group preemption: No preemption victims found for "
        "incoming preemptor");
    EXPECT_TRUE(batch.diagnosis->scheduled); // on its own it fits
    EXPECT_EQ(batch.diagnosis->nodeName, "node-a");
    // The explained dry run was undone: the pods after the group still find the whole node.
    EXPECT_EQ(opened->cluster->boundPods().size(), 0u);
    const std::string text = scheduler::formatText(*batch.diagnosis);
    EXPECT_NE(
        text.find("Pod default/worker-1: pending\n  pod group default/train-workers"), std::string::npos)
        << text;
}

TEST(OneShot, WithoutTheGateTheSamePodIsScheduledAlone)
{
    // GenericWorkload off: 1.37 serves no PodGroup (an error) and the API server drops
    // spec.schedulingGroup, so no group decides.
    auto opened = open("gang-allocate-unschedulable.yaml", api::FeatureGates(), false);
    auto batch = session::explainManifestPod(
        *opened->cluster, opened->session.objects(), opened->session.featureGates(), "default/worker-1");
    ASSERT_TRUE(batch.explainFound);
    EXPECT_EQ(batch.diagnosis->group, "");
    EXPECT_TRUE(batch.diagnosis->scheduled);
}

TEST(OneShot, ExplainAgreesWithAllocateOnEveryPod)
{
    // Two paths that must agree: what `allocate` leaves each pod, and what `explain` says of it.
    for (const char* file :
        { "gang-allocate-unschedulable.yaml", "gang-allocate.yaml", "gang-preemption.yaml" }) {
        const api::FeatureGates g = gates("GenericWorkload=true");
        auto all = open(file, g);
        std::vector<api::PodGroup> groups;
        const auto allocated = session::scheduleManifests(*all->cluster, all->session.objects(), g, groups);
        int explained = 0;
        for (const auto& pod : allocated.pods) {
            const auto input = std::find_if(all->session.objects().pods.begin(),
                all->session.objects().pods.end(), [&](const api::Pod& p) { return keyOf(p) == keyOf(pod); });
            if (!input->spec.nodeName.empty())
                continue; // bound in the input: nothing to explain
            auto one = open(file, g);
            const auto batch
                = session::explainManifestPod(*one->cluster, one->session.objects(), g, keyOf(pod));
            ASSERT_TRUE(batch.explainFound) << file << " " << keyOf(pod);
            ASSERT_NE(batch.diagnosis, nullptr);
            const auto& d = *batch.diagnosis;
            const bool member = pod.spec.schedulingGroup.has_value();
            if (!pod.spec.nodeName.empty()) {
                EXPECT_TRUE(d.scheduled) << file << " " << keyOf(pod);
                EXPECT_EQ(d.nodeName, pod.spec.nodeName) << file << " " << keyOf(pod);
                EXPECT_EQ(d.group, "") << file << " " << keyOf(pod);
            } else if (member) {
                EXPECT_NE(d.group, "") << file << " " << keyOf(pod); // its group kept it pending
            } else {
                EXPECT_FALSE(d.scheduled) << file << " " << keyOf(pod);
            }
            ++explained;
        }
        EXPECT_GT(explained, 1) << file;
    }
}

TEST(OneShot, TheGatesChooseTheSchedulersModel)
{
    const auto at136 = session::clusterOptionsFor(api::FeatureGates(api::KubernetesVersion::V1_36), {});
    EXPECT_EQ(at136.kubernetesVersion, api::KubernetesVersion::V1_36);
    const auto at137 = session::clusterOptionsFor(api::FeatureGates(), {});
    EXPECT_EQ(at137.kubernetesVersion, api::KubernetesVersion::V1_37);
    // DRAExtendedResource: off in 1.35, on in 1.36, locked on in 1.37.
    EXPECT_FALSE(session::clusterOptionsFor(api::FeatureGates(api::KubernetesVersion::V1_35), {})
                     .draExtendedResources);
    EXPECT_TRUE(at136.draExtendedResources);
    EXPECT_TRUE(at137.draExtendedResources);
}

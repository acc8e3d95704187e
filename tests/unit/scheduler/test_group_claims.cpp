// SPDX-License-Identifier: Apache-2.0
// DRA claims shared by a PodGroup (KEP-5729, gate DRAWorkloadResourceClaims): the matching rule,
// the gate per version, one claim per group reserved for the PodGroup once, and the law that a
// group claim's devices are counted once however many members use it.
#include <random>
#include <set>

#include <gtest/gtest.h>

#include "core/scheduler/cluster.h"
#include "core/scheduler/group_claims.h"
#include "core/scheduler/pod_group.h"
#include "tests/unit/allocator/fixtures.h"

using namespace drasim;
using namespace drasim::testing;
using scheduler::Cluster;
using scheduler::PodGroupPolicy;

namespace group_claims_test {

api::PodResourceClaim byTemplate(const std::string& name, const std::string& tmpl)
{
    return api::PodResourceClaim { name, std::nullopt, tmpl };
}

api::PodResourceClaim byName(const std::string& name, const std::string& claim)
{
    return api::PodResourceClaim { name, claim, std::nullopt };
}

/// `nodes` nodes of 8 cpu and a pool of `devices` network-attached GPUs every node reaches.
api::ObjectSet fabricCluster(int nodes, int devices, int64_t perClaim = 1)
{
    api::ObjectSet o;
    for (int n = 0; n < nodes; ++n)
        o.nodes.push_back(node(numbered("node-", n)));
    std::vector<api::Device> devs;
    for (int d = 0; d < devices; ++d)
        devs.push_back(device(numbered("gpu-", d)));
    o.resourceSlices.push_back(slice("fabric", drasim::testing::kDrv, "fabric", "", devs));
    addOneGpuClassAndTemplate(o);
    o.resourceClaimTemplates.back().spec.requests[0].exactly->count = perClaim;
    return o;
}

std::vector<api::Pod> groupMembers(const std::string& group, int n, const std::string& cpu = "1")
{
    std::vector<api::Pod> out;
    for (int i = 0; i < n; ++i) {
        api::Pod p = pod(group + "-" + std::to_string(i), {}, { { "gpu", "one-gpu" } });
        p.spec.schedulingGroup = group;
        p.spec.containers[0].resources.requests["cpu"] = q(cpu);
        out.push_back(std::move(p));
    }
    return out;
}

PodGroupPolicy sharingGang(const std::string& name, int32_t minCount)
{
    PodGroupPolicy g { "default/" + name, true, minCount, "" };
    g.uid = "uid-" + name;
    g.resourceClaims.push_back(api::PodGroupResourceClaim { "gpu", std::nullopt, "one-gpu" });
    return g;
}

scheduler::SchedulerOptions gate(bool on, api::KubernetesVersion v = api::KubernetesVersion::V1_37)
{
    scheduler::SchedulerOptions o;
    o.draWorkloadResourceClaims = on;
    o.kubernetesVersion = v;
    return o;
}

uint32_t allocatedDevices(const Cluster& c)
{
    uint32_t n = 0;
    for (const auto& u : c.deviceUsage())
        n += u.allocated;
    return n;
}

TEST(GroupClaimMatch, NameClaimNameAndTemplateMustAllBeEqual)
{
    const std::vector<api::PodGroupResourceClaim> group
        = { { "gpu", std::nullopt, "one-gpu" }, { "fabric", "shared-domain", std::nullopt } };
    EXPECT_EQ(scheduler::matchingGroupClaim(byTemplate("gpu", "one-gpu"), group), &group[0]);
    EXPECT_EQ(scheduler::matchingGroupClaim(byName("fabric", "shared-domain"), group), &group[1]);
    // Another template, another name, a claim name where the group has a template: per-pod claims.
    EXPECT_EQ(scheduler::matchingGroupClaim(byTemplate("gpu", "two-gpus"), group), nullptr);
    EXPECT_EQ(scheduler::matchingGroupClaim(byTemplate("gpu-own", "one-gpu"), group), nullptr);
    EXPECT_EQ(scheduler::matchingGroupClaim(byName("gpu", "one-gpu"), group), nullptr);
    EXPECT_EQ(scheduler::matchingGroupClaim(byName("fabric", "other-domain"), group), nullptr);
    EXPECT_EQ(scheduler::matchingGroupClaim(byTemplate("fabric", "shared-domain"), group), nullptr);
    EXPECT_EQ(scheduler::matchingGroupClaim(byTemplate("gpu", "one-gpu"), {}), nullptr);
}

TEST(GroupClaimMatch, TheGateDecidesPerVersion)
{
    using scheduler::GroupClaimUse;
    EXPECT_EQ(scheduler::groupClaimUse(true, api::KubernetesVersion::V1_37), GroupClaimUse::Shared);
    EXPECT_EQ(scheduler::groupClaimUse(true, api::KubernetesVersion::V1_36), GroupClaimUse::Shared);
    EXPECT_EQ(scheduler::groupClaimUse(false, api::KubernetesVersion::V1_37), GroupClaimUse::NotCreated);
    EXPECT_EQ(scheduler::groupClaimUse(false, api::KubernetesVersion::V1_36), GroupClaimUse::PerPod);
    EXPECT_EQ(scheduler::groupClaimUse(false, api::KubernetesVersion::V1_35), GroupClaimUse::PerPod);
    EXPECT_EQ(scheduler::groupClaimName("train", "gpu"), "train-gpu");
    EXPECT_EQ(scheduler::groupEntryClaimName("train", { "gpu", "mine", std::nullopt }), "mine");
}

TEST(GroupClaims, OneClaimPerGroupOwnedByItAndReservedForItOnce)
{
    Cluster c(fabricCluster(4, 2), gate(true));
    auto r = c.scheduleGroup(sharingGang("train", 4), groupMembers("train", 4, "8"), {}, false);
    ASSERT_TRUE(r.scheduled) << r.message;
    EXPECT_EQ(r.placed, 4);
    const api::ResourceClaim* claim = c.findClaim("default/train-gpu");
    ASSERT_NE(claim, nullptr);
    ASSERT_TRUE(claim->allocation);
    EXPECT_EQ(claim->allocation->results.size(), 1u);
    ASSERT_EQ(claim->reservedFor.size(), 1u);
    EXPECT_EQ(claim->reservedFor[0].apiGroup, "scheduling.k8s.io");
    EXPECT_EQ(claim->reservedFor[0].resource, "podgroups");
    EXPECT_EQ(claim->reservedFor[0].name, "train");
    EXPECT_EQ(claim->reservedFor[0].uid, "uid-train");
    ASSERT_EQ(claim->meta.ownerReferences.size(), 1u);
    EXPECT_EQ(claim->meta.ownerReferences[0].kind, "PodGroup");
    EXPECT_EQ(claim->meta.ownerReferences[0].name, "train");
    EXPECT_EQ(claim->meta.annotations.at("resource.kubernetes.io/pod-claim-name"), "gpu");
    EXPECT_EQ(c.claims().size(), 1u); // no per-pod claim
    // Members on four nodes (8 cpu each) all reach the one network-attached device.
    std::set<std::string> nodes;
    for (const auto& b : c.boundPods()) {
        nodes.insert(b.nodeName);
        EXPECT_EQ(b.claims, std::vector<std::string> { "default/train-gpu" }) << b.key;
    }
    EXPECT_EQ(nodes.size(), 4u);
    // A member that ends leaves the claim to the group: it stays allocated and reserved.
    EXPECT_TRUE(c.podFinished("default/train-0"));
    EXPECT_TRUE(c.findClaim("default/train-gpu")->allocation);
    EXPECT_EQ(c.findClaim("default/train-gpu")->reservedFor.size(), 1u);
}

TEST(GroupClaims, MoreThan256MembersShareOneReservation)
{
    Cluster c(fabricCluster(3, 1), gate(true)); // 3 nodes of 110 pods
    auto r = c.scheduleGroup(sharingGang("big", 300), groupMembers("big", 300, "10m"), {}, false);
    ASSERT_TRUE(r.scheduled) << r.message;
    EXPECT_EQ(r.placed, 300);
    EXPECT_EQ(c.findClaim("default/big-gpu")->reservedFor.size(), 1u);
    EXPECT_EQ(allocatedDevices(c), 1u);
}

TEST(GroupClaims, FailedGangLeavesTheClaimUnallocatedAndUnreserved)
{
    Cluster c(fabricCluster(2, 2), gate(true));
    auto r = c.scheduleGroup(sharingGang("train", 3), groupMembers("train", 3, "8"), {}, false);
    EXPECT_FALSE(r.scheduled);
    const api::ResourceClaim* claim = c.findClaim("default/train-gpu");
    ASSERT_NE(claim, nullptr) << "the controller made the claim when the group appeared";
    EXPECT_FALSE(claim->allocation);
    EXPECT_TRUE(claim->reservedFor.empty());
    EXPECT_EQ(allocatedDevices(c), 0u);
}

TEST(GroupClaims, GateOffMakesPerPodClaimsIn136AndNoneIn137)
{
    Cluster v136(fabricCluster(2, 4), gate(false, api::KubernetesVersion::V1_36));
    auto r = v136.scheduleGroup(sharingGang("svc", 2), groupMembers("svc", 2), {}, false);
    ASSERT_TRUE(r.scheduled) << r.message;
    EXPECT_EQ(v136.findClaim("default/svc-gpu"), nullptr);
    ASSERT_NE(v136.findClaim("default/svc-0-gpu"), nullptr);
    EXPECT_EQ(v136.findClaim("default/svc-0-gpu")->reservedFor.at(0).resource, "pods");
    EXPECT_EQ(allocatedDevices(v136), 2u);

    Cluster v137(fabricCluster(2, 4), gate(false));
    r = v137.scheduleGroup(sharingGang("svc", 2), groupMembers("svc", 2), {}, false);
    EXPECT_FALSE(r.scheduled);
    EXPECT_TRUE(v137.claims().empty());
    ASSERT_EQ(r.members.size(), 2u);
    EXPECT_NE(
        r.members[0].message.find("pod \"default/svc-0\": ResourceClaim not created yet"), std::string::npos)
        << r.members[0].message;
}

TEST(GroupClaims, MissingTemplateIsReportedForTheMember)
{
    api::ObjectSet o = fabricCluster(1, 1);
    o.resourceClaimTemplates.clear();
    Cluster c(std::move(o), gate(true));
    auto r = c.scheduleGroup(sharingGang("svc", 1), groupMembers("svc", 1), {}, false);
    EXPECT_FALSE(r.scheduled);
    EXPECT_NE(r.members.at(0).message.find("resourceclaimtemplate.resource.k8s.io \"one-gpu\" not found"),
        std::string::npos)
        << r.members[0].message;
}

// Law: the devices a group claim holds are counted once, whatever the number of members using it;
// with per-pod claims (1.36, gate off) every member holds its own.
TEST(GroupClaimLaws, DevicesOfAGroupClaimAreCountedOnce)
{
    std::mt19937 rng(5729);
    for (int trial = 0; trial < 40; ++trial) {
        const int members = std::uniform_int_distribution<int>(1, 40)(rng);
        const int64_t perClaim = std::uniform_int_distribution<int64_t>(1, 3)(rng);
        const int nodes = std::uniform_int_distribution<int>(1, 6)(rng);
        const int devices = int(perClaim) * members;
        SCOPED_TRACE("trial " + std::to_string(trial) + ": " + std::to_string(members) + " members, "
            + std::to_string(perClaim) + " devices per claim, " + std::to_string(nodes) + " nodes");
        Cluster shared(fabricCluster(nodes, devices, perClaim), gate(true));
        auto r = shared.scheduleGroup(sharingGang("g", 1), groupMembers("g", members, "100m"), {}, false);
        ASSERT_TRUE(r.scheduled) << r.message;
        EXPECT_EQ(allocatedDevices(shared), uint32_t(perClaim));
        EXPECT_EQ(shared.findClaim("default/g-gpu")->reservedFor.size(), 1u);

        Cluster perPod(fabricCluster(nodes, devices, perClaim), gate(false, api::KubernetesVersion::V1_36));
        r = perPod.scheduleGroup(sharingGang("g", 1), groupMembers("g", members, "100m"), {}, false);
        ASSERT_TRUE(r.scheduled) << r.message;
        EXPECT_EQ(allocatedDevices(perPod), uint32_t(perClaim * members));
    }
}

} // namespace group_claims_test

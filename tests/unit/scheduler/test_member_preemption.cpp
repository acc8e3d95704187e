// SPDX-License-Identifier: Apache-2.0
// Kubernetes 1.36 without the WorkloadAwarePreemption gate: a PodGroup's members run their own
// DefaultPreemption inside the group cycle (group_pod_preemption.cpp). A gang whose quorum holds
// only with preempting members binds nothing and waits, every member nominated; one that cannot
// reach its quorum even so has still evicted its victims, and its preemptors lose their
// nominations. With the gate, and in 1.37, the members never preempt for themselves.
#include <string>

#include <gtest/gtest.h>

#include "core/scheduler/cluster.h"
#include "core/scheduler/pod_group.h"
#include "tests/unit/allocator/fixtures.h"
#include "tests/unit/scheduler/priority_pod.h"

using namespace drasim;
using namespace drasim::testing;
using scheduler::Cluster;
using scheduler::PodGroupPolicy;

namespace {

/// `count` nodes of 4 cpu, each full of a pod of priority 100 named a, b, c, ...
api::ObjectSet nodesFullOfLowPods(int count)
{
    api::ObjectSet o;
    for (int i = 0; i < count; ++i) {
        o.nodes.push_back(node(numbered("n", i), {}, "4"));
        o.pods.push_back(priorityPod(std::string(1, char('a' + i)), "4", 100, numbered("n", i)));
    }
    return o;
}

std::vector<api::Pod> gangMembers(int n, int32_t priority)
{
    std::vector<api::Pod> out;
    for (int i = 0; i < n; ++i)
        out.push_back(priorityPod("g-" + std::to_string(i), "4", priority, "", "g"));
    return out;
}

PodGroupPolicy memberGang(int32_t minCount, bool gate)
{
    PodGroupPolicy g { "default/g", true, minCount, "" };
    g.workloadAwarePreemption = gate;
    g.priority = 1000;
    return g;
}

scheduler::SchedulerOptions optionsAt(api::KubernetesVersion v)
{
    scheduler::SchedulerOptions o;
    o.kubernetesVersion = v;
    return o;
}

bool isBeingDeleted(const Cluster& c, const std::string& key)
{
    const auto* b = c.findBoundPod(key);
    return b && b->terminating;
}

} // namespace

// Each member evicts the pod on a node of its own (the first one's nomination holds its node for
// the second), the group waits nominated, and once the victims are gone it binds where it was
// nominated.
TEST(MemberPreemption, AGangWaitsNominatedWhileItsMembersVictimsLeaveThenBindsThere)
{
    Cluster c(nodesFullOfLowPods(2), optionsAt(api::KubernetesVersion::V1_36));
    const auto pods = gangMembers(2, 1000);
    auto r = c.scheduleGroup(memberGang(2, false), pods, {}, false);
    EXPECT_FALSE(r.scheduled);
    EXPECT_TRUE(r.waitingOnPreemption);
    EXPECT_EQ(r.message, "pod group default/g: pod group is waiting for preemption to complete");
    EXPECT_FALSE(r.preemption) << "no workload-aware preemption without the gate";
    ASSERT_EQ(r.members.size(), 2u);
    std::vector<std::string> victims, nodes;
    for (const auto& m : r.members) {
        EXPECT_FALSE(m.scheduled);
        ASSERT_TRUE(m.preemption);
        ASSERT_EQ(m.preemption->victims.size(), 1u) << m.message;
        victims.push_back(m.preemption->victims[0]);
        nodes.push_back(m.preemption->nominatedNode);
    }
    EXPECT_NE(nodes[0], nodes[1]);
    EXPECT_NE(victims[0], victims[1]);
    EXPECT_TRUE(isBeingDeleted(c, "default/a"));
    EXPECT_TRUE(isBeingDeleted(c, "default/b"));
    // The nominations hold both nodes against a pod below the group.
    c.podFinished("default/a");
    c.podFinished("default/b");
    EXPECT_FALSE(c.schedule(priorityPod("low", "4", 500)).scheduled);

    auto later = c.scheduleGroup(memberGang(2, false), pods, {}, false);
    ASSERT_TRUE(later.scheduled) << later.message;
    for (size_t i = 0; i < 2; ++i)
        EXPECT_EQ(later.members[i].nodeName, nodes[i]);
}

// g-0 evicts a on n0; g-1 and g-2 find only pods above the group: minCount 3 is out of reach.
// Upstream's victims were deleted during the cycle all the same; g-0's nomination is cleared.
TEST(MemberPreemption, AGangThatCannotReachItsQuorumStillEvictsButKeepsNoNomination)
{
    auto o = nodesFullOfLowPods(3);
    o.pods[1].spec.priority = 2000;
    o.pods[2].spec.priority = 2000;
    Cluster c(std::move(o), optionsAt(api::KubernetesVersion::V1_36));
    auto r = c.scheduleGroup(memberGang(3, false), gangMembers(3, 1000), {}, false);
    EXPECT_FALSE(r.scheduled);
    EXPECT_FALSE(r.waitingOnPreemption);
    ASSERT_TRUE(r.members[0].preemption);
    EXPECT_EQ(r.members[0].preemption->victims, (std::vector<std::string> { "default/a" }));
    EXPECT_EQ(r.members[0].preemption->nominatedNode, "");
    EXPECT_TRUE(isBeingDeleted(c, "default/a"));
    EXPECT_FALSE(isBeingDeleted(c, "default/b"));
    c.podFinished("default/a");
    auto low = c.schedule(priorityPod("low", "4", 500));
    ASSERT_TRUE(low.scheduled) << low.message;
    EXPECT_EQ(low.nodeName, "n0");
}

// With the gate the group preempts as a whole (its result's `preemption`), never member by
// member; 1.37 never runs a member's own PostFilter (GenericWorkload turns it off for pods of a
// group), whatever the group says.
TEST(MemberPreemption, MembersNeverPreemptForThemselvesWithTheGateOrIn137)
{
    for (const auto v : { api::KubernetesVersion::V1_36, api::KubernetesVersion::V1_37 })
        for (bool gate : { true, false }) {
            if (v == api::KubernetesVersion::V1_36 && !gate)
                continue;
            SCOPED_TRACE(std::string(api::kubernetesVersionName(v)) + (gate ? " gate on" : " gate off"));
            Cluster c(nodesFullOfLowPods(2), optionsAt(v));
            auto r = c.scheduleGroup(memberGang(2, gate), gangMembers(2, 1000), {}, false);
            EXPECT_FALSE(r.scheduled);
            EXPECT_FALSE(r.waitingOnPreemption);
            for (const auto& m : r.members)
                EXPECT_TRUE(!m.preemption || m.preemption->victims.empty());
            EXPECT_EQ(isBeingDeleted(c, "default/a"), gate);
        }
}

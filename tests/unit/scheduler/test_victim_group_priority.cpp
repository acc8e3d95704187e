// SPDX-License-Identifier: Apache-2.0
// The priority a member of a PodGroup has as a preemption victim: its group's, "even when
// priorities of individual pods forming this PodGroup differ" (kubernetes.io,
// workloads/workload-api/disruption-and-priority), in workload-aware preemption (1.36+), and in a
// single pod's DefaultPreemption from 1.37 (SchedulerOptions::podGroupUnitsInPreemption); 1.36's
// DefaultPreemption still weighs the pod's own priority.
#include <gtest/gtest.h>

#include "core/scheduler/cluster.h"
#include "core/scheduler/pod_group.h"
#include "tests/unit/allocator/fixtures.h"

using namespace drasim;
using namespace drasim::testing;

namespace victim_group_priority_test {

api::Pod slotPod(const std::string& name, int32_t priority, const std::string& nodeName = "",
    const std::string& group = "")
{
    api::Pod p = pod(name);
    p.spec.containers[0].resources.requests["cpu"] = q("1");
    p.spec.priority = priority;
    p.spec.nodeName = nodeName;
    if (!group.empty())
        p.spec.schedulingGroup = group;
    return p;
}

scheduler::PodGroupPolicy groupAt(const std::string& name, int32_t priority)
{
    scheduler::PodGroupPolicy g { "default/" + name, true, 1, "" };
    g.priority = priority;
    return g;
}

/// Two one-slot nodes: n0 runs a member of PodGroup g (the member's own priority and the group's
/// given), n1 a plain pod of priority 500. A pod of priority 1000 needs a slot.
scheduler::ScheduleResult preemptBesideAGroup(int32_t memberPriority, int32_t groupPriority, bool from137)
{
    api::ObjectSet o;
    o.nodes.push_back(node("n0", {}, "1"));
    o.nodes.push_back(node("n1", {}, "1"));
    o.pods.push_back(slotPod("g-0", memberPriority, "n0", "g"));
    o.pods.push_back(slotPod("solo", 500, "n1"));
    scheduler::SchedulerOptions options;
    options.podGroupUnitsInPreemption = from137;
    scheduler::Cluster c(std::move(o), options);
    c.registerPodGroup(groupAt("g", groupPriority));
    return c.schedule(slotPod("p", 1000), true);
}

std::string preemptionOn(const scheduler::ScheduleResult& r, const std::string& nodeName)
{
    if (!r.diagnosis)
        return "no diagnosis";
    for (const auto& n : r.diagnosis->nodes)
        if (n.node == nodeName)
            return n.preemption;
    return "no such node";
}

} // namespace victim_group_priority_test

using namespace victim_group_priority_test;

// A member whose own priority (2000) is above the preemptor's but whose group's (100) is below it:
// from 1.37 it is a victim, and the lowest one, so its node wins over the plain pod's (500).
TEST(VictimGroupPriority, AMemberCountsWithItsGroupsLowerPriorityFrom137)
{
    const auto r = preemptBesideAGroup(2000, 100, true);
    ASSERT_TRUE(r.preemption);
    EXPECT_EQ(r.preemption->nominatedNode, "n0");
    EXPECT_EQ(r.preemption->victims, (std::vector<std::string> { "default/g-0" }));
    EXPECT_EQ(preemptionOn(r, "n0"), "would evict default/g-0 (priority 100)");

    // 1.36 weighs the pod's own priority: the member is out of reach, the plain pod goes.
    const auto old = preemptBesideAGroup(2000, 100, false);
    ASSERT_TRUE(old.preemption);
    EXPECT_EQ(old.preemption->nominatedNode, "n1");
    EXPECT_EQ(old.preemption->victims, (std::vector<std::string> { "default/solo" }));
    EXPECT_EQ(preemptionOn(old, "n0"), "no pod of lower priority runs here");
}

// The other way round: a member of low priority (100) in a group above the preemptor (2000) is
// protected by its group from 1.37, and a victim in 1.36.
TEST(VictimGroupPriority, AGroupAboveThePreemptorProtectsItsMembersFrom137)
{
    const auto r = preemptBesideAGroup(100, 2000, true);
    ASSERT_TRUE(r.preemption);
    EXPECT_EQ(r.preemption->nominatedNode, "n1");
    EXPECT_EQ(r.preemption->victims, (std::vector<std::string> { "default/solo" }));

    const auto old = preemptBesideAGroup(100, 2000, false);
    ASSERT_TRUE(old.preemption);
    EXPECT_EQ(old.preemption->nominatedNode, "n0");
    EXPECT_EQ(old.preemption->victims, (std::vector<std::string> { "default/g-0" }));
}

// With equal priorities nothing changes between the versions: the members' and the group's
// priority agree, as they do when a controller creates both from one PriorityClass.
TEST(VictimGroupPriority, EqualPrioritiesGiveTheSameAnswerInBothVersions)
{
    for (int32_t prio : { 100, 700 }) {
        const auto a = preemptBesideAGroup(prio, prio, true);
        const auto b = preemptBesideAGroup(prio, prio, false);
        ASSERT_TRUE(a.preemption);
        ASSERT_TRUE(b.preemption);
        EXPECT_EQ(a.preemption->nominatedNode, b.preemption->nominatedNode) << prio;
        EXPECT_EQ(a.preemption->victims, b.preemption->victims) << prio;
    }
}

// Workload-aware preemption weighs every member at its group's priority, in disruptionMode single
// too: a group of priority 5000 whose pods say 50 is out of reach of a gang of priority 1000, and
// with nothing else below it, preemption is not a possibility at all.
TEST(VictimGroupPriority, WorkloadAwarePreemptionWeighsSingleModeMembersAtTheirGroups)
{
    auto run = [](int32_t heldGroupPriority) {
        api::ObjectSet o;
        o.nodes.push_back(node("n0", {}, "2"));
        o.pods.push_back(slotPod("h-0", 50, "n0", "h"));
        o.pods.push_back(slotPod("h-1", 50, "n0", "h"));
        scheduler::Cluster c(std::move(o));
        auto held = groupAt("h", heldGroupPriority);
        held.minCount = 2;
        c.registerPodGroup(held);
        auto gang = groupAt("w", 1000);
        gang.minCount = 2;
        gang.workloadAwarePreemption = true;
        std::vector<api::Pod> members { slotPod("w-0", 1000, "", "w"), slotPod("w-1", 1000, "", "w") };
        return c.scheduleGroup(gang, members, {}, false);
    };
    const auto protectedByGroup = run(5000);
    EXPECT_FALSE(protectedByGroup.scheduled);
    // Its members run at 50, but as their group's 5000: nothing is a potential victim.
    ASSERT_TRUE(protectedByGroup.preemption);
    EXPECT_TRUE(protectedByGroup.preemption->victims.empty());
    EXPECT_EQ(protectedByGroup.preemption->message,
        "pod group preemption: No preemption victims found for incoming preemptor");

    const auto lowGroup = run(50);
    EXPECT_FALSE(lowGroup.scheduled);
    ASSERT_TRUE(lowGroup.preemption);
    EXPECT_EQ(lowGroup.preemption->victims, (std::vector<std::string> { "default/h-0", "default/h-1" }));
}

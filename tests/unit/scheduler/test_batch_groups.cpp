// SPDX-License-Identifier: Apache-2.0
// The PodGroup condition kube-scheduler writes after a group cycle
// (pkg/scheduler/schedule_one_podgroup_test.go expectations).
#include <gtest/gtest.h>

#include "core/scheduler/batch_groups.h"

using namespace drasim;
using namespace drasim::scheduler;

namespace {

GroupScheduleResult cycle(bool scheduled, const std::string& message = {})
{
    GroupScheduleResult r;
    r.scheduled = scheduled;
    r.message = message;
    return r;
}

std::string conditions(const api::PodGroup& g)
{
    std::string out;
    for (const auto& c : g.conditions)
        out += c.type + " " + c.status + " " + c.reason + " \"" + c.message + "\"\n";
    return out;
}

} // namespace

TEST(BatchGroupCondition, ScheduledOrUnschedulableWithTheCycleMessage)
{
    api::PodGroup g;
    g.meta.name = "train";
    g.conditions.push_back({ "PodGroupInitiallyScheduled", "False", "Unschedulable", "from the input" });
    setGroupScheduledCondition(g,
        cycle(false, "pod group default/train: minCount (3) cannot be satisfied: 2 scheduled, 0 remaining"));
    EXPECT_EQ(conditions(g),
        "PodGroupInitiallyScheduled False Unschedulable \"minCount (3) cannot be satisfied: 2 scheduled, 0 "
        "remaining\"\n");
    setGroupScheduledCondition(g, cycle(true));
    EXPECT_EQ(conditions(g), "PodGroupInitiallyScheduled True Scheduled \"\"\n");
}

TEST(BatchGroupCondition, TrueIsTerminalAndTheNameFollowsTheApiVersion)
{
    api::PodGroup g;
    g.conditions.push_back({ "DisruptionTarget", "False", "", "" });
    g.conditions.push_back({ "PodGroupInitiallyScheduled", "True", "Scheduled", "All pods scheduled" });
    setGroupScheduledCondition(g, cycle(false, "extra pods could not be placed"));
    EXPECT_EQ(conditions(g),
        "DisruptionTarget False  \"\"\nPodGroupInitiallyScheduled True Scheduled \"All pods scheduled\"\n");
    api::PodGroup alpha2;
    alpha2.apiVersion = api::SchedulingVersion::V1alpha2;
    setGroupScheduledCondition(alpha2, cycle(true));
    EXPECT_EQ(conditions(alpha2), "PodGroupScheduled True Scheduled \"\"\n");
}

// A failed cycle's condition carries workload-aware preemption's message as one more reason of
// the group's status, joined as fwk.Status.Message() joins reasons (applyPodGroupPostFilterResult,
// kubernetes/kubernetes#140311).
TEST(BatchGroupCondition, UnschedulableCarriesThePreemptionMessage)
{
    api::PodGroup g;
    g.meta.name = "train";
    GroupScheduleResult r
        = cycle(false, "pod group default/train: minCount (1) cannot be satisfied: 0 scheduled, 0 remaining");
    r.preemption = PreemptionResult {};
    r.preemption->message = "pod group preemption: found a placement for podgroup, preempting 1 victims";
    setGroupScheduledCondition(g, r);
    EXPECT_EQ(conditions(g),
        "PodGroupInitiallyScheduled False Unschedulable \"minCount (1) cannot be satisfied: 0 scheduled, 0 "
        "remaining, pod group preemption: found a placement for podgroup, preempting 1 victims\"\n");

    // No message of its own (the gate off, or a PostFilter that said nothing): the cycle's alone.
    api::PodGroup quiet;
    quiet.meta.name = "train";
    r.preemption->message.clear();
    setGroupScheduledCondition(quiet, r);
    EXPECT_EQ(conditions(quiet),
        "PodGroupInitiallyScheduled False Unschedulable \"minCount (1) cannot be satisfied: 0 scheduled, 0 "
        "remaining\"\n");
}

// SPDX-License-Identifier: Apache-2.0
// The gang figures of a run for CompositePodGroup hierarchies: the hierarchy is one job, whole
// once its hierarchical quorum is bound (a gang PodGroup with minCount bound pods, a basic one
// with one, a gang composite group with minGroupCount children that hold theirs). Every figure
// below is worked out by hand from the times given.
#include <map>
#include <memory>

#include <gtest/gtest.h>

#include "core/sim/gang_tracker.h"
#include "core/sim/tree_quorum.h"

using namespace drasim;
using namespace drasim::sim;

namespace {

TreeQuorum::Level level(const std::string& key, int32_t parent, bool composite, bool gang, int32_t min)
{
    TreeQuorum::Level l;
    l.key = key;
    l.parent = parent;
    l.composite = composite;
    l.gang = gang;
    l.minCount = min;
    return l;
}

/// Composite "job" (gang, minGroupCount 2) over PodGroup "a" (gang, minCount 2), PodGroup "b"
/// (basic) and PodGroup "c" (gang, minCount 3).
std::shared_ptr<const TreeQuorum> jobOverABC()
{
    auto q = std::make_shared<TreeQuorum>();
    q->levels = { level("default/job", -1, true, true, 2), level("default/a", 0, false, true, 2),
        level("default/b", 0, false, false, 1), level("default/c", 0, false, true, 3) };
    return q;
}

constexpr uint32_t kUnit = 0x40000000u;

} // namespace

TEST(TreeQuorum, TheRootHoldsWithMinGroupCountChildrenThatHoldTheirs)
{
    const auto q = jobOverABC();
    EXPECT_TRUE(q->anyGang());
    EXPECT_FALSE(q->holds({}));
    EXPECT_FALSE(q->holds({ { "default/a", 2 } })); // one child of two
    EXPECT_FALSE(q->holds({ { "default/a", 1 }, { "default/c", 2 } })); // neither gang holds
    EXPECT_TRUE(q->holds({ { "default/a", 2 }, { "default/b", 1 } })); // a basic child holds with one
    EXPECT_TRUE(q->holds({ { "default/b", 1 }, { "default/c", 3 } }));
    EXPECT_FALSE(q->holds({ { "default/b", 5 }, { "default/c", 2 } }));
}

TEST(TreeQuorum, ThreeLevelsAndBasicComposites)
{
    // Basic root over two gang composites "r0" (minGroupCount 2 over x, y) and "r1" (1 over z).
    TreeQuorum q;
    q.levels = { level("default/top", -1, true, false, 1), level("default/r0", 0, true, true, 2),
        level("default/x", 1, false, true, 2), level("default/y", 1, false, true, 1),
        level("default/r1", 0, true, true, 1), level("default/z", 4, false, true, 4) };
    EXPECT_FALSE(q.holds({ { "default/x", 2 } }));
    EXPECT_TRUE(q.holds({ { "default/x", 2 }, { "default/y", 1 } })); // r0 holds: the basic root does
    EXPECT_TRUE(q.holds({ { "default/z", 4 } }));
    EXPECT_FALSE(q.holds({ { "default/z", 3 }, { "default/y", 1 } }));
    TreeQuorum plain;
    plain.levels = { level("default/top", -1, true, false, 1), level("default/p", 0, false, false, 1) };
    EXPECT_FALSE(plain.anyGang());
}

// Members bound one by one (as 1.35's pod-by-pod binding would): the hierarchy starts when its
// quorum is bound, and what its members held before is idle. a-0 (2 devices) at 10 s, a-1 (2) at
// 20 s: a holds, the root does not. b-0 (1) at 40 s completes the quorum: all three start then,
// having held (40-10) x 2 + (40-20) x 2 + 0 = 100 device-seconds. Later members start as they bind.
TEST(GangTracker, AHierarchyStartsWhenItsQuorumIsBound)
{
    GangTracker t;
    for (int i = 0; i < 5; ++i)
        t.treeMemberAdded(kUnit, 0, jobOverABC());
    EXPECT_TRUE(t.memberBound(kUnit, 1, 10 * kSecond, 2, "default/a").empty());
    EXPECT_TRUE(t.memberBound(kUnit, 2, 20 * kSecond, 2, "default/a").empty());
    EXPECT_EQ(t.memberBound(kUnit, 3, 40 * kSecond, 1, "default/b"), (std::vector<uint32_t> { 1, 2, 3 }));
    EXPECT_EQ(t.memberBound(kUnit, 4, 50 * kSecond, 1, "default/c"), (std::vector<uint32_t> { 4 }));
    // Its members end at 100 s (one never bound): the job ends with the last of them.
    t.memberEnded(kUnit, 1, 100 * kSecond, "default/a");
    for (int i = 0; i < 5; ++i)
        t.treeMemberGone(kUnit, 100 * kSecond);
    const GangSummary s = t.finish(500 * kSecond);
    EXPECT_EQ(s.jobs, 1);
    EXPECT_EQ(s.started, 1);
    EXPECT_DOUBLE_EQ(s.secondsToStart.p50, 40);
    EXPECT_EQ(s.secondsToStart.censored, 0u);
    EXPECT_DOUBLE_EQ(s.idleDeviceHours, 100.0 / 3600.0);
    EXPECT_DOUBLE_EQ(s.secondsToComplete.p50, 100);
    EXPECT_EQ(s.secondsToComplete.censored, 0u);
}

// A member that ends before the quorum is bound takes its pod out of the count: a-0 and a-1 bound
// at 0 s, a-1 ends at 30 s, b-0 binds at 60 s: a holds no longer, so nothing starts. The run ends
// at 100 s with the hierarchy never started: its wait (100 s) and its time (100 s) are lower
// bounds, and its idle device time is a-0's 100 s plus a-1's 30 s plus b-0's 40 s, one device each.
TEST(GangTracker, AHierarchyThatLostAMemberBeforeItsQuorumWaits)
{
    GangTracker t;
    for (int i = 0; i < 3; ++i)
        t.treeMemberAdded(kUnit, 0, jobOverABC());
    EXPECT_TRUE(t.memberBound(kUnit, 1, 0, 1, "default/a").empty());
    EXPECT_TRUE(t.memberBound(kUnit, 2, 0, 1, "default/a").empty());
    t.memberEnded(kUnit, 2, 30 * kSecond, "default/a");
    t.treeMemberGone(kUnit, 30 * kSecond);
    EXPECT_TRUE(t.memberBound(kUnit, 3, 60 * kSecond, 1, "default/b").empty());
    const GangSummary s = t.finish(100 * kSecond);
    EXPECT_EQ(s.jobs, 1);
    EXPECT_EQ(s.started, 0);
    EXPECT_EQ(s.secondsToStart.censored, 1u);
    EXPECT_DOUBLE_EQ(s.secondsToStart.p50, 100);
    EXPECT_EQ(s.secondsToComplete.censored, 1u);
    EXPECT_DOUBLE_EQ(s.secondsToComplete.p50, 100);
    EXPECT_DOUBLE_EQ(s.idleDeviceHours, (100.0 + 30.0 + 40.0) / 3600.0);
}

// A hierarchy all of whose members went arrives again with its next member: a second job.
TEST(GangTracker, AHierarchyArrivesAgainAfterItsMembersHaveGone)
{
    GangTracker t;
    t.treeMemberAdded(kUnit, 0, jobOverABC());
    t.treeMemberGone(kUnit, 10 * kSecond);
    t.treeMemberAdded(kUnit, 20 * kSecond, jobOverABC());
    const GangSummary s = t.finish(50 * kSecond);
    EXPECT_EQ(s.jobs, 2);
    EXPECT_EQ(s.started, 0);
    EXPECT_EQ(s.secondsToStart.count, 2u);
    EXPECT_DOUBLE_EQ(s.secondsToStart.max, 30); // the second: 20 s to 50 s
    EXPECT_DOUBLE_EQ(s.secondsToStart.min, 10);
}

// A gang Job's completion: its arrival to its end, as the workload's job completion counts it.
TEST(GangTracker, AJobCompletesWhenItEnds)
{
    GangTracker t;
    t.jobArrived(7, 5 * kSecond, 2);
    EXPECT_TRUE(t.memberBound(7, 1, 10 * kSecond, 1).empty());
    EXPECT_EQ(t.memberBound(7, 2, 15 * kSecond, 1), (std::vector<uint32_t> { 1, 2 }));
    t.jobEnded(7, 115 * kSecond);
    const GangSummary s = t.finish(200 * kSecond);
    EXPECT_DOUBLE_EQ(s.secondsToStart.p50, 10);
    EXPECT_DOUBLE_EQ(s.secondsToComplete.p50, 110);
    EXPECT_DOUBLE_EQ(s.idleDeviceHours, 5.0 / 3600.0);
}

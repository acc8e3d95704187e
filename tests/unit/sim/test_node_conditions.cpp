// SPDX-License-Identifier: Apache-2.0
// NodeConditions: the nodes' conditions over a run, read from the scenario's injected events.
#include <gtest/gtest.h>

#include "core/sim/node_conditions.h"
#include "tests/unit/sim/sim_test_util.h"

using namespace drasim;
using namespace drasim::sim;
using namespace drasim::sim::testing;

namespace {

InjectedEvent conditionEvent(SimTime at, InjectedEvent::Type type, const std::string& node)
{
    InjectedEvent e;
    e.at = at;
    e.type = type;
    e.node = node;
    return e;
}

InjectedEvent conditionTaint(InjectedEvent e, const std::string& key, const std::string& effect)
{
    e.taint.key = key;
    e.taint.effect = effect;
    return e;
}

std::vector<std::shared_ptr<const NodePool>> conditionPools()
{
    return { std::make_shared<NodePool>(gpuPool("a", 3, 4)), std::make_shared<NodePool>(gpuPool("b", 1, 8)) };
}

} // namespace

TEST(NodeConditions, AFailedNodeIsDownUntilItReturns)
{
    using T = InjectedEvent::Type;
    NodeConditions c(conditionPools(),
        { conditionEvent(10 * kHour, T::NodeFailure, "a-1"),
            conditionEvent(14 * kHour, T::NodeReturn, "a-1") },
        kDay);
    EXPECT_TRUE(c.at(9 * kHour).empty());
    const auto during = c.at(10 * kHour);
    ASSERT_EQ(during.size(), 1u);
    EXPECT_TRUE(during.at("a-1").down);
    EXPECT_FALSE(during.at("a-1").removed);
    EXPECT_TRUE(c.at(14 * kHour).empty());
}

TEST(NodeConditions, CapacityCountsNodesAndDevicesUpByModel)
{
    using T = InjectedEvent::Type;
    NodeConditions c(conditionPools(),
        { conditionEvent(10 * kHour, T::NodeFailure, "a-0"),
            conditionEvent(10 * kHour, T::NodeFailure, "b-0"),
            conditionEvent(14 * kHour, T::NodeReturn, "b-0") },
        kDay);
    ASSERT_EQ(c.capacity().size(), 3u); // start, both failures at 10h (one point), the return
    EXPECT_EQ(c.capacity()[0], (CapacityPoint { 0, 4, 20, { { "A100", 20 } } }));
    EXPECT_EQ(c.capacity()[1], (CapacityPoint { 10 * kHour, 2, 8, { { "A100", 8 } } }));
    EXPECT_EQ(c.capacityAt(13 * kHour).devicesUp, 8);
    EXPECT_EQ(c.capacityAt(14 * kHour).devicesUp, 16);
    EXPECT_EQ(c.capacityAt(14 * kHour).nodesUp, 3);
}

TEST(NodeConditions, EventsAfterTheRunAreNotApplied)
{
    using T = InjectedEvent::Type;
    NodeConditions c(conditionPools(), { conditionEvent(2 * kDay, T::NodeFailure, "a-0") }, kDay);
    EXPECT_TRUE(c.events().empty());
    EXPECT_TRUE(c.at(3 * kDay).empty());
    EXPECT_EQ(c.capacity().size(), 1u);
}

TEST(NodeConditions, EventsAreAnnouncedAsTheEngineAnnouncesThem)
{
    using T = InjectedEvent::Type;
    InjectedEvent taint
        = conditionTaint(conditionEvent(16 * kHour, T::DeviceTaint, "b-0"), "xid", "NoExecute");
    taint.driver = "gpu.example.com";
    taint.device = "gpu-5";
    NodeConditions c(conditionPools(), { conditionEvent(10 * kHour, T::NodeFailure, "a-2"), taint }, kDay);
    ASSERT_EQ(c.events().size(), 2u);
    EXPECT_EQ(c.events()[0].kind, "NodeFailure");
    EXPECT_EQ(c.events()[0].subject, "a-2");
    EXPECT_EQ(c.events()[1].time, 16 * kHour);
    EXPECT_EQ(c.events()[1].detail, "driver=gpu.example.com device=gpu-5 taint=xid:NoExecute");
}

TEST(NodeConditions, DeviceTaintsNameTheDevicesAsTheirSlicesPublishThem)
{
    using T = InjectedEvent::Type;
    InjectedEvent taint
        = conditionTaint(conditionEvent(16 * kHour, T::DeviceTaint, "b-0"), "xid", "NoExecute");
    taint.device = "gpu-5";
    InjectedEvent untaint = conditionTaint(conditionEvent(20 * kHour, T::DeviceUntaint, "b-0"), "xid", "");
    NodeConditions c(conditionPools(), { taint, untaint }, kDay);
    const auto tainted = c.at(16 * kHour);
    ASSERT_EQ(tainted.size(), 1u);
    EXPECT_TRUE(tainted.at("b-0").tainted());
    EXPECT_FALSE(tainted.at("b-0").down);
    EXPECT_EQ(tainted.at("b-0").taintedDevices, std::vector<std::string> { "gpu.example.com/gpu-5" });
    EXPECT_TRUE(c.at(20 * kHour).empty());
    EXPECT_EQ(c.capacityAt(16 * kHour).devicesUp, 20); // a tainted device is still up
}

TEST(NodeConditions, ATaintRuleTaintsTheDevicesItSelectsUntilDeleted)
{
    using T = InjectedEvent::Type;
    InjectedEvent rule
        = conditionTaint(conditionEvent(kHour, T::DeviceTaintRule, ""), "maintenance", "NoSchedule");
    rule.pool = "drain-a1";
    rule.selector = api::DeviceTaintSelector { std::nullopt, std::string("a-1"), std::nullopt };
    InjectedEvent remove = conditionEvent(3 * kHour, T::DeviceTaintRuleDelete, "");
    remove.pool = "drain-a1";
    NodeConditions c(conditionPools(), { rule, remove }, kDay);
    const auto during = c.at(2 * kHour);
    ASSERT_EQ(during.size(), 1u);
    EXPECT_EQ(during.at("a-1").taintedDevices.size(), 4u);
    EXPECT_TRUE(c.at(3 * kHour).empty());
}

TEST(NodeConditions, ANoScheduleOrNoExecuteNodeTaintDrainsTheNode)
{
    using T = InjectedEvent::Type;
    NodeConditions c(conditionPools(),
        { conditionTaint(conditionEvent(kHour, T::NodeTaint, "a-0"), "maintenance", "NoExecute"),
            conditionTaint(conditionEvent(kHour, T::NodeTaint, "a-1"), "hint", "PreferNoSchedule"),
            conditionTaint(conditionEvent(2 * kHour, T::NodeUntaint, "a-0"), "maintenance", "") },
        kDay);
    const auto during = c.at(kHour);
    ASSERT_EQ(during.size(), 2u);
    EXPECT_TRUE(during.at("a-0").draining());
    EXPECT_FALSE(during.at("a-1").draining()); // only a preference: pods still land there
    EXPECT_EQ(during.at("a-1").nodeTaints.size(), 1u);
    EXPECT_EQ(c.at(2 * kHour).count("a-0"), 0u);
}

TEST(NodeConditions, AFailureForgetsTheNodesOwnTaints)
{
    using T = InjectedEvent::Type;
    NodeConditions c(conditionPools(),
        { conditionTaint(conditionEvent(kHour, T::NodeTaint, "a-0"), "maintenance", "NoSchedule"),
            conditionEvent(2 * kHour, T::NodeFailure, "a-0"),
            conditionEvent(3 * kHour, T::NodeReturn, "a-0") },
        kDay);
    const NodeCondition down = c.at(2 * kHour).at("a-0");
    EXPECT_TRUE(down.down);
    EXPECT_TRUE(down.nodeTaints.empty());
    EXPECT_FALSE(down.draining());
    EXPECT_TRUE(c.at(3 * kHour).empty());
}

TEST(NodeConditions, RemovingAPoolTakesItsNodesDownForGood)
{
    using T = InjectedEvent::Type;
    InjectedEvent remove = conditionEvent(kHour, T::RemoveNodePool, "");
    remove.pool = "a";
    NodeConditions c(conditionPools(),
        { conditionEvent(0, T::NodeFailure, "a-2"), remove, conditionEvent(2 * kHour, T::NodeReturn, "a-2") },
        kDay);
    const auto after = c.at(2 * kHour);
    ASSERT_EQ(after.size(), 3u);
    EXPECT_TRUE(after.at("a-2").removed);
    EXPECT_EQ(c.capacityAt(2 * kHour).nodesUp, 1);
    EXPECT_EQ(c.capacity().front().nodesUp, 3); // the failure at 0 is the first point's
}

TEST(NodeConditions, AnAddedPoolCountsFromItsTime)
{
    using T = InjectedEvent::Type;
    InjectedEvent add = conditionEvent(5 * kHour, T::AddNodePool, "");
    add.newPool = std::make_shared<NodePool>(gpuPool("burst", 2, 2));
    NodeConditions c(conditionPools(), { add }, kDay);
    EXPECT_EQ(c.capacityAt(4 * kHour).nodesUp, 4);
    EXPECT_EQ(c.capacityAt(5 * kHour).nodesUp, 6);
    EXPECT_EQ(c.capacityAt(5 * kHour).devicesUp, 24);
}

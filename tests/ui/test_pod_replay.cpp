// SPDX-License-Identifier: Apache-2.0
// The replay of recorded pod events: what runs, pends and holds which device at any time, checked
// on hand-made runs and as laws over random ones; and the events model under the model tester.
#include <map>
#include <memory>
#include <random>
#include <set>

#include <QAbstractItemModelTester>
#include <QColor>
#include <QFont>

#include <gtest/gtest.h>

#include "ui/models/allocated_state.h"
#include "ui/models/pod_replay.h"
#include "ui/models/replay_events_model.h"
#include "ui/models/time_cursor.h"
#include "ui/models/time_text.h"
#include "ui/models/tone_colors.h"

using namespace drasim;
using drasim::ui::DeviceKey;
using drasim::ui::PodReplay;
using drasim::ui::ReplayEvent;
using Type = sim::PodEventType;

namespace {

ReplayEvent ev(sim::SimTime t, Type type, const std::string& pod, const std::string& node = {},
    std::vector<std::pair<std::string, DeviceKey>> devices = {}, const std::string& message = {})
{
    ReplayEvent e;
    e.time = t;
    e.type = type;
    e.pod = pod;
    e.node = node;
    e.devices = std::move(devices);
    e.message = message;
    return e;
}

DeviceKey gpu(const std::string& node, int i)
{
    return { "gpu.nvidia.com", node, "gpu-" + std::to_string(i) };
}

PodReplay twoPods()
{
    PodReplay r;
    r.append(ev(0, Type::Created, "ns/a"));
    r.append(ev(0, Type::Created, "ns/b"));
    r.append(ev(
        10, Type::Scheduled, "ns/a", "n0", { { "ns/a-gpus", gpu("n0", 0) }, { "ns/a-gpus", gpu("n0", 1) } }));
    r.append(ev(10, Type::Unschedulable, "ns/b", {}, {}, "0/1 nodes are available"));
    r.append(ev(50, Type::Succeeded, "ns/a", "n0"));
    r.append(ev(60, Type::Scheduled, "ns/b", "n0", { { "ns/b-gpu", gpu("n0", 1) } }));
    r.setEndTime(100);
    return r;
}

} // namespace

TEST(PodReplay, PodsPendRunAndReleaseTheirDevices)
{
    const PodReplay r = twoPods();
    auto at5 = r.stateAt(5);
    EXPECT_EQ(at5.pending.size(), 2u);
    EXPECT_TRUE(at5.running.empty());
    EXPECT_TRUE(at5.holders.empty());

    auto at10 = r.stateAt(10);
    ASSERT_EQ(at10.running.count("ns/a"), 1u);
    EXPECT_EQ(at10.running.at("ns/a"), "n0");
    EXPECT_EQ(at10.pending.at("ns/b"), "0/1 nodes are available");
    ASSERT_EQ(at10.holders.size(), 2u);
    EXPECT_EQ(at10.holders.at(gpu("n0", 1)).pod, "ns/a");
    EXPECT_EQ(at10.holders.at(gpu("n0", 1)).claim, "ns/a-gpus");
    EXPECT_EQ(at10.claimDevices.at("ns/a-gpus"), (std::vector<DeviceKey> { gpu("n0", 0), gpu("n0", 1) }));
    EXPECT_EQ(at10.claimPods.at("ns/a-gpus"), "ns/a");
    EXPECT_EQ(at10.heldOnNode("n0"), 2);
    EXPECT_EQ(at10.podsOnNode.at("n0"), 1);

    auto at55 = r.stateAt(55);
    EXPECT_TRUE(at55.running.empty());
    EXPECT_TRUE(at55.holders.empty());
    EXPECT_TRUE(at55.claimDevices.empty());
    EXPECT_TRUE(at55.claimPods.empty());
    EXPECT_EQ(at55.podsOnNode.count("n0"), 0u);

    auto at60 = r.stateAt(60);
    EXPECT_EQ(at60.holders.at(gpu("n0", 1)).pod, "ns/b");
    EXPECT_EQ(at60.holders.count(gpu("n0", 0)), 0u);
    EXPECT_TRUE(at60.pending.empty());
}

TEST(PodReplay, EventNavigation)
{
    const PodReplay r = twoPods();
    EXPECT_EQ(r.endTime(), 100);
    EXPECT_EQ(r.nextEventTime(0), 10);
    EXPECT_EQ(r.nextEventTime(10), 50);
    EXPECT_EQ(r.nextEventTime(60), -1);
    EXPECT_EQ(r.previousEventTime(60), 50);
    EXPECT_EQ(r.previousEventTime(0), -1);
    EXPECT_EQ(r.eventsUpTo(-1), 0u);
    EXPECT_EQ(r.eventsUpTo(10), 4u);
    EXPECT_EQ(r.eventsUpTo(1000), 6u);
}

TEST(PodReplay, CountsOverTimeSpanTheRun)
{
    const PodReplay r = twoPods();
    const auto counts = r.countsOverTime(11); // every 10 time units
    ASSERT_EQ(counts.size(), 11u);
    EXPECT_EQ(counts.front().time, 0);
    EXPECT_EQ(counts.back().time, 100);
    EXPECT_EQ(counts[0].pending, 2);
    EXPECT_EQ(counts[1].running, 1);
    EXPECT_EQ(counts[1].pending, 1);
    EXPECT_EQ(counts[5].running, 0); // a succeeded at 50
    EXPECT_EQ(counts[6].running, 1); // b scheduled at 60
    EXPECT_EQ(counts[6].pending, 0);
    EXPECT_TRUE(r.countsOverTime(1).empty());
}

TEST(PodReplay, LateEventsKeepTimeOrderAndRecordedOrderWithinATime)
{
    PodReplay r;
    r.append(ev(20, Type::Created, "ns/x"));
    r.append(ev(10, Type::Created, "ns/y"));
    r.append(ev(10, Type::Created, "ns/z"));
    ASSERT_EQ(r.events().size(), 3u);
    EXPECT_EQ(r.events()[0].pod, "ns/y");
    EXPECT_EQ(r.events()[1].pod, "ns/z");
    EXPECT_EQ(r.events()[2].pod, "ns/x");
    EXPECT_EQ(r.endTime(), 20);
}

TEST(PodReplay, RecordedPodEventsKeepTheirDevices)
{
    sim::PodEvent e;
    e.time = 7;
    e.type = Type::Scheduled;
    e.pod = "ns/p";
    e.node = "n1";
    e.devices.push_back({ "ns/c", "gpu.nvidia.com", "n1", "gpu-3", "gpu.nvidia.com" });
    const ReplayEvent r = ui::toReplayEvent(e);
    ASSERT_EQ(r.devices.size(), 1u);
    EXPECT_EQ(r.devices[0].first, "ns/c");
    EXPECT_EQ(r.devices[0].second, gpu("n1", 3));
}

// Laws over random runs: a device has at most one holder, every held device belongs to a running
// pod on the device's node, a pod is never running and pending at once, and the counts per node
// add up to the running pods.
TEST(PodReplay, LawsOverRandomRuns)
{
    std::mt19937 rng(12345);
    for (int round = 0; round < 200; ++round) {
        PodReplay r;
        std::set<std::string> running;
        std::set<DeviceKey> busy;
        std::map<std::string, std::vector<DeviceKey>> holding; // running pod → its devices
        sim::SimTime t = 0;
        const int pods = 1 + int(rng() % 12);
        for (int step = 0; step < 60; ++step) {
            t += sim::SimTime(rng() % 3);
            const std::string pod = "ns/p" + std::to_string(rng() % pods);
            const std::string node = "n" + std::to_string(rng() % 3);
            switch (rng() % 4) {
            case 0:
                if (!running.count(pod))
                    r.append(ev(t, Type::Created, pod));
                break;
            case 1:
                if (!running.count(pod))
                    r.append(ev(t, Type::Unschedulable, pod, {}, {}, "no"));
                break;
            case 2: {
                if (running.count(pod))
                    break;
                // Like the simulator: only free devices are allocated.
                std::vector<std::pair<std::string, DeviceKey>> devices;
                for (int i = 0; i < 4; ++i)
                    if (rng() % 2 && !busy.count(gpu(node, i)))
                        devices.emplace_back(pod + "-claim", gpu(node, i));
                for (const auto& d : devices) {
                    busy.insert(d.second);
                    holding[pod].push_back(d.second);
                }
                running.insert(pod);
                r.append(ev(t, Type::Scheduled, pod, node, devices));
                break;
            }
            default:
                if (running.erase(pod)) {
                    for (const auto& d : holding[pod])
                        busy.erase(d);
                    holding.erase(pod);
                    r.append(ev(t, rng() % 2 ? Type::Succeeded : Type::Evicted, pod));
                }
            }
        }
        for (sim::SimTime at = -1; at <= t + 1; ++at) {
            const auto s = r.stateAt(at);
            int onNodes = 0;
            for (const auto& [node, n] : s.podsOnNode) {
                EXPECT_GT(n, 0);
                onNodes += n;
            }
            EXPECT_EQ(onNodes, int(s.running.size()));
            for (const auto& [pod, node] : s.running)
                EXPECT_EQ(s.pending.count(pod), 0u) << pod;
            size_t claimed = 0;
            for (const auto& [claim, devices] : s.claimDevices)
                claimed += devices.size();
            EXPECT_EQ(claimed, s.holders.size());
            for (const auto& [key, holder] : s.holders) {
                ASSERT_EQ(s.running.count(holder.pod), 1u) << holder.pod;
                EXPECT_EQ(s.running.at(holder.pod), key.pool);
            }
        }
        // The run's outline agrees with the state at each of its points.
        r.setEndTime(t + 1);
        for (const auto& c : r.countsOverTime(7)) {
            const auto s = r.stateAt(c.time);
            EXPECT_EQ(c.running, int(s.running.size())) << c.time;
            EXPECT_EQ(c.pending, int(s.pending.size())) << c.time;
        }
        // The final state is the one the generator tracked.
        const auto end = r.stateAt(t);
        EXPECT_EQ(end.holders.size(), busy.size());
        EXPECT_EQ(end.running.size(), running.size());
    }
}

TEST(ReplayEventsModel, PassesTheTesterAndMarksEventsUpToTheCursor)
{
    auto replay = std::make_shared<const PodReplay>(twoPods());
    ui::ReplayEventsModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
    model.setReplay(replay);
    ASSERT_EQ(model.rowCount(), 6);
    EXPECT_EQ(
        model.index(2, ui::ReplayEventsModel::EventColumn).data().toString(), QStringLiteral("Scheduled"));
    EXPECT_EQ(model.index(2, ui::ReplayEventsModel::DetailColumn).data().toString(),
        QStringLiteral("gpu-0, gpu-1"));
    EXPECT_EQ(model.index(3, ui::ReplayEventsModel::DetailColumn).data().toString(),
        QStringLiteral("0/1 nodes are available"));
    EXPECT_EQ(model.index(4, 0).data(ui::ReplayEventsModel::TimeRole).toLongLong(), 50);
    model.setCurrentTime(10);
    EXPECT_TRUE(model.index(3, 0).data(Qt::FontRole).value<QFont>().bold());
    EXPECT_FALSE(model.index(4, 0).data(Qt::FontRole).value<QFont>().bold());
    EXPECT_EQ(model.rowAt(10), 3);
    EXPECT_EQ(model.rowAt(-1), -1);
    model.setReplay(nullptr);
    EXPECT_EQ(model.rowCount(), 0);
}

TEST(TimeCursor, ClampsAndSharesTheStateAtItsTime)
{
    ui::TimeCursor cursor;
    cursor.setReplay(std::make_shared<const PodReplay>(twoPods()));
    EXPECT_EQ(cursor.time(), 100);
    cursor.setTime(-5);
    EXPECT_EQ(cursor.time(), 0);
    cursor.setTime(30);
    EXPECT_EQ(cursor.state().running.count("ns/a"), 1u);
    cursor.setTime(1000);
    EXPECT_EQ(cursor.time(), 100);
    EXPECT_EQ(cursor.state().running.count("ns/b"), 1u);
}

TEST(FormatSimTime, TheTimeSinceTheStartAsTheCommandLineTakesIt)
{
    EXPECT_EQ(ui::formatSimTime(0), QStringLiteral("0s"));
    EXPECT_EQ(ui::formatSimTime(sim::kDay + 14 * sim::kHour + 5 * sim::kMinute + 9 * sim::kSecond),
        QStringLiteral("1d14h5m9s"));
    EXPECT_EQ(ui::formatSeconds(20250.8), QStringLiteral("5h37m31s"));
    EXPECT_EQ(ui::formatSeconds(20250.8, true), QStringLiteral("≥ 5h37m31s"));
}

namespace {

api::ResourceClaim allocatedClaim(
    const std::string& name, const std::string& pod, std::vector<api::DeviceRequestAllocationResult> results)
{
    api::ResourceClaim c;
    c.meta.namespace_ = "ns";
    c.meta.name = name;
    c.allocation = api::AllocationResult {};
    c.allocation->results = std::move(results);
    if (!pod.empty())
        c.reservedFor.push_back({ "", "pods", pod, "" });
    return c;
}

api::DeviceRequestAllocationResult result(const DeviceKey& key, bool admin = false)
{
    api::DeviceRequestAllocationResult r;
    r.request = "gpu";
    r.driver = key.driver;
    r.pool = key.pool;
    r.device = key.device;
    if (admin)
        r.adminAccess = true;
    return r;
}

} // namespace

TEST(AllocatedState, TheScheduledClusterHoldsTheDevicesOfAllocatedClaims)
{
    std::vector<api::Pod> pods(3);
    pods[0].meta.name = "a";
    pods[0].spec.nodeName = "n0";
    pods[1].meta.name = "b";
    pods[1].spec.nodeName = "n0";
    pods[2].meta.name = "waiting";
    for (auto& p : pods)
        p.meta.namespace_ = "ns";
    std::vector<api::ResourceClaim> claims {
        allocatedClaim("a-gpu", "a", { result(gpu("n0", 0)), result(gpu("n0", 1)) }),
        // Consumable capacity: b's claim shares gpu-1; the first holder stays, the claim keeps its pod.
        allocatedClaim("b-gpu", "b", { result(gpu("n0", 1)) }),
        // Admin access sees a device without taking it.
        allocatedClaim("monitor", "mon", { result(gpu("n0", 2), true) }),
        allocatedClaim("unallocated", "", {}),
    };
    claims.back().allocation.reset();

    const ui::ReplayState s = ui::allocatedState(pods, claims);
    EXPECT_EQ(s.running, (std::map<std::string, std::string> { { "ns/a", "n0" }, { "ns/b", "n0" } }));
    EXPECT_EQ(s.pending.count("ns/waiting"), 1u);
    EXPECT_EQ(s.podsOnNode.at("n0"), 2);
    EXPECT_EQ(s.claimDevices.at("ns/a-gpu"), (std::vector<DeviceKey> { gpu("n0", 0), gpu("n0", 1) }));
    EXPECT_EQ(s.holders.at(gpu("n0", 1)).pod, "ns/a");
    EXPECT_EQ(s.holders.at(gpu("n0", 1)).claim, "ns/a-gpu");
    EXPECT_EQ(s.claimPods.at("ns/b-gpu"), "ns/b");
    EXPECT_EQ(s.claimDevices.at("ns/monitor").size(), 1u);
    EXPECT_EQ(s.holders.count(gpu("n0", 2)), 0u);
    EXPECT_EQ(s.claimDevices.count("ns/unallocated"), 0u);
    EXPECT_EQ(s.heldOnNode("n0"), 2);
}

namespace {

/// Node n0 fails at 20 and returns at 70; one of its devices is tainted at 80; a later failure
/// (200) is after the run and never happens.
std::shared_ptr<const sim::NodeConditions> failingNode()
{
    auto pool = std::make_shared<sim::NodePool>();
    pool->name = "n";
    sim::NodeSpec node;
    node.node.meta.name = "n0";
    api::ResourceSlice slice;
    slice.driver = "gpu.nvidia.com";
    slice.pool.name = "n0";
    for (int i = 0; i < 2; ++i) {
        api::Device d;
        d.name = "gpu-" + std::to_string(i);
        slice.devices.push_back(d);
    }
    node.slices.push_back(slice);
    pool->nodes.push_back(node);
    using T = sim::InjectedEvent::Type;
    std::vector<sim::InjectedEvent> events(4);
    events[0].at = 20;
    events[0].node = "n0";
    events[1].at = 70;
    events[1].type = T::NodeReturn;
    events[1].node = "n0";
    events[2].at = 80;
    events[2].type = T::DeviceTaint;
    events[2].node = "n0";
    events[2].device = "gpu-1";
    events[2].taint = { "xid", "48", "NoExecute", "" };
    events[3].at = 200;
    events[3].node = "n0";
    return std::make_shared<const sim::NodeConditions>(
        std::vector<std::shared_ptr<const sim::NodePool>> { pool }, events, 100);
}

} // namespace

TEST(PodReplay, InjectedEventsJoinTheListBeforeThePodEventsOfTheirTime)
{
    PodReplay r = twoPods();
    r.append(ev(20, Type::Failed, "ns/b", "n0", {}, "node n0 failed"));
    r.setConditions(failingNode());
    std::vector<std::string> kinds;
    for (const auto& e : r.events())
        kinds.push_back(e.kind.empty() ? sim::podEventTypeName(e.type) : e.kind);
    EXPECT_EQ(kinds,
        (std::vector<std::string> { "Created", "Created", "Scheduled", "Unschedulable", "NodeFailure",
            "Failed", "Succeeded", "Scheduled", "NodeReturn", "DeviceTaint" }));
    EXPECT_EQ(r.events()[4].node, "n0");
    EXPECT_EQ(r.events()[9].message, "device=gpu-1 taint=xid=48:NoExecute");
    EXPECT_EQ(r.nextEventTime(60), 70); // stepping stops at them too
}

TEST(PodReplay, StatesCarryTheNodesConditionsAndInjectedEventsMoveNoPod)
{
    PodReplay plain = twoPods();
    PodReplay r = twoPods();
    r.setConditions(failingNode());
    for (sim::SimTime t : { 0, 20, 69, 70, 85, 100 }) {
        const ui::ReplayState with = r.stateAt(t);
        const ui::ReplayState without = plain.stateAt(t);
        EXPECT_EQ(with.running, without.running) << t;
        EXPECT_EQ(with.pending, without.pending) << t;
        EXPECT_EQ(with.holders, without.holders) << t;
    }
    EXPECT_TRUE(r.stateAt(19).nodes.empty());
    EXPECT_TRUE(r.stateAt(20).nodes.at("n0").down);
    EXPECT_TRUE(r.stateAt(70).nodes.empty());
    EXPECT_EQ(
        r.stateAt(80).nodes.at("n0").taintedDevices, std::vector<std::string> { "gpu.nvidia.com/gpu-1" });
    EXPECT_FALSE(r.stateAt(100).nodes.at("n0").down); // the failure at 200 is after the run
    const auto counts = r.countsOverTime(11);
    const auto plainCounts = plain.countsOverTime(11);
    for (size_t i = 0; i < counts.size(); ++i) {
        EXPECT_EQ(counts[i].running, plainCounts[i].running) << i;
        EXPECT_EQ(counts[i].pending, plainCounts[i].pending) << i;
    }
}

TEST(ReplayEventsModel, InjectedEventsAndPreemptionsReadAsWhatHappened)
{
    auto replay = std::make_shared<PodReplay>(twoPods());
    replay->append(
        ev(55, Type::Preempted, "ns/low", "n0", {}, "preempted by ns/high (priority 100) on node n0"));
    replay->setConditions(failingNode());
    ui::ReplayEventsModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
    model.setReplay(replay);
    using M = ui::ReplayEventsModel;
    auto cell = [&](int row, int column) { return model.index(row, column).data().toString(); };
    int failure = -1;
    int preempted = -1;
    for (int row = 0; row < model.rowCount(); ++row) {
        failure = cell(row, M::EventColumn) == QLatin1String("NodeFailure") ? row : failure;
        preempted = cell(row, M::EventColumn) == QLatin1String("Preempted") ? row : preempted;
    }
    ASSERT_GE(failure, 0);
    EXPECT_EQ(cell(failure, M::TimeColumn), QStringLiteral("20ms"));
    EXPECT_EQ(cell(failure, M::NodeColumn), QStringLiteral("n0"));
    EXPECT_EQ(cell(failure, M::PodColumn), QString());
    EXPECT_EQ(model.index(failure, M::EventColumn).data(Qt::ForegroundRole).value<QColor>(),
        ui::toneColor(ui::Tone::Bad));
    ASSERT_GE(preempted, 0); // the victim, its node and who preempted it
    EXPECT_EQ(cell(preempted, M::PodColumn), QStringLiteral("ns/low"));
    EXPECT_EQ(cell(preempted, M::NodeColumn), QStringLiteral("n0"));
    EXPECT_EQ(
        cell(preempted, M::DetailColumn), QStringLiteral("preempted by ns/high (priority 100) on node n0"));
    EXPECT_EQ(model.index(preempted, M::PodColumn).data(Qt::ForegroundRole).value<QColor>(),
        ui::toneColor(ui::Tone::Warning));
}

TEST(PodReplay, PeaksCountAnInstantOnceItsEventsAreDone)
{
    PodReplay r = twoPods();
    // Created and bound in one instant: never pending, as the run's summary counts it.
    r.append(ev(70, Type::Created, "ns/c"));
    r.append(ev(70, Type::Created, "ns/d"));
    r.append(ev(70, Type::Created, "ns/e"));
    r.append(ev(70, Type::Scheduled, "ns/c", "n0"));
    r.append(ev(70, Type::Scheduled, "ns/d", "n0"));
    r.append(ev(70, Type::Scheduled, "ns/e", "n0"));
    r.setConditions(failingNode());
    const PodReplay::Peaks peaks = r.peaks();
    EXPECT_EQ(peaks.pending, 2); // a and b at time 0
    EXPECT_EQ(peaks.running, 4); // b, c, d and e from 70
    EXPECT_EQ(r.podEventCount(), 12u);
    EXPECT_EQ(r.events().size(), 15u); // and three injected events up to the end
}

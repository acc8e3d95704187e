// SPDX-License-Identifier: Apache-2.0
// explainPodAt: a run stopped at time t is the full run's first part, and what it says of a pod
// (pending and why, running where, absent) agrees with the pod events the full run records.
#include <map>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "core/scenario/prepare.h"
#include "core/scenario/scenario.h"
#include "core/scheduler/diagnosis.h"
#include "core/sim/run_prepared.h"

using namespace drasim;
using namespace drasim::sim;

namespace {

const std::string kDefaultScenario = DRASIM_SOURCE_DIR "/scenarios/sim/default/scenario.yaml";

PreparedScenario prepareDefault()
{
    Diagnostics diags;
    auto s = scenario::loadScenario(kDefaultScenario, diags);
    EXPECT_TRUE(s.has_value()) << diags.formatAll();
    auto p = s ? scenario::prepareScenario(*s, {}, diags) : std::nullopt;
    EXPECT_TRUE(p.has_value()) << diags.formatAll();
    return p.value_or(PreparedScenario {});
}

struct EventLog : RunRecorder
{
    std::vector<PodEvent> events;
    void onPodEvent(const PodEvent& e) override { events.push_back(e); }
};

std::string line(const PodEvent& e)
{
    return std::to_string(e.time) + " " + podEventTypeName(e.type) + " " + e.pod + " " + e.node + " "
        + e.message;
}

/// What the recorded events say of each pod at time t: "pending", "running NODE", or absent.
std::map<std::string, std::string> statesAt(const std::vector<PodEvent>& events, SimTime t)
{
    std::map<std::string, std::string> states;
    for (const auto& e : events) {
        if (e.time > t)
            break;
        if (e.type == PodEventType::Created || e.type == PodEventType::Unschedulable)
            states[e.pod] = "pending";
        else if (e.type == PodEventType::Scheduled)
            states[e.pod] = "running " + e.node;
        else
            states.erase(e.pod);
    }
    return states;
}

PodExplanationAt explain(
    const PreparedScenario& p, SimTime t, const std::string& pod, EventLog* log = nullptr)
{
    Diagnostics diags;
    RunOptions options;
    if (log)
        options.recorders.push_back(log);
    auto out = explainPodAt(p, options, t, pod, diags);
    EXPECT_TRUE(out.has_value()) << diags.formatAll();
    return out.value_or(PodExplanationAt {});
}

} // namespace

TEST(ExplainAt, StoppedRunIsTheFullRunsPrefixAndAgreesWithItsPodEvents)
{
    const PreparedScenario p = prepareDefault();
    EventLog full;
    {
        Diagnostics diags;
        RunOptions options;
        options.recorders.push_back(&full);
        ASSERT_TRUE(runPrepared(p, options, diags).has_value()) << diags.formatAll();
    }
    ASSERT_FALSE(full.events.empty());
    int pendingSeen = 0, runningSeen = 0, absentSeen = 0;
    for (SimTime t : { 3 * kHour + 10 * kMinute, 9 * kHour + 7 * kMinute, 17 * kHour + 41 * kMinute }) {
        const std::map<std::string, std::string> states = statesAt(full.events, t);
        std::string pending, running, absent;
        for (const auto& [pod, state] : states)
            (state == "pending" ? pending : running) = pod;
        for (const auto& e : full.events)
            if (e.time <= t && !states.count(e.pod))
                absent = e.pod;
        ASSERT_FALSE(running.empty());
        ASSERT_FALSE(absent.empty());

        // The stopped run records exactly the full run's events up to t.
        EventLog partial;
        const PodExplanationAt r = explain(p, t, running, &partial);
        std::vector<std::string> expected, got;
        for (const auto& e : full.events)
            if (e.time <= t)
                expected.push_back(line(e));
        for (const auto& e : partial.events)
            got.push_back(line(e));
        EXPECT_EQ(got, expected) << "at " << formatDuration(t);

        EXPECT_EQ(r.diagnosis, nullptr);
        EXPECT_EQ(r.problem,
            "pod " + running + " is not pending at " + formatDuration(t) + ": it runs on node "
                + states.at(running).substr(8));
        ++runningSeen;
        const PodExplanationAt a = explain(p, t, absent);
        EXPECT_EQ(a.diagnosis, nullptr);
        EXPECT_NE(
            a.problem.find("pod " + absent + " does not exist at " + formatDuration(t)), std::string::npos)
            << a.problem;
        ++absentSeen;
        if (pending.empty())
            continue;
        const PodExplanationAt d = explain(p, t, pending);
        ASSERT_NE(d.diagnosis, nullptr) << d.problem;
        EXPECT_EQ(d.diagnosis->pod, pending);
        EXPECT_FALSE(d.diagnosis->nodes.empty());
        // Deterministic: the same question gives the same account.
        EXPECT_EQ(
            scheduler::formatText(*explain(p, t, pending).diagnosis), scheduler::formatText(*d.diagnosis));
        ++pendingSeen;
    }
    EXPECT_GT(pendingSeen, 0);
    EXPECT_EQ(runningSeen, 3);
    EXPECT_EQ(absentSeen, 3);
}

TEST(ExplainAt, PendingPodGetsTheSchedulersLastWordWhenNothingChangedSince)
{
    // training-3-0 of the default scenario waits from 3h05m to 4h11m for 8 H100s; at 3h10m its
    // account must carry the message the run recorded for it and reject it on every node.
    const PreparedScenario p = prepareDefault();
    const PodExplanationAt d = explain(p, 3 * kHour + 10 * kMinute, "default/training-3-0");
    ASSERT_NE(d.diagnosis, nullptr) << d.problem;
    EXPECT_FALSE(d.diagnosis->scheduled);
    EXPECT_EQ(d.diagnosis->message,
        "0/10 nodes are available: 4 cannot allocate all claims, 6 Insufficient memory.");
    EXPECT_EQ(d.diagnosis->nodes.size(), 10u);
}

// SPDX-License-Identifier: Apache-2.0
// The allocator's trace tells the truth about its search, on the random bundles of the
// AllocatorInvariants test (random_bundle.h):
//
//  * watching changes nothing: a cluster with an observer schedules every pod exactly as one
//    without (node, message, devices);
//  * replaying a trace's picks and take-backs ends, for the attempt on the chosen node, in exactly
//    the devices the pod was allocated, and in no device for every attempt that failed;
//  * every attempt that starts also finishes, and a take-back always undoes the newest pick.
#include <algorithm>
#include <tuple>

#include <gtest/gtest.h>

#include "core/allocator/allocator.h"
#include "core/scheduler/batch.h"
#include "core/scheduler/cluster.h"
#include "tests/unit/scheduler/random_bundle.h"

using namespace drasim;
using namespace drasim::allocator;
using drasim::testing::makeRandomBundle;

namespace {

using Placed = std::tuple<std::string, std::string, std::string>; // claim, request, device

std::vector<Placed> allocatedOf(const scheduler::ScheduleResult& r)
{
    std::vector<Placed> out;
    for (const auto& d : r.allocated)
        out.emplace_back(d.claim, d.request, d.driver + "/" + d.pool + "/" + d.device);
    std::sort(out.begin(), out.end());
    return out;
}

/// Checks one pod's trace against its result; "" when it agrees.
std::string checkTrace(const AllocationTrace& trace, const scheduler::ScheduleResult& r, int& successes)
{
    const auto& ev = trace.events();
    std::vector<size_t> stack;
    bool open = false;
    for (size_t i = 0; i < ev.size(); ++i) {
        switch (ev[i].step) {
        case TraceStep::Attempt:
            if (open)
                return "attempt at step " + std::to_string(i) + " starts before the previous one finished";
            open = true;
            stack.clear();
            break;
        case TraceStep::Picked:
            stack.push_back(i);
            break;
        case TraceStep::Backtracked:
            if (stack.empty() || ev[stack.back()].device != ev[i].device)
                return "step " + std::to_string(i) + " takes back a device that is not the newest pick";
            stack.pop_back();
            break;
        case TraceStep::Finished:
            if (!open)
                return "step " + std::to_string(i) + " finishes an attempt that never started";
            open = false;
            if (ev[i].status != AttemptStatus::Success && !stack.empty())
                return "a failed attempt on " + ev[i].node + " still holds picks";
            if (trace.picksAfter(i) != stack)
                return "picksAfter disagrees with the replay at step " + std::to_string(i);
            break;
        default:
            break;
        }
    }
    if (open)
        return "the last attempt never finished";
    if (!r.scheduled || r.allocated.empty())
        return {};
    const size_t done = trace.successOn(r.nodeName);
    if (done == std::string::npos)
        return "scheduled on " + r.nodeName + " but no successful attempt there in the trace";
    std::vector<Placed> picked;
    for (size_t i : trace.picksAfter(done))
        picked.emplace_back(ev[i].claimKey, ev[i].requestName, ev[i].deviceName);
    std::sort(picked.begin(), picked.end());
    if (picked != allocatedOf(r))
        return "the trace's picks on " + r.nodeName + " are not the allocated devices";
    ++successes;
    return {};
}

} // namespace

TEST(AllocationTrace, FinalPicksEqualTheAllocationOnRandomBundles)
{
    int successes = 0, failures = 0, backtracks = 0;
    for (uint64_t seed = 1'000'000; seed < 1'000'700 && failures < 5; ++seed) {
        const auto bundle = makeRandomBundle(seed);
        scheduler::Cluster watched(bundle.objects);
        scheduler::Cluster plain(bundle.objects);
        ASSERT_FALSE(watched.diagnostics().hasErrors()) << watched.diagnostics().formatAll();
        AllocationTrace trace;
        watched.setAllocationObserver(&trace);
        for (const auto& pod : bundle.pods) {
            trace.clear();
            const auto a = watched.schedule(pod);
            const auto b = plain.schedule(pod);
            const std::string who = "seed " + std::to_string(seed) + ", pod " + pod.meta.name + ": ";
            if (a.scheduled != b.scheduled || a.nodeName != b.nodeName || a.message != b.message
                || allocatedOf(a) != allocatedOf(b)) {
                ADD_FAILURE() << who << "watching changed the outcome";
                ++failures;
                continue;
            }
            const std::string bad = checkTrace(trace, a, successes);
            if (!bad.empty()) {
                ADD_FAILURE() << who << bad;
                ++failures;
            }
            for (const auto& e : trace.events())
                backtracks += e.step == TraceStep::Backtracked ? 1 : 0;
        }
    }
    // The law must have had something to check.
    EXPECT_GT(successes, 350);
    EXPECT_GT(backtracks, 20);
}

TEST(AllocationTrace, TracePodSchedulesThePodsBeforeItAndWatchesOnlyThatOne)
{
    uint64_t seed = 1'000'000;
    while (makeRandomBundle(seed).pods.size() < 2)
        ++seed;
    const auto bundle = makeRandomBundle(seed);
    const auto& target = bundle.pods[1];
    scheduler::Cluster traced(bundle.objects);
    AllocationTrace trace;
    scheduler::ScheduleResult r;
    ASSERT_TRUE(scheduler::tracePod(traced, bundle.pods, "default/" + target.meta.name, trace, &r));
    // The same as scheduling the first pod, then this one.
    scheduler::Cluster plain(bundle.objects);
    plain.schedule(bundle.pods[0]);
    const auto expected = plain.schedule(target);
    EXPECT_EQ(r.scheduled, expected.scheduled);
    EXPECT_EQ(r.nodeName, expected.nodeName);
    EXPECT_EQ(r.message, expected.message);
    for (const auto& e : trace.events()) {
        if (!e.claimKey.empty()) {
            EXPECT_NE(std::find(r.claims.begin(), r.claims.end(), e.claimKey), r.claims.end()) << e.claimKey;
        }
    }
    EXPECT_FALSE(scheduler::tracePod(traced, bundle.pods, "default/no-such-pod", trace));
}

// SPDX-License-Identifier: Apache-2.0
#include "core/sim/failure_draws.h"

#include <algorithm>
#include <cmath>
#include <iterator>
#include <limits>

#include "core/workload/rng.h"

namespace drasim::sim {

namespace {

/// FNV-1a of the node's name: its stream depends on the name alone, not on its place in a list.
uint64_t nameHash(const std::string& name)
{
    uint64_t h = 0xcbf29ce484222325ULL;
    for (unsigned char c : name) {
        h ^= c;
        h *= 0x100000001b3ULL;
    }
    return h;
}

/// Sets the failure streams apart from the workload streams derived from the same seed.
constexpr uint64_t kFailureStreamTag = 0x6661696c75726573ULL; // "failures"

/// At least one millisecond: a zero draw would put a failure and its return at the same time.
SimTime atLeastOneMs(double ms)
{
    if (!(ms < 1e18))
        return std::numeric_limits<SimTime>::max() / 4; // beyond any run
    return std::max<SimTime>(1, SimTime(std::llround(ms)));
}

/// Time to the next failure after a return: Weibull with the process's shape and the scale that
/// gives it mean mtbf (mean = scale * Gamma(1 + 1/shape)); shape 1 is the exponential.
SimTime timeToFailure(const NodeFailureProcess& f, workload::Rng& rng)
{
    const double k = f.weibullShape;
    const double scale = double(f.mtbf) / std::tgamma(1.0 + 1.0 / k);
    return atLeastOneMs(scale * std::pow(-std::log(rng.uniformOpen0()), 1.0 / k));
}

SimTime downTime(const DownTime& d, workload::Rng& rng)
{
    switch (d.distribution) {
    case DownTime::Distribution::Fixed:
        return d.mean;
    case DownTime::Distribution::Exponential:
        return atLeastOneMs(-double(d.mean) * std::log(rng.uniformOpen0()));
    case DownTime::Distribution::Lognormal: {
        const double mu = std::log(double(d.mean)) - d.sigma * d.sigma / 2;
        return atLeastOneMs(std::exp(mu + d.sigma * rng.normal()));
    }
    }
    return d.mean;
}

InjectedEvent nodeEvent(
    SimTime at, InjectedEvent::Type type, const std::string& node, InjectedEvent::Origin origin)
{
    InjectedEvent e;
    e.at = at;
    e.type = type;
    e.node = node;
    e.origin = origin;
    return e;
}

} // namespace

std::vector<InjectedEvent> drawNodeFailures(
    const std::string& node, const PoolFailures& settings, uint64_t seed, SimTime duration)
{
    std::vector<InjectedEvent> out;
    if (!settings.any())
        return out;
    // The hardware processes: the pool's own, then those of its device models. Each has its own
    // stream, as spot reclaims do, so that adding spot reclaims to a pool leaves its hardware
    // failures' draws alone. The first process draws from stream 1 whichever list it comes from:
    // one model's process gives the run the same process written on the pool gives.
    std::vector<const NodeFailureProcess*> processes;
    if (settings.failures)
        processes.push_back(&*settings.failures);
    for (const auto& f : settings.deviceModelFailures)
        processes.push_back(&f);
    const uint64_t nodeSeed = workload::mixSeed(workload::mixSeed(seed, kFailureStreamTag), nameHash(node));
    std::vector<workload::Rng> failureRngs;
    for (size_t i = 0; i < processes.size(); ++i)
        failureRngs.emplace_back(workload::mixSeed(nodeSeed, i == 0 ? 1 : 2 + i));
    workload::Rng spotRng(workload::mixSeed(nodeSeed, 2));
    constexpr SimTime kNever = std::numeric_limits<SimTime>::max() / 4;
    using Type = InjectedEvent::Type;
    using Origin = InjectedEvent::Origin;
    std::vector<SimTime> nextFailure(processes.size());
    SimTime nextReclaim = kNever;
    // Every clock restarts at a return: a repaired node counts as new (renewal), and a reclaim
    // is memoryless.
    auto drawClocks = [&] {
        for (size_t i = 0; i < processes.size(); ++i)
            nextFailure[i] = timeToFailure(*processes[i], failureRngs[i]);
        if (settings.spot)
            nextReclaim
                = atLeastOneMs(-3.6e6 / settings.spot->ratePerHour * std::log(spotRng.uniformOpen0()));
    };
    drawClocks();
    SimTime up = 0; // the node is up from here on
    while (true) {
        // The earliest hardware failure (the first process at equal times).
        size_t first = 0;
        for (size_t i = 1; i < processes.size(); ++i)
            if (nextFailure[i] < nextFailure[first])
                first = i;
        const SimTime failAt = up + (processes.empty() ? kNever : nextFailure[first]);
        const SimTime reclaimAt = up + nextReclaim;
        if (std::min(failAt, reclaimAt) > duration)
            break;
        SimTime back = 0;
        if (failAt <= reclaimAt) {
            out.push_back(nodeEvent(failAt, Type::NodeFailure, node, Origin::FailureProcess));
            back = failAt + downTime(processes[first]->repair, failureRngs[first]);
            out.push_back(nodeEvent(back, Type::NodeReturn, node, Origin::FailureProcess));
        } else {
            InjectedEvent cordon = nodeEvent(reclaimAt, Type::NodeTaint, node, Origin::SpotReclaim);
            cordon.taint.key = kSpotReclaimTaintKey;
            cordon.taint.effect = "NoSchedule";
            out.push_back(std::move(cordon));
            const SimTime goneAt = reclaimAt + settings.spot->notice;
            out.push_back(nodeEvent(goneAt, Type::NodeFailure, node, Origin::SpotReclaim));
            back = goneAt + downTime(settings.spot->replacement, spotRng);
            out.push_back(nodeEvent(back, Type::NodeReturn, node, Origin::SpotReclaim));
        }
        if (back > duration)
            break;
        up = back;
        drawClocks();
    }
    return out;
}

std::vector<InjectedEvent> drawFailureEvents(
    const std::vector<std::shared_ptr<const NodePool>>& pools, uint64_t seed, SimTime duration)
{
    std::vector<InjectedEvent> out;
    for (const auto& pool : pools) {
        if (!pool || !pool->failures.any())
            continue;
        for (const auto& n : pool->nodes) {
            std::vector<InjectedEvent> mine
                = drawNodeFailures(n.node.meta.name, pool->failures, seed, duration);
            out.insert(out.end(), std::make_move_iterator(mine.begin()), std::make_move_iterator(mine.end()));
        }
    }
    std::stable_sort(
        out.begin(), out.end(), [](const InjectedEvent& a, const InjectedEvent& b) { return a.at < b.at; });
    return out;
}

} // namespace drasim::sim

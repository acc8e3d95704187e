// SPDX-License-Identifier: Apache-2.0
#include "core/scheduler/scoring.h"

#include <algorithm>
#include <cmath>

namespace drasim::scheduler {

namespace {

int64_t leastRequested(int64_t requested, int64_t capacity)
{
    if (capacity == 0 || requested > capacity)
        return 0;
    return (capacity - requested) * kMaxNodeScore / capacity;
}

int64_t mostRequested(int64_t requested, int64_t capacity)
{
    if (capacity == 0)
        return 0;
    // Pods without requests count with default amounts, which may push past capacity.
    if (requested > capacity)
        requested = capacity;
    return requested * kMaxNodeScore / capacity;
}

// NodeResourcesBalancedAllocation for cpu and memory: 1 − |fcpu − fmem| / 2.
int64_t balanced(const NodeUsage& u, const PodRequests& pod)
{
    double fractions[2];
    int n = 0;
    const int64_t cap[2] = { u.allocatable.milliCpu, u.allocatable.memory };
    const int64_t req[2]
        = { u.requested.milliCpu + pod.requests.milliCpu, u.requested.memory + pod.requests.memory };
    for (int i = 0; i < 2; ++i) {
        if (cap[i] == 0)
            continue;
        double f = double(req[i]) / double(cap[i]);
        fractions[n++] = f > 1 ? 1 : f;
    }
    double sd = n == 2 ? std::fabs((fractions[0] - fractions[1]) / 2) : 0.0;
    return int64_t((1 - sd) * double(kMaxNodeScore));
}

/// Mean of one scorer over cpu and memory, as NodeResourcesFit weighs them by default (weight 1
/// each). A resource the node has none of is left out of the mean, not scored 0.
template <typename Scorer>
int64_t meanOverResources(Scorer scorer, int64_t cpu, int64_t mem, const NodeUsage& u)
{
    int64_t sum = 0, weights = 0;
    if (u.allocatable.milliCpu != 0) {
        sum += scorer(cpu, u.allocatable.milliCpu);
        ++weights;
    }
    if (u.allocatable.memory != 0) {
        sum += scorer(mem, u.allocatable.memory);
        ++weights;
    }
    return weights ? sum / weights : 0;
}

// helper.BuildBrokenLinearFunction (framework/plugins/helper/shape_score.go): the shape's
// score at utilization p, linear between points, flat before the first and after the last.
int64_t brokenLinear(const std::vector<FitScoring::ShapePoint>& shape, int64_t p)
{
    for (size_t i = 0; i < shape.size(); ++i) {
        if (p > shape[i].utilization)
            continue;
        if (i == 0)
            return shape[0].score;
        const auto& a = shape[i - 1];
        const auto& b = shape[i];
        return a.score + (b.score - a.score) * (p - a.utilization) / (b.utilization - a.utilization);
    }
    return shape.empty() ? 0 : shape.back().score;
}

// resourceAllocationScorer.calculateResourceAllocatableRequest (noderesources/
// resource_allocation.go): cpu and memory count the non-zero requests, or with useRequested
// (BalancedAllocation) the requests as stated; an extended resource the pod does not request, or
// the node does not have, is left out (allocatable 0).
void allocatableAndRequested(const std::string& name, const NodeUsage& u, const PodRequests& pod,
    int64_t& alloc, int64_t& requested, bool useRequested = false)
{
    alloc = requested = 0;
    if (name == "cpu") {
        alloc = u.allocatable.milliCpu;
        requested = useRequested ? u.requested.milliCpu + pod.requests.milliCpu
                                 : u.nonZeroMilliCpu + pod.nonZeroMilliCpu;
    } else if (name == "memory") {
        alloc = u.allocatable.memory;
        requested
            = useRequested ? u.requested.memory + pod.requests.memory : u.nonZeroMemory + pod.nonZeroMemory;
    } else if (name == "ephemeral-storage") {
        alloc = u.allocatable.ephemeralStorage;
        requested = u.requested.ephemeralStorage + pod.requests.ephemeralStorage;
    } else {
        const auto want = pod.requests.scalar.find(name);
        const auto have = u.allocatable.scalar.find(name);
        if (want == pod.requests.scalar.end() || want->second == 0 || have == u.allocatable.scalar.end())
            return;
        const auto used = u.requested.scalar.find(name);
        alloc = have->second;
        requested = (used == u.requested.scalar.end() ? 0 : used->second) + want->second;
    }
}

// NodeResourcesFit's Score with configured resources: the weighted mean of the strategy's
// per-resource score (least_allocated.go, most_allocated.go, requested_to_capacity_ratio.go).
int64_t weightedFitScore(
    const FitScoring& args, FitStrategy strategy, const NodeUsage& u, const PodRequests& pod)
{
    int64_t sum = 0, weights = 0;
    for (const auto& r : args.resources) {
        int64_t alloc = 0, requested = 0;
        allocatableAndRequested(r.name, u, pod, alloc, requested);
        if (alloc == 0)
            continue;
        int64_t score = 0;
        if (strategy == FitStrategy::LeastAllocated)
            score = leastRequested(requested, alloc);
        else if (strategy == FitStrategy::MostAllocated)
            score = mostRequested(requested, alloc);
        else {
            score = brokenLinear(args.shape, requested > alloc ? 100 : requested * 100 / alloc);
            // requestedToCapacityRatioScorer counts only resources that score above 0.
            if (score <= 0)
                continue;
        }
        sum += score * r.weight;
        weights += r.weight;
    }
    if (weights == 0)
        return 0;
    if (strategy == FitStrategy::RequestedToCapacityRatio) // rounds where the others truncate
        return int64_t(std::llround(double(sum) / double(weights)));
    return sum / weights;
}

/// What the pod requests of one resource, as stated.
int64_t podRequest(const std::string& name, const PodRequests& pod)
{
    if (name == "cpu")
        return pod.requests.milliCpu;
    if (name == "memory")
        return pod.requests.memory;
    if (name == "ephemeral-storage")
        return pod.requests.ephemeralStorage;
    const auto it = pod.requests.scalar.find(name);
    return it == pod.requests.scalar.end() ? 0 : it->second;
}

// NodeResourcesBalancedAllocation over configured resources (balanced_allocation.go,
// balancedResourceScorer): the standard deviation of the requested fractions of the resources the
// node has, each capped at 1; two fractions give |f1 − f2| / 2, one or none 0. PreScore skips a
// pod that requests none of the resources (a best-effort pod), which scores every node 0 here.
int64_t balancedOver(const FitScoring& args, const NodeUsage& u, const PodRequests& pod)
{
    if (std::all_of(args.resources.begin(), args.resources.end(),
            [&](const FitScoring::Resource& r) { return podRequest(r.name, pod) == 0; }))
        return 0;
    std::vector<double> fractions;
    double total = 0;
    for (const auto& r : args.resources) {
        int64_t alloc = 0, requested = 0;
        allocatableAndRequested(r.name, u, pod, alloc, requested, true);
        if (alloc == 0)
            continue;
        const double f = std::min(1.0, double(requested) / double(alloc));
        fractions.push_back(f);
        total += f;
    }
    double sd = 0;
    if (fractions.size() == 2) {
        sd = std::fabs((fractions[0] - fractions[1]) / 2);
    } else if (fractions.size() > 2) {
        const double mean = total / double(fractions.size());
        double sum = 0;
        for (double f : fractions)
            sum += (f - mean) * (f - mean);
        sd = std::sqrt(sum / double(fractions.size()));
    }
    return int64_t((1 - sd) * double(kMaxNodeScore));
}

// The terms that read the node's own resource counts. NodeResourcesFit counts containers without
// requests with the non-zero defaults; BalancedAllocation reads the requests as stated
// (useRequested upstream).
int64_t usageTermScore(const ScoreTerm& term, const NodeUsage& u, const PodRequests& pod)
{
    switch (term.plugin) {
    case ScorePlugin::NodeResourcesFit: {
        if (term.fit)
            return weightedFitScore(*term.fit, term.strategy, u, pod);
        const int64_t cpu = u.nonZeroMilliCpu + pod.nonZeroMilliCpu;
        const int64_t mem = u.nonZeroMemory + pod.nonZeroMemory;
        return term.strategy == FitStrategy::MostAllocated ? meanOverResources(mostRequested, cpu, mem, u)
                                                           : meanOverResources(leastRequested, cpu, mem, u);
    }
    case ScorePlugin::NodeResourcesBalancedAllocation:
        if (term.fit)
            return balancedOver(*term.fit, u, pod);
        // PreScore returns "skip" for pods that request neither cpu nor memory.
        return pod.requests.milliCpu == 0 && pod.requests.memory == 0 ? 0 : balanced(u, pod);
    case ScorePlugin::TaintToleration:
    case ScorePlugin::NodeAffinity:
    case ScorePlugin::DynamicResources:
    case ScorePlugin::PodTopologySpread:
    case ScorePlugin::InterPodAffinity:
    case ScorePlugin::GpuShare:
        break;
    }
    return 0;
}

} // namespace

int64_t rawScore(const ScoreTerm& term, const ScoreInputs& in)
{
    switch (term.plugin) {
    case ScorePlugin::NodeResourcesFit:
    case ScorePlugin::NodeResourcesBalancedAllocation:
        return usageTermScore(term, *in.usage, *in.req);
    case ScorePlugin::TaintToleration:
        return intolerablePreferNoSchedule(*in.pod, *in.node);
    case ScorePlugin::NodeAffinity:
        return preferredAffinityScore(*in.pod, *in.node);
    case ScorePlugin::DynamicResources:
        return in.prioritizedList;
    case ScorePlugin::PodTopologySpread:
        return in.spreadScore;
    case ScorePlugin::InterPodAffinity:
        return in.interPodScore;
    case ScorePlugin::GpuShare: {
        static const std::vector<gpushare::TypicalPod> kNone;
        if (in.claimScore >= 0)
            return in.claimScore;
        if (!in.shareNode || !in.sharePod)
            return 0;
        const auto& typical = in.typical ? *in.typical : kNone;
        return in.shareCache ? in.shareCache->score(term.share, *in.shareNode, *in.sharePod, typical)
                             : gpushare::shareScore(term.share, *in.shareNode, *in.sharePod, typical);
    }
    }
    return 0;
}

int64_t usageScore(const ScoringProfile& profile, const NodeUsage& usage, const PodRequests& pod)
{
    int64_t sum = 0;
    for (const auto& t : profile.terms)
        if (t.dependsOn == ScoreInput::NodeUsage)
            sum += t.weight * usageTermScore(t, usage, pod);
    return sum;
}

std::vector<int64_t> scoreNodes(const ScoringProfile& profile, const std::vector<ScoreInputs>& nodes)
{
    std::vector<int64_t> total(nodes.size(), 0), raw(nodes.size());
    for (const auto& t : profile.terms) {
        if (t.weight == 0)
            continue;
        int64_t max = 0;
        for (size_t i = 0; i < nodes.size(); ++i) {
            raw[i] = rawScore(t, nodes[i]);
            max = std::max(max, raw[i]);
        }
        for (size_t i = 0; i < nodes.size(); ++i)
            total[i] += t.weight * normalizeScore(raw[i], max, t.normalization);
    }
    return total;
}

int64_t normalizeScore(int64_t raw, int64_t max, Normalization how)
{
    if (how == Normalization::None)
        return raw;
    const bool reverse = how == Normalization::LowestIs100;
    if (max == 0)
        return reverse ? kMaxNodeScore : 0;
    int64_t s = raw * kMaxNodeScore / max;
    return reverse ? kMaxNodeScore - s : s;
}

} // namespace drasim::scheduler

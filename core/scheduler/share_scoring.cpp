// SPDX-License-Identifier: Apache-2.0
#include "core/scheduler/share_scoring.h"

#include <algorithm>
#include <numeric>

#include "core/workload/rng.h"

namespace drasim::scheduler {

namespace {

// A std::string: the capacity maps are keyed by std::string, and a find() with a literal would
// build a temporary string for every device of every node scored.
const std::string kGpuMilli = "gpuMilli";
constexpr int kMiBShift = 20;

uint64_t hashOf(const std::string& text)
{
    uint64_t h = 1469598103934665603ull; // FNV-1a
    for (unsigned char c : text) {
        h ^= c;
        h *= 1099511628211ull;
    }
    return h;
}

// The node order of TieBreak::SeededOrder: by name (the nodes are sorted so), then shuffled with
// the seed's stream exactly as fragstudy::nodeOrder does, so both pick the same node on ties.
std::vector<uint32_t> seededRanks(size_t nodes, uint64_t seed)
{
    std::vector<uint32_t> order(nodes);
    std::iota(order.begin(), order.end(), 0u);
    workload::Rng rng(seed);
    workload::shuffle(order, rng);
    std::vector<uint32_t> rank(nodes);
    for (uint32_t k = 0; k < order.size(); ++k)
        rank[order[k]] = k;
    return rank;
}

} // namespace

void Cluster::Impl::NodeChoice::addClaimGpus(const api::ResourceClaim& claim, gpushare::SharePod& pod)
{
    for (const api::DeviceRequest& r : claim.spec.requests) {
        const api::DeviceRequestSpec* spec = r.exactly ? &*r.exactly
            : r.firstAvailable.empty()                 ? nullptr
                                                       : &r.firstAvailable.front().spec;
        if (!spec || spec->allocationMode != "ExactCount")
            continue;
        int64_t milli = gpushare::kMilliPerGpu;
        if (spec->capacity)
            if (auto it = spec->capacity->requests.find(kGpuMilli); it != spec->capacity->requests.end())
                milli = it->second.value();
        pod.gpuCount += int32_t(spec->count);
        pod.gpuMilli = int32_t(std::clamp<int64_t>(milli, 0, gpushare::kMilliPerGpu));
    }
}

gpushare::SharePod Cluster::Impl::NodeChoice::sharePod(const Cycle& cycle)
{
    gpushare::SharePod pod;
    pod.cpuMilli = cycle.req.requests.milliCpu;
    pod.memoryMiB = cycle.req.requests.memory >> kMiBShift;
    for (const ClaimState* c : cycle.toAllocate)
        addClaimGpus(c->claim, pod);
    return pod;
}

const api::Device* Cluster::Impl::NodeChoice::gpuFree(Impl& d, uint32_t idx, std::vector<int32_t>& free)
{
    free.clear();
    const api::Device* first = nullptr;
    for (const allocator::NodePool& pool : d.viewOf(idx).pools)
        for (const allocator::DeviceEntry& e : pool.devices) {
            auto cap = e.device->capacity.find(kGpuMilli);
            if (cap == e.device->capacity.end())
                continue;
            const int64_t total = cap->second.value.value();
            int64_t used = 0;
            if (d.state.dedicated(e.id)) {
                used = total;
            } else if (const auto* consumed = d.state.consumed(e.id)) {
                if (auto it = consumed->find(kGpuMilli); it != consumed->end())
                    used = it->second.value();
            }
            free.push_back(int32_t(std::clamp<int64_t>(total - used, 0, total)));
            if (!first)
                first = e.device;
        }
    return first;
}

gpushare::ShareNode Cluster::Impl::NodeChoice::shareNode(Impl& d, uint32_t idx, bool withTags)
{
    const NodeUsage& u = d.nodes[idx].usage;
    gpushare::ShareNode node;
    node.cpuFreeMilli = u.allocatable.milliCpu - u.requested.milliCpu;
    node.memoryFreeMiB = (u.allocatable.memory - u.requested.memory) >> kMiBShift;
    const gpushare::ModelTable* models = d.options.shareTarget ? &d.options.shareTarget->models : nullptr;
    if (const api::Device* gpu = gpuFree(d, idx, node.gpuFreeMilli); gpu && models) {
        static const std::string kModel = "model";
        if (auto model = gpu->attributes.find(kModel); model != gpu->attributes.end())
            node.model = models->find(model->second.stringValue);
    }
    if (withTags)
        for (const PodState* ps : d.podsOnNode[idx]) {
            gpushare::SharePod bound;
            for (const std::string& key : ps->pub.claims)
                if (const ClaimState* c = d.findClaim(key))
                    addClaimGpus(c->claim, bound);
            node.gpuTags |= bound.clusteringTag();
        }
    return node;
}

void Cluster::Impl::NodeChoice::fillShareInputs(Impl& d, const Cycle& cycle, gpushare::SharePolicy policy,
    const std::vector<uint32_t>& feasible, ShareViews& views, std::vector<ScoreInputs>& inputs)
{
    views.pod = sharePod(cycle);
    views.nodes.clear();
    views.nodes.reserve(feasible.size());
    const bool tags = policy == gpushare::SharePolicy::GpuClustering;
    for (uint32_t idx : feasible)
        views.nodes.push_back(shareNode(d, idx, tags));
    const std::vector<gpushare::TypicalPod>* typical
        = d.options.shareTarget ? &d.options.shareTarget->typical : nullptr;
    for (size_t i = 0; i < inputs.size(); ++i) {
        inputs[i].shareNode = &views.nodes[i];
        inputs[i].sharePod = &views.pod;
        inputs[i].typical = typical;
        inputs[i].shareCache = &d.shareScores;
    }
}

std::optional<gpushare::ClusterFragment> Cluster::gpuShareFragmentation()
{
    Impl& d = *m_impl;
    if (!d.options.shareTarget)
        return std::nullopt;
    gpushare::ClusterFragment total;
    d.shareFragmentSlots.resize(d.nodes.size());
    std::vector<int32_t> free;
    for (uint32_t idx = 0; idx < d.nodes.size(); ++idx) {
        // Only the free cpu and GPUs change a node's fragment (its model does not): a node as it
        // was at the last sample keeps its value.
        if (!Impl::NodeChoice::gpuFree(d, idx, free))
            continue;
        const NodeUsage& u = d.nodes[idx].usage;
        Impl::ShareFragmentSlot& slot = d.shareFragmentSlots[idx];
        if (slot.fragment < 0 || slot.node.cpuFreeMilli != u.allocatable.milliCpu - u.requested.milliCpu
            || slot.node.gpuFreeMilli != free) {
            slot.node = Impl::NodeChoice::shareNode(d, idx, false);
            slot.fragment = gpushare::nodeFragment(slot.node, d.options.shareTarget->typical);
        }
        total.capacityMilli += int64_t(free.size()) * gpushare::kMilliPerGpu;
        total.freeMilli += slot.node.gpuFreeTotal();
        total.fragmentMilli += slot.fragment;
    }
    if (total.capacityMilli == 0)
        return std::nullopt;
    return total;
}

size_t Cluster::Impl::NodeChoice::pick(
    Impl& d, const Cycle& cycle, const std::vector<uint32_t>& feasible, const std::vector<int64_t>& scores)
{
    if (cycle.profile->scoring.policy == ScoringPolicy::Random) {
        // random_score.go's PreScore draws one feasible node. Drawn from the seed and the pod's
        // key, so a retry of the pod on the same nodes draws the same one.
        workload::Rng rng(workload::mixSeed(d.options.seed, hashOf(cycle.podKey)));
        return size_t(rng.below(feasible.size()));
    }
    const int64_t top = *std::max_element(scores.begin(), scores.end());
    if (d.options.tieBreak == TieBreak::NodeName) // feasible is in name order
        return size_t(std::find(scores.begin(), scores.end(), top) - scores.begin());
    if (d.seededRank.size() != d.nodes.size())
        d.seededRank = seededRanks(d.nodes.size(), d.options.seed);
    size_t best = scores.size();
    for (size_t i = 0; i < scores.size(); ++i)
        if (scores[i] == top
            && (best == scores.size() || d.seededRank[feasible[i]] < d.seededRank[feasible[best]]))
            best = i;
    return best;
}

} // namespace drasim::scheduler

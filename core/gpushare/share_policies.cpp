// SPDX-License-Identifier: Apache-2.0
#include "core/gpushare/share_policies.h"

#include <algorithm>
#include <cmath>

namespace drasim::gpushare {

namespace {

constexpr int64_t kMaxScore = 100;

// The GPUs a whole-GPU pod takes: the lowest-index fully free ones (AllocateExclusiveGpuId).
std::vector<int> lowestFreeGpus(const ShareNode& node, int32_t count)
{
    std::vector<int> gpus;
    for (size_t i = 0; i < node.gpuFreeMilli.size() && int32_t(gpus.size()) < count; ++i)
        if (node.gpuFreeMilli[i] == kMilliPerGpu)
            gpus.push_back(int(i));
    return gpus;
}

// Tetris's dot product (dot_product_score.go with dimExt "merge" and norm "max"): the node's free
// [cpu, total GPU] and the pod's request, each over the largest node's capacity; a smaller
// product is a tighter fit and scores higher.
int64_t dotProductScore(const ShareNode& node, const SharePod& pod)
{
    const double nodeVec[2] = { double(node.cpuFreeMilli) / double(kMaxSpecCpuMilli),
        double(node.gpuFreeTotal()) / double(kMaxSpecGpuMilli) };
    const double podVec[2] = { double(pod.cpuMilli) / double(kMaxSpecCpuMilli),
        double(pod.gpuMilliTotal()) / double(kMaxSpecGpuMilli) };
    double product = nodeVec[0] * podVec[0] + nodeVec[1] * podVec[1];
    product /= 2;
    return int64_t(double(kMaxScore) * (1 - product));
}

// best_fit_score.go: the weighted leftover (cpu and GPU, half each) over the largest node's
// capacity, reversed. Its NormalizeScore stretches the feasible nodes' scores to 0..100, which
// keeps their order and their ties (raw scores span at most 100), so it is left out.
int64_t bestFitScore(const ShareNode& node, const SharePod& pod)
{
    double leftover = 0;
    leftover += double(node.cpuFreeMilli - pod.cpuMilli) / double(kMaxSpecCpuMilli) * 0.5;
    leftover += double(node.gpuFreeTotal() - pod.gpuMilliTotal()) / double(kMaxSpecGpuMilli) * 0.5;
    return int64_t((1.0 - leftover) * double(kMaxScore));
}

// gpu_packing_score.go, highest first: only shared GPUs used (100 − their free percent / 10,
// at least 50); fully free GPUs of a used node (50 − how many, at least 33); an idle node
// (33 − its GPUs, at least its GPUs).
int64_t gpuPackingScore(const ShareNode& node, const SharePod& pod)
{
    if (pod.gpuMilli <= 0)
        return 0;
    const int fullyFree = node.fullyFreeGpus();
    if (fullyFree == int(node.gpuFreeMilli.size()))
        return std::max<int64_t>(kMaxScore / 3 - fullyFree, fullyFree);
    std::vector<int> order(node.gpuFreeMilli.size());
    for (size_t i = 0; i < order.size(); ++i)
        order[i] = int(i);
    std::stable_sort(order.begin(), order.end(),
        [&](int a, int b) { return node.gpuFreeMilli[size_t(a)] < node.gpuFreeMilli[size_t(b)]; });
    int32_t needed = pod.gpuCount;
    int fullyFreeUsed = 0;
    int64_t freePercentUsed = 0;
    for (int gpu : order) {
        if (needed == 0)
            break;
        const int32_t free = node.gpuFreeMilli[size_t(gpu)];
        if (pod.gpuMilli <= free) {
            --needed;
            fullyFreeUsed += free == kMilliPerGpu ? 1 : 0;
            freePercentUsed += int64_t(free) * 100 / kMilliPerGpu;
        }
    }
    if (needed != 0)
        return 0;
    if (fullyFreeUsed > 0)
        return std::max<int64_t>(kMaxScore / 2 - fullyFreeUsed, kMaxScore / 3);
    return std::max<int64_t>(kMaxScore - freePercentUsed / 10, kMaxScore / 2);
}

// gpu_clustering_score.go: nodes holding only pods of the same kind first, then mixed nodes with
// that kind, then idle nodes, then nodes of other kinds; within each band, fuller nodes first.
int64_t gpuClusteringScore(const ShareNode& node, const SharePod& pod)
{
    const uint32_t tag = pod.clusteringTag();
    if (tag == 0)
        return 0;
    const int64_t fullness = kMaxScore / 4 * (kMaxSpecGpuMilli - node.gpuFreeTotal()) / kMaxSpecGpuMilli;
    if ((node.gpuTags & tag) != 0)
        return fullness + (node.gpuTags == tag ? kMaxScore * 3 / 4 : kMaxScore * 2 / 4);
    return fullness + (node.gpuTags == 0 ? kMaxScore / 4 : 0);
}

// FGD's best GPU for a sharing pod and its score: the first GPU with the highest score.
std::pair<int64_t, int> fgdBestGpu(
    const ShareNode& node, const SharePod& pod, const std::vector<TypicalPod>& typical, double fragment)
{
    int64_t best = 0;
    int bestGpu = -1;
    for (size_t i = 0; i < node.gpuFreeMilli.size(); ++i) {
        if (node.gpuFreeMilli[i] < pod.gpuMilli)
            continue;
        const int64_t score = fgdPlacementScore(node, pod, int(i), typical, fragment);
        if (bestGpu < 0 || score > best) {
            best = score;
            bestGpu = int(i);
        }
    }
    return { best, bestGpu };
}

} // namespace

const std::vector<SharePolicyInfo>& sharePolicies()
{
    static const std::vector<SharePolicyInfo> policies {
        { SharePolicy::Fgd, "fgd", GpuChoice::Fgd, "fragmentation gradient descent" },
        { SharePolicy::BestFit, "best-fit", GpuChoice::Best, "least cpu and GPU left over" },
        { SharePolicy::DotProduct, "dot-product", GpuChoice::Best, "Tetris: free resources x request" },
        { SharePolicy::GpuPacking, "gpu-packing", GpuChoice::Best, "shared GPUs, then used nodes" },
        { SharePolicy::GpuClustering, "gpu-clustering", GpuChoice::Best, "pods of a kind together" },
        { SharePolicy::Random, "random", GpuChoice::Random, "a random feasible node" },
    };
    return policies;
}

const SharePolicyInfo& sharePolicyInfo(SharePolicy policy)
{
    return sharePolicies()[size_t(policy)];
}

std::optional<SharePolicy> parseSharePolicy(std::string_view name)
{
    for (const SharePolicyInfo& info : sharePolicies())
        if (name == info.name)
            return info.policy;
    return std::nullopt;
}

int64_t fgdPlacementScore(const ShareNode& node, const SharePod& pod, int gpu,
    const std::vector<TypicalPod>& typical, double fragmentBefore)
{
    ShareNode after = node;
    after.cpuFreeMilli -= pod.cpuMilli;
    if (gpu >= 0)
        after.gpuFreeMilli[size_t(gpu)] -= pod.gpuMilli;
    else
        for (int whole : lowestFreeGpus(node, pod.gpuMilli > 0 ? pod.gpuCount : 0))
            after.gpuFreeMilli[size_t(whole)] = 0;
    const double drop = (fragmentBefore - nodeFragment(after, typical)) / 1000.0;
    return int64_t(1.0 / (1.0 + std::exp(-drop)) * double(kMaxScore));
}

int64_t shareScore(SharePolicy policy, const ShareNode& node, const SharePod& pod,
    const std::vector<TypicalPod>& typical, std::optional<double> fragment)
{
    switch (policy) {
    case SharePolicy::Fgd: {
        const double before = fragment ? *fragment : nodeFragment(node, typical);
        if (pod.sharesGpu())
            return fgdBestGpu(node, pod, typical, before).first;
        return fgdPlacementScore(node, pod, -1, typical, before);
    }
    case SharePolicy::BestFit:
        return bestFitScore(node, pod);
    case SharePolicy::DotProduct:
        return dotProductScore(node, pod);
    case SharePolicy::GpuPacking:
        return gpuPackingScore(node, pod);
    case SharePolicy::GpuClustering:
        return gpuClusteringScore(node, pod);
    case SharePolicy::Random:
        break;
    }
    return 0;
}

std::vector<int> chooseGpus(GpuChoice choice, const ShareNode& node, const SharePod& pod,
    const std::vector<TypicalPod>& typical, const DrawBelow& draw)
{
    if (pod.gpuCount == 0 || pod.gpuMilli == 0)
        return {};
    if (!pod.sharesGpu())
        return lowestFreeGpus(node, pod.gpuCount);
    std::vector<int> feasible;
    for (size_t i = 0; i < node.gpuFreeMilli.size(); ++i)
        if (node.gpuFreeMilli[i] >= pod.gpuMilli)
            feasible.push_back(int(i));
    if (feasible.empty())
        return {};
    switch (choice) {
    case GpuChoice::Best:
        return { *std::min_element(feasible.begin(), feasible.end(),
            [&](int a, int b) { return node.gpuFreeMilli[size_t(a)] < node.gpuFreeMilli[size_t(b)]; }) };
    case GpuChoice::Random:
        return { feasible[size_t(draw(feasible.size()))] };
    case GpuChoice::Fgd:
        return { fgdBestGpu(node, pod, typical, nodeFragment(node, typical)).second };
    case GpuChoice::FirstFit:
        return { feasible.front() };
    }
    return {};
}

namespace {
constexpr std::pair<GpuChoice, const char*> kChoiceNames[] = { { GpuChoice::Best, "best" },
    { GpuChoice::Random, "random" }, { GpuChoice::Fgd, "fgd" }, { GpuChoice::FirstFit, "first-fit" } };
} // namespace

const char* gpuChoiceName(GpuChoice choice)
{
    for (const auto& [c, name] : kChoiceNames)
        if (c == choice)
            return name;
    return "";
}

std::optional<GpuChoice> parseGpuChoice(std::string_view name)
{
    for (const auto& [c, n] : kChoiceNames)
        if (name == n)
            return c;
    return std::nullopt;
}

} // namespace drasim::gpushare

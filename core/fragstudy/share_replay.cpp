// SPDX-License-Identifier: Apache-2.0
#include "core/fragstudy/share_replay.h"

#include <map>
#include <numeric>
#include <tuple>

namespace drasim::fragstudy {

namespace {

using gpushare::ShareNode;
using gpushare::SharePod;

constexpr int16_t kUnknown = -1;
constexpr int16_t kInfeasible = -2;

// Pods of one shape (cpu, GPU milli, GPU count, models) score alike on a node; memory only
// filters, so it is checked apart.
std::vector<uint32_t> shapeIds(const std::vector<SharePod>& pods, size_t& shapeCount)
{
    std::map<std::tuple<int64_t, int32_t, int32_t, uint64_t>, uint32_t> ids;
    std::vector<uint32_t> out(pods.size());
    for (size_t i = 0; i < pods.size(); ++i) {
        const SharePod& p = pods[i];
        out[i] = ids.try_emplace({ p.cpuMilli, p.gpuMilli, p.gpuCount, p.models }, uint32_t(ids.size()))
                     .first->second;
    }
    shapeCount = ids.size();
    return out;
}

class Replay
{
public:
    Replay(const StudyInput& input, const ReplayOptions& options)
        : m_input(input)
        , m_options(options)
        , m_choice(options.gpuChoice.value_or(gpushare::sharePolicyInfo(options.policy).gpuChoice))
        , m_rng(options.seed)
        , m_nodes(input.nodes)
    {
        m_typical = gpushare::typicalPods(input.pods, options.popularityPercent);
        m_shapeOf = shapeIds(input.pods, m_shapeCount);
        m_scores.assign(m_nodes.size() * m_shapeCount, kUnknown);
        m_fragment.resize(m_nodes.size());
        for (size_t n = 0; n < m_nodes.size(); ++n) {
            m_fragment[n] = gpushare::nodeFragment(m_nodes[n], m_typical);
            m_clusterFragment += m_fragment[n];
        }
    }

    ReplayResult run()
    {
        const std::vector<uint32_t> order = arrivalOrder(
            m_input.pods, m_input.podNames, m_input.gpuCapacityMilli, m_options.inflation, m_rng);
        m_visit = nodeOrder(m_input.nodeNames, m_options.tieBreak, m_rng);
        ReplayResult result;
        result.nodeOrder = m_visit;
        result.typical = m_typical;
        result.points.reserve(order.size());
        int64_t arrived = 0, allocated = 0;
        for (uint32_t podIndex : order) {
            const SharePod& pod = m_input.pods[podIndex];
            arrived += pod.gpuMilliTotal();
            const int node = m_options.policy == gpushare::SharePolicy::Random ? drawFeasible(podIndex)
                                                                               : bestNode(podIndex);
            Placement placement { podIndex, node, {} };
            if (node >= 0) {
                placement.gpus = place(size_t(node), pod);
                allocated += pod.gpuMilliTotal();
            } else {
                ++result.dropped;
            }
            result.points.push_back({ arrived, allocated, m_clusterFragment });
            if (m_options.keepPlacements)
                result.placements.push_back(std::move(placement));
        }
        return result;
    }

private:
    // The cached score of a node for a pod: kInfeasible when cpu, model or GPUs do not fit.
    int16_t score(size_t node, uint32_t podIndex)
    {
        const SharePod& pod = m_input.pods[podIndex];
        if (m_nodes[node].memoryFreeMiB < pod.memoryMiB)
            return kInfeasible;
        int16_t& cell = m_scores[node * m_shapeCount + m_shapeOf[podIndex]];
        if (cell == kUnknown) {
            SharePod shape = pod;
            shape.memoryMiB = 0;
            cell = gpushare::fits(m_nodes[node], shape) ? int16_t(gpushare::shareScore(
                       m_options.policy, m_nodes[node], pod, m_typical, m_fragment[node]))
                                                        : kInfeasible;
        }
        return cell;
    }

    int bestNode(uint32_t podIndex)
    {
        int best = -1;
        int16_t bestScore = -1;
        uint64_t ties = 0;
        for (int node : m_visit) {
            const int16_t s = score(size_t(node), podIndex);
            if (s < 0 || s < bestScore)
                continue;
            if (s > bestScore) {
                best = node;
                bestScore = s;
                ties = 1;
            } else if (m_options.tieBreak == TieBreak::Random && m_rng.below(++ties) == 0) {
                best = node; // reservoir sampling, as selectHost
            }
        }
        return best;
    }

    // Random: PreScore draws one feasible node uniformly (random_score.go).
    int drawFeasible(uint32_t podIndex)
    {
        m_feasible.clear();
        for (int node : m_visit)
            if (score(size_t(node), podIndex) >= 0)
                m_feasible.push_back(node);
        return m_feasible.empty() ? -1 : m_feasible[size_t(m_rng.below(m_feasible.size()))];
    }

    std::vector<int> place(size_t node, const SharePod& pod)
    {
        const gpushare::DrawBelow draw = [this](uint64_t n) { return m_rng.below(n); };
        std::vector<int> gpus = gpushare::chooseGpus(m_choice, m_nodes[node], pod, m_typical, draw);
        gpushare::place(m_nodes[node], pod, gpus);
        std::fill_n(m_scores.begin() + std::ptrdiff_t(node * m_shapeCount), m_shapeCount, kUnknown);
        m_clusterFragment -= m_fragment[node];
        m_fragment[node] = gpushare::nodeFragment(m_nodes[node], m_typical);
        m_clusterFragment += m_fragment[node];
        return gpus;
    }

    const StudyInput& m_input;
    const ReplayOptions& m_options;
    gpushare::GpuChoice m_choice;
    workload::Rng m_rng;
    std::vector<ShareNode> m_nodes;
    std::vector<gpushare::TypicalPod> m_typical;
    std::vector<uint32_t> m_shapeOf;
    size_t m_shapeCount = 0;
    std::vector<int16_t> m_scores; ///< node × shape
    std::vector<double> m_fragment; ///< per node
    double m_clusterFragment = 0;
    std::vector<int> m_visit;
    std::vector<int> m_feasible;
};

} // namespace

std::vector<int> nodeOrder(const std::vector<std::string>& names, TieBreak tieBreak, workload::Rng& rng)
{
    std::vector<int> order(names.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(
        order.begin(), order.end(), [&](int a, int b) { return names[size_t(a)] < names[size_t(b)]; });
    if (tieBreak == TieBreak::SeededOrder)
        workload::shuffle(order, rng);
    return order;
}

const char* tieBreakName(TieBreak tieBreak)
{
    return tieBreak == TieBreak::SeededOrder ? "seeded-order" : "random";
}

std::optional<TieBreak> parseTieBreak(const std::string& name)
{
    if (name == "seeded-order")
        return TieBreak::SeededOrder;
    if (name == "random")
        return TieBreak::Random;
    return std::nullopt;
}

ReplayResult replay(const StudyInput& input, const ReplayOptions& options)
{
    return Replay(input, options).run();
}

} // namespace drasim::fragstudy

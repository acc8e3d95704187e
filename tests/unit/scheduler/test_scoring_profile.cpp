// SPDX-License-Identifier: Apache-2.0
// The scoring profiles of scoring_profile.h: each named policy scores random feasible nodes exactly
// as the scheduler did before scores became profiles (the old formula is kept below as the
// oracle), the score-order fast path is allowed exactly when it was, never for a term that reads
// device state, and policy names are read and refused in one wording.
// Seeded: DRASIM_SCORING_SEED (first case), DRASIM_SCORING_CASES (how many).
#include <cmath>
#include <cstdlib>
#include <random>

#include <gtest/gtest.h>

#include "core/scheduler/scoring.h"
#include "tests/unit/env_number.h"

namespace drasim::scheduler {
namespace {

// ---- The scores as the scheduler computed them before profiles (the oracle) ----------------

int64_t oldLeast(int64_t requested, int64_t capacity)
{
    if (capacity == 0 || requested > capacity)
        return 0;
    return (capacity - requested) * 100 / capacity;
}

int64_t oldMost(int64_t requested, int64_t capacity)
{
    if (capacity == 0)
        return 0;
    return std::min(requested, capacity) * 100 / capacity;
}

int64_t oldMean(int64_t (*scorer)(int64_t, int64_t), int64_t cpu, int64_t mem, const NodeUsage& u)
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

int64_t oldBalanced(const NodeUsage& u, const PodRequests& pod)
{
    double f[2];
    int n = 0;
    const int64_t cap[2] = { u.allocatable.milliCpu, u.allocatable.memory };
    const int64_t req[2]
        = { u.requested.milliCpu + pod.requests.milliCpu, u.requested.memory + pod.requests.memory };
    for (int i = 0; i < 2; ++i)
        if (cap[i] != 0)
            f[n++] = std::min(1.0, double(req[i]) / double(cap[i]));
    return int64_t((1 - (n == 2 ? std::fabs((f[0] - f[1]) / 2) : 0.0)) * 100.0);
}

int64_t oldResourceScore(ScoringPolicy policy, const NodeUsage& u, const PodRequests& pod)
{
    const int64_t cpu = u.nonZeroMilliCpu + pod.nonZeroMilliCpu;
    const int64_t mem = u.nonZeroMemory + pod.nonZeroMemory;
    if (policy == ScoringPolicy::MostAllocated)
        return oldMean(oldMost, cpu, mem, u);
    const int64_t fit = oldMean(oldLeast, cpu, mem, u);
    if (policy == ScoringPolicy::LeastAllocated)
        return fit;
    const bool skip = pod.requests.milliCpu == 0 && pod.requests.memory == 0;
    return fit + (skip ? 0 : oldBalanced(u, pod));
}

int64_t oldNormalize(int64_t raw, int64_t max, bool reverse)
{
    if (max == 0)
        return reverse ? 100 : 0;
    const int64_t s = raw * 100 / max;
    return reverse ? 100 - s : s;
}

std::vector<int64_t> oldScores(ScoringPolicy policy, const std::vector<ScoreInputs>& nodes)
{
    int64_t maxTaint = 0, maxAff = 0, maxDra = 0;
    for (const auto& n : nodes) {
        maxTaint = std::max(maxTaint, intolerablePreferNoSchedule(*n.pod, *n.node));
        maxAff = std::max(maxAff, preferredAffinityScore(*n.pod, *n.node));
        maxDra = std::max(maxDra, n.prioritizedList);
    }
    std::vector<int64_t> out;
    for (const auto& n : nodes)
        out.push_back(oldResourceScore(policy, *n.usage, *n.req)
            + 3 * oldNormalize(intolerablePreferNoSchedule(*n.pod, *n.node), maxTaint, true)
            + 2 * oldNormalize(preferredAffinityScore(*n.pod, *n.node), maxAff, false)
            + oldNormalize(n.prioritizedList, maxDra, false));
    return out;
}

// ---- Random feasible nodes ------------------------------------------------------------------

using drasim::test_support::envNumber;

/// One cycle's pod and feasible nodes, with everything the terms read.
struct RandomCycle
{
    api::Pod pod;
    PodRequests req;
    std::vector<api::Node> nodes;
    std::vector<NodeUsage> usage;
    std::vector<int64_t> plist;

    explicit RandomCycle(std::mt19937_64& rng)
    {
        auto upTo = [&](int64_t n) { return int64_t(rng() % uint64_t(n + 1)); };
        req.requests.milliCpu = rng() % 4 ? upTo(8000) : 0;
        req.requests.memory = rng() % 4 ? upTo(int64_t(16) << 30) : 0;
        req.nonZeroMilliCpu = req.requests.milliCpu ? req.requests.milliCpu : 100;
        req.nonZeroMemory = req.requests.memory ? req.requests.memory : kDefaultMemoryRequest;
        if (rng() % 2) {
            pod.spec.nodeAffinity.emplace();
            for (const char* zone : { "a", "b", "c" })
                pod.spec.nodeAffinity->preferred.push_back(
                    { int32_t(1 + upTo(99)), { { { "zone", "In", { zone } } }, {} } });
        }
        if (rng() % 2)
            pod.spec.tolerations.push_back({ "soft-0", "Exists", "", "PreferNoSchedule", std::nullopt });
        for (int64_t i = 0, n = 1 + upTo(11); i < n; ++i)
            addNode(rng, upTo);
    }

    template <typename UpTo> void addNode(std::mt19937_64& rng, UpTo upTo)
    {
        api::Node node;
        node.meta.name = "node-" + std::to_string(nodes.size());
        node.meta.labels["zone"] = std::string(1, char('a' + rng() % 4));
        for (int64_t t = 0, n = upTo(3); t < n; ++t)
            node.taints.push_back({ "soft-" + std::to_string(t), "", "PreferNoSchedule", "" });
        NodeUsage u;
        u.allocatable.milliCpu = rng() % 8 ? 1 + upTo(64000) : 0;
        u.allocatable.memory = rng() % 8 ? 1 + upTo(int64_t(256) << 30) : 0;
        u.requested.milliCpu = upTo(u.allocatable.milliCpu + 2000);
        u.requested.memory = upTo(u.allocatable.memory + (int64_t(1) << 30));
        u.nonZeroMilliCpu = u.requested.milliCpu + 100 * upTo(3);
        u.nonZeroMemory = u.requested.memory + kDefaultMemoryRequest * upTo(3);
        nodes.push_back(std::move(node));
        usage.push_back(u);
        plist.push_back(rng() % 3 ? upTo(16) : 0);
    }

    std::vector<ScoreInputs> inputs() const
    {
        std::vector<ScoreInputs> in;
        for (size_t i = 0; i < nodes.size(); ++i)
            in.push_back({ &pod, &req, &nodes[i], &usage[i], plist[i] });
        return in;
    }
};

class ScoringProfiles : public ::testing::Test
{
protected:
    uint64_t m_first = envNumber("DRASIM_SCORING_SEED", 20261204);
    uint64_t m_cases = envNumber("DRASIM_SCORING_CASES", 3000);
};

TEST_F(ScoringProfiles, ScoreRandomNodesAsTheOldFormula)
{
    int failures = 0;
    for (uint64_t seed = m_first; seed < m_first + m_cases && failures < 5; ++seed) {
        std::mt19937_64 rng(seed);
        const RandomCycle cycle(rng);
        const auto inputs = cycle.inputs();
        for (const auto& profile : scoringProfiles()) {
            if (sharePolicyOf(profile))
                continue; // the GPU-sharing profiles have no old formula (test_share_policies.cpp)
            const auto got = scoreNodes(profile, inputs);
            const auto want = oldScores(profile.policy, inputs);
            if (got != want) {
                ADD_FAILURE() << profile.name << " scores differ from the old formula\n  reproduce: "
                              << "DRASIM_SCORING_SEED=" << seed << " DRASIM_SCORING_CASES=1";
                ++failures;
            }
            for (size_t i = 0; i < inputs.size(); ++i)
                if (usageScore(profile, cycle.usage[i], cycle.req)
                    != oldResourceScore(profile.policy, cycle.usage[i], cycle.req)) {
                    ADD_FAILURE() << profile.name << " node usage score differs, node " << i
                                  << "\n  reproduce: DRASIM_SCORING_SEED=" << seed
                                  << " DRASIM_SCORING_CASES=1";
                    ++failures;
                }
        }
    }
}

TEST(ScoringProfile, TodaysProfilesTakeTheFastPathExactlyAsBefore)
{
    for (const auto& profile : scoringProfiles())
        for (int bits = 0; bits < 8; ++bits) {
            ScoreSpread s;
            s.preferNoScheduleTaints = bits & 1;
            s.preferredAffinity = bits & 2;
            s.deviceChoice = bits & 4;
            // Before profiles: no PreferNoSchedule node, no preferred terms, no firstAvailable. The
            // GPU-sharing profiles read the node's devices, so they score every node.
            const bool fast = bits == 0 && !sharePolicyOf(profile);
            EXPECT_EQ(scoresFollowNodeUsage(profile, s), fast) << profile.name << " spread " << bits;
        }
}

TEST(ScoringProfile, DeviceDependentTermNeverTakesTheFastPath)
{
    for (ScoreInput input : { ScoreInput::NodeDevices, ScoreInput::PickedDevices }) {
        ScoringProfile p = scoringProfile(ScoringPolicy::MostAllocated);
        // A packing term on the node's devices, as the fragmentation-aware policies score.
        p.terms.push_back(
            { ScorePlugin::NodeResourcesFit, FitStrategy::MostAllocated, 1, Normalization::None, input });
        for (int bits = 0; bits < 8; ++bits) {
            ScoreSpread s;
            s.preferNoScheduleTaints = bits & 1;
            s.preferredAffinity = bits & 2;
            s.deviceChoice = bits & 4;
            EXPECT_FALSE(scoresFollowNodeUsage(p, s)) << "spread " << bits;
        }
        p.terms.back().weight = 0; // a term without weight cannot change the order
        EXPECT_TRUE(scoresFollowNodeUsage(p, ScoreSpread {}));
    }
}

TEST(ScoringProfile, NormalisedUsageTermNeverTakesTheFastPath)
{
    // Normalised over the feasible nodes, a node's score depends on the others: no cached order.
    ScoringProfile p = scoringProfile(ScoringPolicy::LeastAllocated);
    p.terms.front().normalization = Normalization::HighestIs100;
    EXPECT_FALSE(scoresFollowNodeUsage(p, ScoreSpread {}));
}

TEST(ScoringProfile, NamesAreReadAndRefusedInOneWording)
{
    EXPECT_EQ(parseScoringPolicy("default"), ScoringPolicy::Default);
    EXPECT_EQ(parseScoringPolicy("least-allocated"), ScoringPolicy::LeastAllocated);
    EXPECT_EQ(parseScoringPolicy("most-allocated"), ScoringPolicy::MostAllocated);
    EXPECT_EQ(parseScoringPolicy("bin-packing"), ScoringPolicy::MostAllocated);
    EXPECT_FALSE(parseScoringPolicy("Default"));
    EXPECT_FALSE(parseScoringPolicy(""));
    for (const auto& p : scoringProfiles())
        EXPECT_STREQ(scoringPolicyName(p.policy), p.name);
    EXPECT_EQ(unknownScoringPolicyMessage("spread"),
        "Unsupported value: \"spread\": supported values: \"best-fit\", \"default\", \"dot-product\", "
        "\"fgd\", \"gpu-clustering\", \"gpu-packing\", \"least-allocated\", \"most-allocated\", \"random\"");
    EXPECT_EQ(scoringPolicyHelp(),
        "default, most-allocated (bin packing), least-allocated, fgd (GPU sharing: fragmentation gradient "
        "descent), best-fit (GPU sharing: least cpu and GPU left), dot-product (GPU sharing: Tetris), "
        "gpu-packing (GPU sharing: shared GPUs first), gpu-clustering (GPU sharing: pods of a kind "
        "together), random (a random feasible node)");
    for (TieBreak t : { TieBreak::NodeName, TieBreak::SeededOrder })
        EXPECT_EQ(parseTieBreak(tieBreakName(t)), t);
    EXPECT_FALSE(parseTieBreak("random"));
}

} // namespace
} // namespace drasim::scheduler

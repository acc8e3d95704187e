// SPDX-License-Identifier: Apache-2.0
#include "core/scheduler/scoring_profile.h"

#include <algorithm>

namespace drasim::scheduler {

namespace {

using P = ScorePlugin;
using N = Normalization;
using In = ScoreInput;

// NodeResourcesFit's Score (pkg/scheduler/framework/plugins/noderesources/fit.go with
// least_allocated.go / most_allocated.go): the mean over cpu and memory of free (or used)
// capacity in 0..100; no NormalizeScore. Weight 1 in the default profile
// (pkg/scheduler/apis/config/v1/default_plugins.go).
ScoreTerm fit(FitStrategy strategy)
{
    return { P::NodeResourcesFit, strategy, 1, N::None, In::NodeUsage };
}

// NodeResourcesBalancedAllocation (noderesources/balanced_allocation.go): 100 × (1 − the
// standard deviation of the cpu and memory fractions with the pod); no NormalizeScore; weight 1.
ScoreTerm balancedTerm()
{
    return { P::NodeResourcesBalancedAllocation, FitStrategy::LeastAllocated, 1, N::None, In::NodeUsage };
}

// TaintToleration (plugins/tainttoleration/taint_toleration.go): counts the node's
// PreferNoSchedule taints the pod does not tolerate; NormalizeScore reverses
// (DefaultNormalizeScore(MaxNodeScore, true)), so no such taint scores 100; weight 3.
ScoreTerm taintsTerm()
{
    return { P::TaintToleration, FitStrategy::LeastAllocated, 3, N::LowestIs100, In::PodAndNode };
}

// NodeAffinity (plugins/nodeaffinity/node_affinity.go): sum of the weights of the preferred
// terms the node matches; DefaultNormalizeScore(MaxNodeScore, false); weight 2.
ScoreTerm affinityTerm()
{
    return { P::NodeAffinity, FitStrategy::LeastAllocated, 2, N::HighestIs100, In::PodAndNode };
}

// DynamicResources (plugins/dynamicresources/dynamicresources.go, KEP-4816 "Scoring"): per
// firstAvailable request, 8 − the index of the subrequest the allocator picked on the node;
// DefaultNormalizeScore(MaxNodeScore, false). default_plugins.go enables the plugin without a
// weight, so it weighs 1.
ScoreTerm prioritizedListTerm()
{
    return { P::DynamicResources, FitStrategy::LeastAllocated, 1, N::HighestIs100, In::PickedDevices };
}

// PodTopologySpread (plugins/podtopologyspread/scoring.go) and InterPodAffinity
// (plugins/interpodaffinity/scoring.go): normalised over the feasible nodes by their own
// NormalizeScore in the cycle (pod_placement.cpp), which hands the terms 0..100; weight 2 each.
ScoreTerm podSpreadTerm()
{
    return { P::PodTopologySpread, FitStrategy::LeastAllocated, 2, N::None, In::OtherPods };
}
ScoreTerm interPodTerm()
{
    return { P::InterPodAffinity, FitStrategy::LeastAllocated, 2, N::None, In::OtherPods };
}

// NOT UPSTREAM: a GPU-sharing score plugin of the FGD paper's scheduler (core/gpushare). Its
// profiles enable it alone with weight 1000 and disable every default score plugin
// (scripts/generate_config_and_run.py of the authors' simulator); alone, the weight does not
// change the order, so it is 1 here. Its scores are 0..100 already (no NormalizeScore but
// best-fit's, which keeps the order).
ScoreTerm share(gpushare::SharePolicy policy)
{
    return { P::GpuShare, FitStrategy::LeastAllocated, 1, N::None, In::NodeDevices, policy };
}

// The table. The three kube-scheduler policies differ only in their resource terms; the others
// are kube-scheduler's defaults in each.
const std::vector<ScoringProfile>& table()
{
    static const std::vector<ScoringProfile> profiles {
        { ScoringPolicy::Default, "default", nullptr, nullptr,
            { fit(FitStrategy::LeastAllocated), balancedTerm(), taintsTerm(), affinityTerm(), podSpreadTerm(),
                interPodTerm(), prioritizedListTerm() } },
        { ScoringPolicy::MostAllocated, "most-allocated", "bin-packing", "bin packing",
            { fit(FitStrategy::MostAllocated), taintsTerm(), affinityTerm(), podSpreadTerm(), interPodTerm(),
                prioritizedListTerm() } },
        { ScoringPolicy::LeastAllocated, "least-allocated", nullptr, nullptr,
            { fit(FitStrategy::LeastAllocated), taintsTerm(), affinityTerm(), podSpreadTerm(), interPodTerm(),
                prioritizedListTerm() } },
        { ScoringPolicy::Fgd, "fgd", nullptr, "GPU sharing: fragmentation gradient descent",
            { share(gpushare::SharePolicy::Fgd) } },
        { ScoringPolicy::BestFit, "best-fit", nullptr, "GPU sharing: least cpu and GPU left",
            { share(gpushare::SharePolicy::BestFit) } },
        { ScoringPolicy::DotProduct, "dot-product", nullptr, "GPU sharing: Tetris",
            { share(gpushare::SharePolicy::DotProduct) } },
        { ScoringPolicy::GpuPacking, "gpu-packing", nullptr, "GPU sharing: shared GPUs first",
            { share(gpushare::SharePolicy::GpuPacking) } },
        { ScoringPolicy::GpuClustering, "gpu-clustering", nullptr, "GPU sharing: pods of a kind together",
            { share(gpushare::SharePolicy::GpuClustering) } },
        { ScoringPolicy::Random, "random", nullptr, "a random feasible node",
            { share(gpushare::SharePolicy::Random) } },
    };
    return profiles;
}

} // namespace

std::optional<ScoreTerm> defaultScoreTerm(ScorePlugin plugin)
{
    switch (plugin) {
    case P::NodeResourcesFit:
        return fit(FitStrategy::LeastAllocated);
    case P::NodeResourcesBalancedAllocation:
        return balancedTerm();
    case P::TaintToleration:
        return taintsTerm();
    case P::NodeAffinity:
        return affinityTerm();
    case P::DynamicResources:
        return prioritizedListTerm();
    case P::PodTopologySpread:
        return podSpreadTerm();
    case P::InterPodAffinity:
        return interPodTerm();
    case P::GpuShare:
        break;
    }
    return std::nullopt;
}

bool FitScoring::cpuAndMemoryOnly() const
{
    return std::all_of(resources.begin(), resources.end(),
        [](const Resource& r) { return r.name == "cpu" || r.name == "memory"; });
}

bool termMaySpread(const ScoreTerm& term, const ScoreSpread& spread)
{
    if (term.weight == 0)
        return false;
    switch (term.plugin) {
    case P::TaintToleration:
        return spread.preferNoScheduleTaints;
    case P::NodeAffinity:
        return spread.preferredAffinity;
    case P::DynamicResources:
        return spread.deviceChoice;
    case P::PodTopologySpread:
        return spread.podSpread;
    case P::InterPodAffinity:
        return spread.interPod;
    case P::NodeResourcesFit:
    case P::NodeResourcesBalancedAllocation:
    case P::GpuShare:
        break;
    }
    return true;
}

const char* tieBreakName(TieBreak tieBreak)
{
    return tieBreak == TieBreak::SeededOrder ? "seeded-order" : "node-name";
}

std::optional<TieBreak> parseTieBreak(std::string_view name)
{
    if (name == "node-name")
        return TieBreak::NodeName;
    if (name == "seeded-order")
        return TieBreak::SeededOrder;
    return std::nullopt;
}

std::optional<gpushare::SharePolicy> sharePolicyOf(const ScoringProfile& profile)
{
    for (const ScoreTerm& t : profile.terms)
        if (t.plugin == P::GpuShare)
            return t.share;
    return std::nullopt;
}

bool scoresFollowNodeUsage(const ScoringProfile& profile, const ScoreSpread& spread)
{
    return std::all_of(profile.terms.begin(), profile.terms.end(), [&](const ScoreTerm& t) {
        return !termMaySpread(t, spread) || (t.dependsOn == In::NodeUsage && t.normalization == N::None);
    });
}

const std::vector<ScoringProfile>& scoringProfiles()
{
    return table();
}

const ScoringProfile& scoringProfile(ScoringPolicy policy)
{
    return table()[size_t(policy)];
}

const char* scoringPolicyName(ScoringPolicy policy)
{
    return scoringProfile(policy).name;
}

std::optional<ScoringPolicy> parseScoringPolicy(std::string_view name)
{
    for (const auto& p : table())
        if (name == p.name || (p.alias && name == p.alias))
            return p.policy;
    return std::nullopt;
}

std::vector<std::string> scoringPolicyNames()
{
    std::vector<std::string> names;
    for (const auto& p : table())
        names.emplace_back(p.name);
    std::sort(names.begin(), names.end());
    return names;
}

std::string unknownScoringPolicyMessage(std::string_view name)
{
    std::string list;
    for (const auto& n : scoringPolicyNames())
        list += (list.empty() ? "\"" : ", \"") + n + "\"";
    return "Unsupported value: \"" + std::string(name) + "\": supported values: " + list;
}

std::string scoringPolicyHelp()
{
    std::string text;
    for (const auto& p : table()) {
        text += (text.empty() ? "" : ", ") + std::string(p.name);
        if (p.summary)
            text += " (" + std::string(p.summary) + ")";
    }
    return text;
}

} // namespace drasim::scheduler

// SPDX-License-Identifier: Apache-2.0
#pragma once

// The Score extension point as data: a scoring profile is the list of score plugins a
// kube-scheduler profile enables, each with its weight, how its raw scores are normalised over
// the feasible nodes, and what they depend on. The named policies (`spec.scheduler.scoring`,
// `--scoring`, a variant's `scheduling.scoring`) are entries of one table here, and every reader
// of a policy name parses and validates it through this file. scoring.h computes each term's raw
// score; schedule_cycle.cpp sums them (searchEveryNode) or, when the profile allows it, walks the
// nodes in score order (searchInScoreOrder).

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/gpushare/share_policies.h"

namespace drasim::scheduler {

/// The named policies: one per entry of the profile table, in table order.
enum class ScoringPolicy {
    Default, ///< kube-scheduler defaults: LeastAllocated + BalancedAllocation + DRA prioritized list
    MostAllocated, ///< bin packing: MostAllocated + DRA prioritized list
    LeastAllocated, ///< spreading: LeastAllocated + DRA prioritized list (no balance term)
    // NOT UPSTREAM: the GPU-sharing policies of the FGD paper (core/gpushare), each alone, as
    // its authors' scheduler profiles enable them. The DRA allocator still picks the devices.
    Fgd,
    BestFit,
    DotProduct,
    GpuPacking,
    GpuClustering,
    Random,
};

/// Score plugins, named as kube-scheduler names them.
enum class ScorePlugin {
    NodeResourcesFit,
    NodeResourcesBalancedAllocation,
    TaintToleration,
    NodeAffinity,
    DynamicResources,
    PodTopologySpread,
    InterPodAffinity,
    /// NOT UPSTREAM: one of the FGD paper's score plugins (ScoreTerm::share), reading the node's
    /// GPUs in milli-GPU: devices with a consumable `gpuMilli` capacity.
    GpuShare,
};

/// NodeResourcesFit's scoringStrategy.type (the plugin's args).
enum class FitStrategy { LeastAllocated, MostAllocated, RequestedToCapacityRatio };

/// NodeResourcesFit's scoringStrategy beyond its type, as a KubeSchedulerConfiguration sets it
/// (scheduler_config.h): the resources scored with their weights and, for
/// RequestedToCapacityRatio, the utilization → score shape (scores already scaled to 0..100).
struct FitScoring
{
    struct Resource
    {
        std::string name; ///< "cpu", "memory", "ephemeral-storage" or an extended resource
        int64_t weight = 1;
    };
    struct ShapePoint
    {
        int64_t utilization = 0; ///< 0..100
        int64_t score = 0; ///< 0..100 (the file's 0..10 times 10)
    };
    std::vector<Resource> resources;
    std::vector<ShapePoint> shape;
    /// Whether only cpu and memory are scored: then the score depends on the node's usage and the
    /// pod's cpu/memory requests alone (the score cache's key).
    bool cpuAndMemoryOnly() const;
};

/// What a term's raw score of one node depends on besides the pod.
enum class ScoreInput {
    NodeUsage, ///< the node's requested cpu/memory/pods and allocatable only
    NodeDevices, ///< the state of the node's devices (free, shared, partitioned)
    PickedDevices, ///< the devices the allocator picked for the pod on that node
    PodAndNode, ///< static pod/node properties: taints, affinity terms, labels
    OtherPods, ///< where the running pods are (PodTopologySpread, InterPodAffinity)
};

/// NormalizeScore of a term over the feasible nodes.
enum class Normalization {
    None, ///< the raw score is already 0..100 (no ScoreExtensions upstream)
    HighestIs100, ///< helper.DefaultNormalizeScore(MaxNodeScore, false, ...)
    LowestIs100, ///< helper.DefaultNormalizeScore(MaxNodeScore, true, ...)
};

struct ScoreTerm
{
    ScorePlugin plugin;
    FitStrategy strategy; ///< NodeResourcesFit only
    int64_t weight;
    Normalization normalization;
    ScoreInput dependsOn;
    gpushare::SharePolicy share = gpushare::SharePolicy::Fgd; ///< GpuShare only
    /// NodeResourcesFit: the resources and shape; NodeResourcesBalancedAllocation: the resources
    /// (weights 1, no shape). Null is upstream's default (cpu and memory, weight 1 each), what
    /// every named policy uses.
    std::shared_ptr<const FitScoring> fit = nullptr;
};

struct ScoringProfile
{
    ScoringPolicy policy;
    const char* name; ///< as written in scenarios and on the command line
    const char* alias; ///< another accepted spelling, or null
    const char* summary; ///< a few words for --help, or null
    std::vector<ScoreTerm> terms;
};

/// The term of an upstream score plugin as kube-scheduler's default profile enables it (its
/// default weight, normalisation and inputs); nullopt for drasim's own GpuShare.
std::optional<ScoreTerm> defaultScoreTerm(ScorePlugin plugin);

/// Which terms can score the feasible nodes of this cycle differently, as far as the cycle knows
/// before filtering (NodeUsage and NodeDevices terms always can).
struct ScoreSpread
{
    bool preferNoScheduleTaints = false; ///< some node has a PreferNoSchedule taint
    bool preferredAffinity = false; ///< the pod has preferred node affinity terms
    bool deviceChoice = false; ///< a claim to allocate lists alternatives (firstAvailable)
    bool podSpread = false; ///< the pod has ScheduleAnyway spread constraints (or system defaults)
    bool interPod = false; ///< preferred pod affinity terms, or running pods with affinity terms
};

/// Whether the term can give two feasible nodes different weighted scores in such a cycle.
bool termMaySpread(const ScoreTerm& term, const ScoreSpread& spread);

/// Whether the best feasible node is the first feasible one in the order of the NodeUsage terms'
/// weighted sum (the score cache's order): every term that may spread depends on the node's usage
/// alone and is not normalised over the feasible nodes. Otherwise every node must be scored.
bool scoresFollowNodeUsage(const ScoringProfile& profile, const ScoreSpread& spread);

/// How the node is chosen among those with the best score.
enum class TieBreak {
    /// The node name that sorts first: drasim's default, so that a run never depends on a random
    /// draw (kube-scheduler's selectHost picks uniformly among the best).
    NodeName,
    /// The first in a node order drawn from the scheduler's seed (the nodes by name, then shuffled
    /// as core/fragstudy's seeded-order does): the FGD paper's scheduler, whose ties go to node
    /// names prefixed by a seeded permutation.
    SeededOrder,
};
const char* tieBreakName(TieBreak tieBreak); ///< "node-name", "seeded-order"
std::optional<TieBreak> parseTieBreak(std::string_view name);

/// The GPU-sharing policy of a profile's GpuShare term, if it has one.
std::optional<gpushare::SharePolicy> sharePolicyOf(const ScoringProfile& profile);

/// The table, in ScoringPolicy order.
const std::vector<ScoringProfile>& scoringProfiles();
const ScoringProfile& scoringProfile(ScoringPolicy policy);

const char* scoringPolicyName(ScoringPolicy policy); ///< "default", "most-allocated", "least-allocated"
/// A name or alias of the table; nullopt for anything else.
std::optional<ScoringPolicy> parseScoringPolicy(std::string_view name);
/// The names, sorted (as an API server lists supported values).
std::vector<std::string> scoringPolicyNames();
/// The one refusal of an unknown name, in the API server's wording:
/// Unsupported value: "x": supported values: "default", "least-allocated", "most-allocated"
std::string unknownScoringPolicyMessage(std::string_view name);
/// "default, most-allocated (bin packing), least-allocated": the names for --help, table order.
std::string scoringPolicyHelp();

} // namespace drasim::scheduler

// SPDX-License-Identifier: Apache-2.0
#pragma once

// Node scores of the terms of a scoring profile (scoring_profile.h), integer arithmetic as in
// kube-scheduler (MaxNodeScore = 100).

#include <cstdint>
#include <vector>

#include "core/gpushare/share_score_cache.h"
#include "core/scheduler/node_filters.h"
#include "core/scheduler/pod_info.h"
#include "core/scheduler/scoring_profile.h"

namespace drasim::scheduler {

inline constexpr int64_t kMaxNodeScore = 100;

/// What a term may read of one feasible node in one cycle.
struct ScoreInputs
{
    const api::Pod* pod;
    const PodRequests* req;
    const api::Node* node;
    const NodeUsage* usage;
    int64_t prioritizedList = 0; ///< PickedDevices: Σ (8 − picked index) the allocator reported
    /// GpuShare: the node and the pod in milli-GPU, and the fgd policy's typical pods (null when
    /// the profile has no GpuShare term).
    const gpushare::ShareNode* shareNode = nullptr;
    const gpushare::SharePod* sharePod = nullptr;
    const std::vector<gpushare::TypicalPod>* typical = nullptr;
    gpushare::ShareScoreCache* shareCache = nullptr; ///< remembers GpuShare scores (optional)
    /// GpuShare with the fgd policy, for a pod whose claims ask for devices of the classes of
    /// SchedulerOptions::claimTarget: its score by the claim measure (claim_scoring.h); -1: none.
    int64_t claimScore = -1;
    /// OtherPods: PodTopologySpread's and InterPodAffinity's scores of the node, already normalised
    /// over the feasible nodes (pod_placement.cpp); 0 when the plugin has nothing to score.
    int64_t spreadScore = 0;
    int64_t interPodScore = 0;
};

/// One term's raw score of one node, before normalisation and weight.
int64_t rawScore(const ScoreTerm& term, const ScoreInputs& in);

/// Σ weight × raw score over the profile's NodeUsage terms: a node's place in the score cache's
/// order. The whole score when scoresFollowNodeUsage holds, up to terms equal on every node.
int64_t usageScore(const ScoringProfile& profile, const NodeUsage& usage, const PodRequests& pod);

/// The weighted, normalised sum of every term, per feasible node (kube-scheduler's
/// RunScorePlugins: Score, NormalizeScore, then weight).
std::vector<int64_t> scoreNodes(const ScoringProfile& profile, const std::vector<ScoreInputs>& nodes);

/// Normalises raw scores to 0..100 so that the highest is 100 (LowestIs100: the lowest).
int64_t normalizeScore(int64_t raw, int64_t max, Normalization how);

} // namespace drasim::scheduler

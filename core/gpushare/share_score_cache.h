// SPDX-License-Identifier: Apache-2.0
#pragma once

// Scores of the GPU-sharing policies remembered by what they depend on: the policy, the pod's
// shape (cpu, GPU count and milli, models) and the node's state (free cpu, model, GPU clustering
// tags, each GPU's free milli). A scheduler scores every feasible node for every pod, and between
// two pods of one shape almost every node is as it was, so most scores are found, not computed
// (fgd's costs some thousand operations per node). The key is kept whole, so a found score is
// the computed one. Valid for one set of typical pods; not thread-safe (one per scheduler).

#include <cstdint>
#include <unordered_map>
#include <vector>

#include "core/gpushare/share_policies.h"

namespace drasim::gpushare {

class ShareScoreCache
{
public:
    int64_t score(SharePolicy policy, const ShareNode& node, const SharePod& pod,
        const std::vector<TypicalPod>& typical);
    size_t size() const { return m_scores.size(); }

private:
    struct KeyHash
    {
        size_t operator()(const std::vector<int64_t>& key) const;
    };
    static constexpr size_t kMaxEntries = size_t(1) << 20;
    std::unordered_map<std::vector<int64_t>, int64_t, KeyHash> m_scores;
    std::vector<int64_t> m_key; ///< scratch
};

} // namespace drasim::gpushare

// SPDX-License-Identifier: Apache-2.0
#pragma once

// The nodes of the cluster in the order of a scoring profile's NodeUsage score for one pod shape,
// kept up to date as node usage changes (Cluster::Impl::updateNodeScores): the order
// searchInScoreOrder and the feasible walk read when a cycle's scores follow node usage.

#include <algorithm>
#include <cstdint>
#include <set>
#include <utility>
#include <vector>

#include "core/scheduler/pod_info.h"

namespace drasim::scheduler {

/// Nodes in the order of the profile's NodeUsage score for one pod shape: the order
/// searchInScoreOrder walks, valid only when scoresFollowNodeUsage holds for the cycle.
struct ScoreOrderCache
{
    PodRequests req;
    bool needsDevice = false;
    std::set<std::pair<int64_t, uint32_t>> order; ///< (−score, node index): best first, ties by name
    std::vector<int64_t> score;
    uint64_t lastUse = 0;
    /// The same membership by place in the node tree's order (scanRank), one bit per node: a
    /// walk in that order passes the nodes without a free device 64 at a time.
    std::vector<uint64_t> listed;
    /// A range minimum of (−score, node index) over the listed nodes by place in the node tree's
    /// order (an unlisted place holds kNoneListed): the best node of a stretch of that order.
    std::vector<std::pair<int64_t, uint32_t>> best;
    uint32_t leaves = 0;
    static constexpr std::pair<int64_t, uint32_t> kNoneListed { INT64_MAX, UINT32_MAX };
    void list(uint32_t rank, uint32_t idx, bool in)
    {
        if (in)
            listed[rank / 64] |= uint64_t(1) << (rank % 64);
        else
            listed[rank / 64] &= ~(uint64_t(1) << (rank % 64));
        uint32_t i = rank + leaves;
        best[i] = in ? std::make_pair(-score[idx], idx) : kNoneListed;
        for (i /= 2; i >= 1; i /= 2)
            best[i] = std::min(best[2 * i], best[2 * i + 1]);
    }
    /// The best listed node of places [from, to), kNoneListed when none is listed.
    std::pair<int64_t, uint32_t> bestIn(uint32_t from, uint32_t to) const
    {
        std::pair<int64_t, uint32_t> out = kNoneListed;
        for (uint32_t l = from + leaves, r = to + leaves; l < r; l /= 2, r /= 2) {
            if (l & 1)
                out = std::min(out, best[l++]);
            if (r & 1)
                out = std::min(out, best[--r]);
        }
        return out;
    }
    bool isListed(uint32_t rank) const { return (listed[rank / 64] >> (rank % 64)) & 1; }

    /// Nodes whose usage or free devices changed since the cache was last read, each once: a
    /// change only notes the node, and the reader brings it up to date (refresh), so a shape that
    /// is not read again costs nothing more per change.
    std::vector<uint32_t> stale;
    std::vector<uint64_t> staleBits; ///< by node index
    void markStale(uint32_t idx)
    {
        uint64_t& word = staleBits[idx / 64];
        const uint64_t bit = uint64_t(1) << (idx % 64);
        if (!(word & bit)) {
            word |= bit;
            stale.push_back(idx);
        }
    }
    /// Brings every stale node up to date: `now(idx)` gives its score and whether it is listed.
    /// An unchanged entry is left alone, and a moved one keeps its set node (no allocation).
    template <class Now> void refresh(const std::vector<uint32_t>& scanRank, Now&& now)
    {
        for (uint32_t idx : stale) {
            staleBits[idx / 64] &= ~(uint64_t(1) << (idx % 64));
            const auto [value, in] = now(idx);
            const bool wasListed = isListed(scanRank[idx]);
            if (value == score[idx] && in == wasListed)
                continue;
            auto entry = wasListed ? order.extract({ -score[idx], idx }) : decltype(order)::node_type {};
            score[idx] = value;
            if (in && entry) {
                entry.value() = { -value, idx };
                order.insert(std::move(entry));
            } else if (in) {
                order.insert({ -value, idx });
            }
            list(scanRank[idx], idx, in);
        }
        stale.clear();
    }
    /// The first listed rank in [from, end), or end.
    uint32_t nextListed(uint32_t from, uint32_t end) const
    {
        for (uint32_t r = from; r < end;) {
            const uint64_t word = listed[r / 64] >> (r % 64);
            if (word)
                return std::min(end, r + uint32_t(__builtin_ctzll(word)));
            r = (r / 64 + 1) * 64;
        }
        return end;
    }
};

} // namespace drasim::scheduler

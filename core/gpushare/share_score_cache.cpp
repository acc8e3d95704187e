// SPDX-License-Identifier: Apache-2.0
#include "core/gpushare/share_score_cache.h"

namespace drasim::gpushare {

size_t ShareScoreCache::KeyHash::operator()(const std::vector<int64_t>& key) const
{
    uint64_t h = 1469598103934665603ull;
    for (int64_t v : key) {
        h ^= uint64_t(v);
        h *= 1099511628211ull;
        h ^= h >> 29;
    }
    return size_t(h);
}

int64_t ShareScoreCache::score(
    SharePolicy policy, const ShareNode& node, const SharePod& pod, const std::vector<TypicalPod>& typical)
{
    m_key.clear();
    m_key.insert(m_key.end(),
        { int64_t(policy), pod.cpuMilli, pod.gpuCount, pod.gpuMilli, int64_t(pod.models), node.cpuFreeMilli,
            node.model, int64_t(node.gpuTags) });
    for (int32_t free : node.gpuFreeMilli)
        m_key.push_back(free);
    if (auto it = m_scores.find(m_key); it != m_scores.end())
        return it->second;
    const int64_t s = shareScore(policy, node, pod, typical);
    if (m_scores.size() >= kMaxEntries)
        m_scores.clear();
    m_scores.emplace(m_key, s);
    return s;
}

} // namespace drasim::gpushare

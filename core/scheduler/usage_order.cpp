// SPDX-License-Identifier: Apache-2.0
// The nodes in the order of a pod shape's NodeUsage score (ScoreOrderCache), one cache per shape
// for the shapes used last: made on first use, brought up to date when read again.
#include "core/scheduler/cluster_impl.h"

namespace drasim::scheduler {

Cluster::Impl::SigCache& Cluster::Impl::sigFor(const PodRequests& req, bool needsDevice)
{
    SigKey key { req.nonZeroMilliCpu, req.nonZeroMemory, req.requests.milliCpu, req.requests.memory,
        needsDevice };
    auto it = sigs.find(key);
    if (it == sigs.end()) {
        // The least recently used cache makes way, and the new one is built in its buffers: the
        // pods of a trace come in many more shapes than there are caches.
        thread_local std::vector<decltype(SigCache::order)::node_type> spareEntries;
        spareEntries.clear();
        if (sigs.size() >= kMaxSigCaches) {
            auto victim = sigs.begin();
            for (auto jt = sigs.begin(); jt != sigs.end(); ++jt)
                if (jt->second.lastUse < victim->second.lastUse)
                    victim = jt;
            auto reused = sigs.extract(victim);
            reused.key() = key;
            auto& old = reused.mapped().order;
            while (!old.empty())
                spareEntries.push_back(old.extract(old.begin()));
            reused.mapped().stale.clear();
            it = sigs.insert(std::move(reused)).position;
        } else {
            it = sigs.emplace(key, SigCache {}).first;
        }
        auto& sc = it->second;
        sc.req = req;
        sc.needsDevice = needsDevice;
        sc.score.resize(nodes.size());
        sc.listed.assign((nodes.size() + 63) / 64, 0);
        sc.staleBits.assign(sc.listed.size(), 0);
        sc.leaves = 1;
        while (sc.leaves < nodes.size())
            sc.leaves *= 2;
        sc.best.assign(2 * size_t(sc.leaves), SigCache::kNoneListed);
        const auto& profile = primaryProfile(options).scoring;
        for (uint32_t i = 0; i < nodes.size(); ++i) {
            sc.score[i] = usageScore(profile, nodes[i].usage, req);
            if (!needsDevice || freeOf(i) > 0) {
                if (spareEntries.empty()) {
                    sc.order.insert({ -sc.score[i], i });
                } else {
                    spareEntries.back().value() = { -sc.score[i], i };
                    sc.order.insert(std::move(spareEntries.back()));
                    spareEntries.pop_back();
                }
                sc.listed[scanRank[i] / 64] |= uint64_t(1) << (scanRank[i] % 64);
                sc.best[sc.leaves + scanRank[i]] = { -sc.score[i], i };
            }
        }
        for (uint32_t i = sc.leaves - 1; i >= 1; --i)
            sc.best[i] = std::min(sc.best[2 * i], sc.best[2 * i + 1]);
    }
    auto& sc = it->second;
    sc.lastUse = ++sigClock;
    const auto& profile = primaryProfile(options).scoring;
    sc.refresh(scanRank, [&](uint32_t idx) {
        return std::make_pair(
            usageScore(profile, nodes[idx].usage, sc.req), !sc.needsDevice || freeOf(idx) > 0);
    });
    return sc;
}

} // namespace drasim::scheduler

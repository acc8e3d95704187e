// SPDX-License-Identifier: Apache-2.0
#include "core/topology/cluster_builder.h"

#include <algorithm>
#include <atomic>
#include <utility>

#include "core/common/parallel_chunks.h"

namespace drasim::topology {

std::string nodeNameFor(const std::string& prefix, int i)
{
    return prefix + "-" + std::to_string(i);
}

api::ObjectSet generateNodePool(const NodeShape& shape, int count, const std::string& prefix,
    const GenerateOptions& options, Diagnostics* diag, const RackLayout& layout)
{
    ClusterBuilder b;
    b.addPool(shape, count, prefix, options, diag, layout);
    return b.build();
}

ClusterBuilder::ClusterBuilder()
    : m_index(std::make_shared<PlacementIndex>())
{ }

ClusterBuilder::~ClusterBuilder() = default;

bool ClusterBuilder::addPool(const NodeShape& shape, int count, const std::string& prefix,
    const GenerateOptions& options, Diagnostics* diag, const RackLayout& layout)
{
    auto topo = std::make_shared<const Topology>(shape);
    auto gen = std::make_shared<const SliceGenerator>(topo, options, diag);
    return addPool(std::move(gen), count, prefix, diag, layout);
}

bool ClusterBuilder::addPool(std::shared_ptr<const SliceGenerator> generator, int count,
    const std::string& prefix, Diagnostics* diag, const RackLayout& layout)
{
    const NodeShape& shape = generator->topology().shape();
    const std::string p = prefix.empty() ? shape.name : prefix;
    auto refuse = [&](const std::string& message) {
        if (diag)
            diag->error(shape.pos, "NodeShape", shape.name, "", message);
        return false;
    };
    for (int i = 0; i < count; ++i)
        if (m_index->hasNode(nodeNameFor(p, i)))
            return refuse("node pool prefix \"" + p + "\" produces node " + nodeNameFor(p, i)
                + " which an earlier pool already has");
    if (const std::string why = rackLayoutError(shape, layout, p, count); !why.empty())
        return refuse(why);
    for (int i = 0; i < count; ++i)
        m_index->addNode(nodeNameFor(p, i), generator);
    m_pools.push_back(Pool { std::move(generator), count, p, layout });
    return true;
}

api::ObjectSet ClusterBuilder::build(
    ProgressSink* progress, const CancelToken* cancel, unsigned threads) const
{
    const int total = nodeCount();
    size_t slicesPerNode = 0;
    for (const auto& pool : m_pools)
        slicesPerNode = std::max(slicesPerNode, pool.generator->generate("probe").slices.size());
    // Node k of the cluster, as (pool, index in the pool): nodes are generated independently.
    std::vector<std::pair<const Pool*, int>> order;
    order.reserve(size_t(total));
    for (const auto& pool : m_pools)
        for (int i = 0; i < pool.count; ++i)
            order.emplace_back(&pool, i);
    // A node is a few dozen devices copied from the shape's prototypes: worth a thread in bulk only.
    constexpr size_t kMinNodesPerThread = 64;
    const unsigned chunks = chunkCount(order.size(), threads, kMinNodesPerThread);
    std::vector<api::ObjectSet> parts(chunks);
    std::atomic<int> done { 0 };
    forEachChunk(order.size(), chunks, [&](unsigned chunk, size_t begin, size_t end) {
        api::ObjectSet& part = parts[chunk];
        part.nodes.reserve(end - begin);
        part.resourceSlices.reserve((end - begin) * slicesPerNode);
        for (size_t k = begin; k < end; ++k) {
            if (cancel && cancel->cancelled())
                return;
            const auto& [pool, i] = order[k];
            pool->generator->generateInto(nodeNameFor(pool->prefix, i), part);
            labelRackPosition(
                part.nodes.back(), pool->generator->topology().shape(), pool->layout, pool->prefix, i);
            const int now = done.fetch_add(1, std::memory_order_relaxed) + 1;
            // The caller's thread speaks for all of them, so the sink needs no locking.
            if (chunk == 0 && progress && (k + 1 - begin) % 256 == 0 && now < total)
                progress->progress(double(now) / double(total), "generating nodes");
        }
    });
    if (progress && total > 0 && done.load() == total)
        progress->progress(1.0, "generating nodes");
    if (chunks == 1)
        return std::move(parts.front());
    api::ObjectSet out;
    out.nodes.reserve(size_t(total));
    out.resourceSlices.reserve(size_t(total) * slicesPerNode);
    for (auto& part : parts)
        out.append(std::move(part)); // chunk order is node order
    return out;
}

std::shared_ptr<const PlacementIndex> ClusterBuilder::placementIndex() const
{
    return m_index;
}

int ClusterBuilder::nodeCount() const
{
    int n = 0;
    for (const auto& p : m_pools)
        n += p.count;
    return n;
}

} // namespace drasim::topology

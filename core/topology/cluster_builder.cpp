// SPDX-License-Identifier: Apache-2.0
#include "core/topology/cluster_builder.h"

namespace drasim::topology {

std::string nodeNameFor(const std::string& prefix, int i)
{
    return prefix + "-" + std::to_string(i);
}

api::ObjectSet generateNodePool(const NodeShape& shape, int count, const std::string& prefix,
    const GenerateOptions& options, Diagnostics* diag)
{
    ClusterBuilder b;
    b.addPool(shape, count, prefix, options, diag);
    return b.build();
}

ClusterBuilder::ClusterBuilder()
    : m_index(std::make_shared<PlacementIndex>())
{ }

ClusterBuilder::~ClusterBuilder() = default;

bool ClusterBuilder::addPool(const NodeShape& shape, int count, const std::string& prefix,
    const GenerateOptions& options, Diagnostics* diag)
{
    auto topo = std::make_shared<const Topology>(shape);
    auto gen = std::make_shared<const SliceGenerator>(topo, options, diag);
    return addPool(std::move(gen), count, prefix, diag);
}

bool ClusterBuilder::addPool(
    std::shared_ptr<const SliceGenerator> generator, int count, const std::string& prefix, Diagnostics* diag)
{
    const std::string p = prefix.empty() ? generator->topology().shape().name : prefix;
    for (int i = 0; i < count; ++i) {
        if (m_index->hasNode(nodeNameFor(p, i))) {
            if (diag)
                diag->error(generator->topology().shape().pos, "NodeShape",
                    generator->topology().shape().name, "",
                    "node pool prefix \"" + p + "\" produces node " + nodeNameFor(p, i)
                        + " which an earlier pool already has");
            return false;
        }
    }
    for (int i = 0; i < count; ++i)
        m_index->addNode(nodeNameFor(p, i), generator);
    m_pools.push_back(Pool { std::move(generator), count, p });
    return true;
}

api::ObjectSet ClusterBuilder::build(ProgressSink* progress, const CancelToken* cancel) const
{
    api::ObjectSet out;
    const int total = nodeCount();
    size_t slicesPerNode = 0;
    for (const auto& pool : m_pools)
        slicesPerNode = std::max(slicesPerNode, pool.generator->generate("probe").slices.size());
    out.nodes.reserve(size_t(total));
    out.resourceSlices.reserve(size_t(total) * slicesPerNode);
    int done = 0;
    for (const auto& pool : m_pools) {
        for (int i = 0; i < pool.count; ++i) {
            if (cancel && cancel->cancelled())
                return out;
            pool.generator->generateInto(nodeNameFor(pool.prefix, i), out, i);
            ++done;
            if (progress && (done % 256 == 0 || done == total))
                progress->progress(double(done) / double(std::max(1, total)), "generating nodes");
        }
    }
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

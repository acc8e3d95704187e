// SPDX-License-Identifier: Apache-2.0
#pragma once

// What the simulator calls to turn "shape S x count N with name prefix P" into Nodes and
// ResourceSlices, and to map allocated devices back to the hardware (placement_quality.h).

#include <memory>
#include <string>
#include <vector>

#include "core/api/object_set.h"
#include "core/common/progress.h"
#include "core/topology/placement_quality.h"
#include "core/topology/rack_layout.h"
#include "core/topology/slice_generator.h"

namespace drasim::topology {

/// Node names are "<prefix>-<i>" for i in [0, count). An empty prefix uses the shape name.
std::string nodeNameFor(const std::string& prefix, int i);

/// One-shot helper: Nodes + ResourceSlices of `count` nodes of `shape`.
api::ObjectSet generateNodePool(const NodeShape& shape, int count, const std::string& prefix,
    const GenerateOptions& options = {}, Diagnostics* diag = nullptr, const RackLayout& layout = {});

/// Several pools into one cluster, plus the placement index over all of them.
class ClusterBuilder
{
public:
    ClusterBuilder();
    ~ClusterBuilder();

    /// Returns false (and reports to diag) when the prefix collides with an earlier pool's nodes
    /// or the nodes cannot stand in racks as `layout` says (rackLayoutError).
    bool addPool(const NodeShape& shape, int count, const std::string& prefix,
        const GenerateOptions& options = {}, Diagnostics* diag = nullptr, const RackLayout& layout = {});
    bool addPool(std::shared_ptr<const SliceGenerator> generator, int count, const std::string& prefix,
        Diagnostics* diag = nullptr, const RackLayout& layout = {});

    /// Objects of every pool in addPool order, nodes in index order, generated on up to `threads`
    /// threads (0: every core; the result is the same for any count). Stops early (returning an
    /// incomplete set) when cancel is set.
    api::ObjectSet build(
        ProgressSink* progress = nullptr, const CancelToken* cancel = nullptr, unsigned threads = 1) const;

    /// Knows every node added so far; share it with the simulator.
    std::shared_ptr<const PlacementIndex> placementIndex() const;

    int nodeCount() const;

private:
    struct Pool
    {
        std::shared_ptr<const SliceGenerator> generator;
        int count = 0;
        std::string prefix;
        RackLayout layout;
    };
    std::vector<Pool> m_pools;
    std::shared_ptr<PlacementIndex> m_index;
};

} // namespace drasim::topology

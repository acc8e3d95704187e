// SPDX-License-Identifier: Apache-2.0
#pragma once

// GPU fragmentation as the FGD paper measures it (pkg/utils/frag.go of the authors' simulator,
// NodeGpuShareFragAmount and GetTypicalPods). Fragmentation is relative to a target workload M,
// the "typical pods": the most common pod shapes of the trace with their frequencies. A node's
// free GPU milli counts as fragment for a typical pod that could not use it, weighted by that
// pod's frequency:
//   * a CPU-only typical pod, or one whose GPU models exclude the node: all free GPU milli;
//   * a pod that fits (enough GPUs with enough free milli, and the CPU): the free milli of the
//     GPUs too small for it;
//   * a pod that does not fit: all free GPU milli.
// Memory plays no part. The cluster's fragment is the sum over its nodes.

#include <cstdint>
#include <vector>

#include "core/gpushare/share_node.h"

namespace drasim::gpushare {

struct TypicalPod
{
    SharePod shape; ///< memory is 0: the key ignores it
    double probability = 0; ///< renormalised over the kept shapes, so they sum to 1
    int64_t count = 0; ///< pods of this shape in the trace
};

/// The typical pods of a pod list: shapes keyed by (cpu, milli per GPU, GPU count, models),
/// memory ignored and CPU-only pods included; sorted by count, highest first; shapes are kept in
/// that order until they cover at least `popularityPercent` % of the pods, then renormalised.
/// Shapes with equal counts come in key order (upstream iterates a Go map there, whose order is
/// random, so its choice at the cut-off can differ between runs; ours is fixed).
std::vector<TypicalPod> typicalPods(const std::vector<SharePod>& pods, int popularityPercent = 95);

/// What the fgd policy measures fragmentation against: the typical pods, and the table of GPU
/// models their bit sets refer to.
struct ShareTarget
{
    ModelTable models;
    std::vector<TypicalPod> typical;
};

/// A cluster's fragmentation at one moment: Σ_n F_n(M), and the free and installed GPU milli it
/// is a part of (the paper's "Frag/Total" is fragmentMilli / capacityMilli, its "Frag Rate"
/// fragmentMilli / freeMilli).
struct ClusterFragment
{
    double fragmentMilli = 0;
    int64_t freeMilli = 0;
    int64_t capacityMilli = 0;
};

/// f_n(m): the fragment of one node for one typical pod shape, in milli-GPU.
int64_t podFragment(const ShareNode& node, const SharePod& typical);

/// F_n(M) = Σ_m p_m f_n(m).
double nodeFragment(const ShareNode& node, const std::vector<TypicalPod>& typical);

} // namespace drasim::gpushare

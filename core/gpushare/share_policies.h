// SPDX-License-Identifier: Apache-2.0
#pragma once

// The node-scoring policies of the FGD paper and its baselines, as its authors' simulator codes
// them (pkg/simulator/plugin/*_score.go of hkust-adsl/kubernetes-scheduler-simulator): integer
// scores in 0..100 with Go's truncation, the same normalising constants, and the device (GPU)
// choice each pairs with. Each policy alone decides (weight 1000 in the study; no other score
// plugin is enabled), so only the order of the scores matters, and ties are broken by the caller.

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/gpushare/fragmentation.h"
#include "core/gpushare/share_node.h"

namespace drasim::gpushare {

enum class SharePolicy { Fgd, BestFit, DotProduct, GpuPacking, GpuClustering, Random };

/// Which GPU a sharing pod gets on the chosen node (whole-GPU pods always get the lowest-index
/// fully free GPUs).
enum class GpuChoice {
    Best, ///< the feasible GPU with the least free milli, lowest index on ties
    Random, ///< a uniformly random feasible GPU
    Fgd, ///< the GPU whose use lowers the node's fragmentation most, lowest index on ties
    /// The lowest-index feasible GPU: what the DRA allocator picks, since it tries a slice's
    /// devices in order and takes the first with enough capacity left (no plugin can steer it).
    FirstFit,
};

const char* gpuChoiceName(GpuChoice choice); ///< "best", "random", "fgd", "first-fit"
std::optional<GpuChoice> parseGpuChoice(std::string_view name);

struct SharePolicyInfo
{
    SharePolicy policy;
    const char* name; ///< as written on the command line and in scenarios
    GpuChoice gpuChoice; ///< the choice the study pairs the policy with
    const char* summary;
};

const std::vector<SharePolicyInfo>& sharePolicies(); ///< in SharePolicy order
const SharePolicyInfo& sharePolicyInfo(SharePolicy policy);
std::optional<SharePolicy> parseSharePolicy(std::string_view name);

/// A uniform draw in [0, n): the caller's random stream.
using DrawBelow = std::function<uint64_t(uint64_t n)>;

/// The policy's score of a node that fits the pod (fits() holds), 0..100. Random scores every
/// node 0: its node is drawn by the caller among the feasible ones. `fragment` is
/// nodeFragment(node, typical) when the caller keeps it, else computed here (FGD only).
int64_t shareScore(SharePolicy policy, const ShareNode& node, const SharePod& pod,
    const std::vector<TypicalPod>& typical, std::optional<double> fragment = std::nullopt);

/// The GPUs (indices) the pod takes on a node that fits it: none for a CPU-only pod.
std::vector<int> chooseGpus(GpuChoice choice, const ShareNode& node, const SharePod& pod,
    const std::vector<TypicalPod>& typical, const DrawBelow& draw);

/// FGD's score of placing a sharing pod on one GPU, or a whole-GPU or CPU-only pod on the node
/// (gpu = -1): trunc(100 * sigmoid((F0 - F1) / 1000)), F1 the fragment after the placement.
int64_t fgdPlacementScore(const ShareNode& node, const SharePod& pod, int gpu,
    const std::vector<TypicalPod>& typical, double fragmentBefore);

} // namespace drasim::gpushare

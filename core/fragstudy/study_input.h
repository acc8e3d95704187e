// SPDX-License-Identifier: Apache-2.0
#pragma once

// The inputs of a fragmentation study: a trace's GPU nodes and pod list in the milli-GPU model
// of core/gpushare, read from the Alibaba 2023 files (directly or through a Scenario's
// `cluster.trace.nodes` and its first alibaba-2023 trace workload: scenario_input.h).

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/common/diagnostic.h"
#include "core/gpushare/share_node.h"
#include "core/workload/alibaba_trace.h"

namespace drasim::fragstudy {

struct StudyInput
{
    std::string nodesPath;
    std::string podsPath;
    gpushare::ModelTable models;
    std::vector<gpushare::ShareNode> nodes; ///< file order, nothing placed
    std::vector<std::string> nodeNames;
    std::vector<gpushare::SharePod> pods; ///< file order
    std::vector<std::string> podNames;
    int64_t gpuCapacityMilli = 0; ///< Σ GPUs × 1000

    int64_t gpuCount() const { return gpuCapacityMilli / gpushare::kMilliPerGpu; }
};

/// The rows of a node list and a pod list as a study's input (no file names); nullopt when the
/// nodes name more GPU models than a bit set holds.
std::optional<StudyInput> studyInputOf(const std::vector<workload::TraceGpuNode>& nodes,
    const std::vector<workload::AlibabaPodRow>& pods, Diagnostics& diags);

/// Reads both files; nullopt with diagnostics (file, line, column, field) on any error.
std::optional<StudyInput> loadStudyInput(
    const std::string& nodesPath, const std::string& podsPath, Diagnostics& diags);

} // namespace drasim::fragstudy

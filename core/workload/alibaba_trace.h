// SPDX-License-Identifier: Apache-2.0
#pragma once

// The Alibaba GPU cluster trace 2023 ("openb", alibaba/clusterdata cluster-trace-gpu-v2023):
//   node list: sn,cpu_milli,memory_mib,gpu,model
//   pod list:  name,cpu_milli,memory_mib,num_gpu,gpu_milli,gpu_spec,qos,pod_phase,creation_time,
//              deletion_time,scheduled_time      (11 columns; multigpu50 has only the first 5)
// Columns are found by header name, so extra or reordered columns are fine; the first five pod
// columns (and all five node columns) are required. Mapping to DRA: trace_mapping.h.
// Each pod row becomes one JobSpec of kind "job" (completions 1, backoffLimit 0: a trace pod is a
// bare pod), named after the row, with labels drasim.dev/qos and drasim.dev/trace-phase.
//   arrival  = creation_time * timeScale (+ arrival.start), or the `arrival:` process when the
//              file has no times or useTraceTimes is false;
//   duration = (deletion_time - scheduled_time) * timeScale, or (deletion - creation) when the pod
//              was never scheduled (Pending when the trace was cut: it would have lived until its
//              deletion had it started at once); the workload's `duration:` overrides both, and
//              files without times use it (default forever).
// Decision: qos does not become a priority (the trace gives no priority classes); it is a label.

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/workload/trace_mapping.h"
#include "core/workload/workload_spec.h"

namespace drasim::workload {

struct AlibabaPodRow
{
    std::string name;
    int64_t cpuMilli = 0;
    int64_t memoryMiB = 0;
    TraceGpuDemand gpu;
    std::string qos;
    std::string phase;
    /// drasim.dev/qos and drasim.dev/trace-phase from the two above (null when both are empty),
    /// made when the file is read and shared by its rows of the same qos and phase.
    std::shared_ptr<const api::Labels> labels;
    /// The row's requests (cpu_milli, memory_mib and GPU demand) as an index among the file's
    /// distinct ones (AlibabaPodList::shapes): rows of one shape have one pod template.
    uint32_t shape = 0;
    std::optional<double> creation;
    std::optional<double> deletion;
    std::optional<double> scheduled;
    SourcePos pos;
};

struct AlibabaPodList
{
    std::vector<AlibabaPodRow> rows; ///< file order
    bool hasTimes = false; ///< creation_time and deletion_time columns present
    uint32_t shapes = 0; ///< distinct row shapes (AlibabaPodRow::shape)
};

/// Reads and validates a pod list. Bad rows become diagnostics and are skipped; returns nullopt
/// if the file cannot be read or its header lacks a required column.
std::optional<AlibabaPodList> readAlibabaPods(
    const std::string& path, Diagnostics& diags, std::optional<uint64_t> limit = std::nullopt);

/// Reads and validates a node list.
std::optional<std::vector<TraceGpuNode>> readAlibabaNodes(const std::string& path, Diagnostics& diags);

/// The cluster of a TraceClusterSpec: nodes, slices and classes. nullopt on errors.
std::optional<api::ObjectSet> loadTraceCluster(const TraceClusterSpec& spec, Diagnostics& diags);

/// The stream of a `trace:` workload with format alibaba-2023.
std::unique_ptr<ArrivalSource> makeAlibabaSource(const WorkloadSpec& spec, uint64_t seed, Diagnostics& diags);

} // namespace drasim::workload

// SPDX-License-Identifier: Apache-2.0
#pragma once

// Trace rows in the milli-GPU model of the FGD paper (core/gpushare): for the fragmentation study,
// and for the target workload (typical pods) of the fgd scoring policy in a simulation.

#include <memory>
#include <vector>

#include "core/common/diagnostic.h"
#include "core/gpushare/fragmentation.h"
#include "core/workload/alibaba_trace.h"
#include "core/workload/workload_spec.h"

namespace drasim::workload {

/// One row as a pod: cpu, memory, GPU count and milli per GPU; its gpu_spec models as bits of
/// `models` (added to it when new; a model past the table's capacity is left out).
gpushare::SharePod sharePodOf(const AlibabaPodRow& row, gpushare::ModelTable& models);

/// The typical pods of the pods of every alibaba-2023 trace workload (their row limits applied),
/// as the fgd policy of a simulation measures fragmentation against them; nullptr when there is
/// no such workload or a trace cannot be read (errors in `diags`).
std::shared_ptr<const gpushare::ShareTarget> traceShareTarget(
    const std::vector<WorkloadSpec>& workloads, Diagnostics& diags);

} // namespace drasim::workload

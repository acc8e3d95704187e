// SPDX-License-Identifier: Apache-2.0
#include "core/workload/trace_share_pods.h"

#include "core/workload/trace_file_cache.h"

namespace drasim::workload {

gpushare::SharePod sharePodOf(const AlibabaPodRow& row, gpushare::ModelTable& models)
{
    gpushare::SharePod pod;
    pod.cpuMilli = row.cpuMilli;
    pod.memoryMiB = row.memoryMiB;
    pod.gpuCount = row.gpu.count;
    pod.gpuMilli = row.gpu.count > 0 ? row.gpu.milli : 0;
    for (const std::string& model : row.gpu.models) {
        const int id = models.idOf(model);
        if (id >= 0)
            pod.models |= uint64_t(1) << id;
    }
    return pod;
}

std::shared_ptr<const gpushare::ShareTarget> traceShareTarget(
    const std::vector<WorkloadSpec>& workloads, Diagnostics& diags)
{
    auto target = std::make_shared<gpushare::ShareTarget>();
    std::vector<gpushare::SharePod> pods;
    bool any = false;
    for (const WorkloadSpec& w : workloads) {
        if (!w.trace || w.trace->format != TraceSpec::Format::Alibaba2023)
            continue;
        auto list = sharedAlibabaPods(w.trace->path, diags, w.trace->limit);
        if (!list)
            return nullptr;
        any = true;
        for (const AlibabaPodRow& row : list->rows)
            pods.push_back(sharePodOf(row, target->models));
    }
    if (!any)
        return nullptr;
    target->typical = gpushare::typicalPods(pods);
    return target;
}

} // namespace drasim::workload

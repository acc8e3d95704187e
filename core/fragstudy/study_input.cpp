// SPDX-License-Identifier: Apache-2.0
#include "core/fragstudy/study_input.h"

#include "core/workload/alibaba_trace.h"

namespace drasim::fragstudy {

namespace {

gpushare::SharePod sharePodOf(const workload::AlibabaPodRow& row, gpushare::ModelTable& models)
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

} // namespace

std::optional<StudyInput> loadStudyInput(
    const std::string& nodesPath, const std::string& podsPath, Diagnostics& diags)
{
    auto nodeRows = workload::readAlibabaNodes(nodesPath, diags);
    auto podRows = workload::readAlibabaPods(podsPath, diags);
    if (!nodeRows || !podRows || diags.hasErrors())
        return std::nullopt;
    StudyInput input;
    input.nodesPath = nodesPath;
    input.podsPath = podsPath;
    for (const workload::TraceGpuNode& row : *nodeRows) {
        gpushare::ShareNode node;
        node.cpuFreeMilli = row.cpuMilli;
        node.memoryFreeMiB = row.memoryMiB;
        node.model = row.gpus > 0 ? input.models.idOf(row.model) : -1;
        if (row.gpus > 0 && node.model < 0) {
            diags.error(row.pos, "", row.name, "model",
                "more than " + std::to_string(gpushare::kMaxModels) + " GPU models in one cluster");
            return std::nullopt;
        }
        node.gpuFreeMilli.assign(size_t(row.gpus), gpushare::kMilliPerGpu);
        input.gpuCapacityMilli += int64_t(row.gpus) * gpushare::kMilliPerGpu;
        input.nodes.push_back(std::move(node));
        input.nodeNames.push_back(row.name);
    }
    for (const workload::AlibabaPodRow& row : podRows->rows) {
        input.pods.push_back(sharePodOf(row, input.models));
        input.podNames.push_back(row.name);
    }
    if (input.gpuCapacityMilli == 0) {
        diags.error(
            { nodesPath, 0, 0 }, "", "", "", "the node list has no GPUs: a fragmentation study needs some");
        return std::nullopt;
    }
    return input;
}

} // namespace drasim::fragstudy

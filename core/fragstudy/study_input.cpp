// SPDX-License-Identifier: Apache-2.0
#include "core/fragstudy/study_input.h"

#include "core/workload/alibaba_trace.h"
#include "core/workload/trace_share_pods.h"

namespace drasim::fragstudy {

std::optional<StudyInput> studyInputOf(const std::vector<workload::TraceGpuNode>& nodes,
    const std::vector<workload::AlibabaPodRow>& pods, Diagnostics& diags)
{
    StudyInput input;
    for (const workload::TraceGpuNode& row : nodes) {
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
    for (const workload::AlibabaPodRow& row : pods) {
        input.pods.push_back(workload::sharePodOf(row, input.models));
        input.podNames.push_back(row.name);
    }
    return input;
}

std::optional<StudyInput> loadStudyInput(
    const std::string& nodesPath, const std::string& podsPath, Diagnostics& diags)
{
    auto nodeRows = workload::readAlibabaNodes(nodesPath, diags);
    auto podRows = workload::readAlibabaPods(podsPath, diags);
    if (!nodeRows || !podRows || diags.hasErrors())
        return std::nullopt;
    auto input = studyInputOf(*nodeRows, podRows->rows, diags);
    if (!input)
        return std::nullopt;
    if (input->gpuCapacityMilli == 0) {
        diags.error(
            { nodesPath, 0, 0 }, "", "", "", "the node list has no GPUs: a fragmentation study needs some");
        return std::nullopt;
    }
    input->nodesPath = nodesPath;
    input->podsPath = podsPath;
    return input;
}

} // namespace drasim::fragstudy

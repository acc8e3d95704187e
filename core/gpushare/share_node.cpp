// SPDX-License-Identifier: Apache-2.0
#include "core/gpushare/share_node.h"

#include <algorithm>

namespace drasim::gpushare {

int ModelTable::idOf(const std::string& model)
{
    int id = find(model);
    if (id >= 0)
        return id;
    if (int(m_names.size()) >= kMaxModels)
        return -1;
    m_names.push_back(model);
    return int(m_names.size()) - 1;
}

int ModelTable::find(const std::string& model) const
{
    auto it = std::find(m_names.begin(), m_names.end(), model);
    return it == m_names.end() ? -1 : int(it - m_names.begin());
}

int64_t ShareNode::gpuFreeTotal() const
{
    int64_t total = 0;
    for (int32_t milli : gpuFreeMilli)
        total += milli;
    return total;
}

int ShareNode::fullyFreeGpus() const
{
    return int(std::count(gpuFreeMilli.begin(), gpuFreeMilli.end(), kMilliPerGpu));
}

uint32_t SharePod::clusteringTag() const
{
    if (gpuCount == 0)
        return 0;
    if (sharesGpu())
        return 1u;
    return 1u << std::min(gpuCount, 31);
}

bool modelAllowed(const ShareNode& node, const SharePod& pod)
{
    if (pod.models == 0)
        return true;
    return node.model >= 0 && (pod.models >> node.model & 1u) != 0;
}

int gpusWithFree(const ShareNode& node, int32_t milli)
{
    int n = 0;
    for (int32_t free : node.gpuFreeMilli)
        n += free >= milli ? 1 : 0;
    return n;
}

bool fits(const ShareNode& node, const SharePod& pod)
{
    if (node.cpuFreeMilli < pod.cpuMilli || node.memoryFreeMiB < pod.memoryMiB)
        return false;
    if (pod.gpuCount == 0)
        return true;
    return modelAllowed(node, pod) && gpusWithFree(node, pod.gpuMilli) >= pod.gpuCount;
}

void place(ShareNode& node, const SharePod& pod, const std::vector<int>& gpus)
{
    node.cpuFreeMilli -= pod.cpuMilli;
    node.memoryFreeMiB -= pod.memoryMiB;
    for (int gpu : gpus)
        node.gpuFreeMilli[size_t(gpu)] -= pod.gpuMilli;
    node.gpuTags |= pod.clusteringTag();
}

} // namespace drasim::gpushare

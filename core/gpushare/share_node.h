// SPDX-License-Identifier: Apache-2.0
#pragma once

// A node and a pod as the GPU-sharing scoring policies see them: free CPU and memory, and the
// free thousandths ("milli") of each GPU. This is the resource model of the fragmentation study
// (Weng et al., "Beware of Fragmentation", USENIX ATC '23) and of its simulator
// (hkust-adsl/kubernetes-scheduler-simulator, pkg/type/resource.go): a pod asks for `gpuCount`
// GPUs with `gpuMilli` free each, and only single-GPU pods share (gpuMilli < 1000). GPU models
// are small integers (ids of a ModelTable) and a pod's allowed models a bit set, so that the
// policies, which run for every node of every pod, compare integers.

#include <cstdint>
#include <string>
#include <vector>

namespace drasim::gpushare {

inline constexpr int32_t kMilliPerGpu = 1000;
/// The largest node of the Alibaba cluster (128 cores, 8 GPUs): the study's normalising
/// constants MaxSpecCpu and MaxSpecGpu (pkg/type/open-gpu-share/utils/const.go).
inline constexpr int64_t kMaxSpecCpuMilli = 128000;
inline constexpr int64_t kMaxSpecGpuMilli = 8000;
/// At most this many GPU models in one cluster (the bit set of a pod's allowed models).
inline constexpr int kMaxModels = 64;

/// GPU models by name, numbered in order of first sight.
class ModelTable
{
public:
    int idOf(const std::string& model); ///< adds the model if new; -1 when the table is full
    int find(const std::string& model) const; ///< -1 when unknown
    const std::vector<std::string>& names() const { return m_names; }

private:
    std::vector<std::string> m_names;
};

struct ShareNode
{
    int64_t cpuFreeMilli = 0;
    int64_t memoryFreeMiB = 0;
    int model = -1; ///< ModelTable id; -1 for a node without GPUs
    std::vector<int32_t> gpuFreeMilli; ///< one entry per GPU, in device index order
    /// GPU Clustering's tags of the GPU pods on the node (bit 0: sharing pods, bit k: k-GPU pods).
    uint32_t gpuTags = 0;

    int64_t gpuFreeTotal() const;
    int fullyFreeGpus() const;
};

struct SharePod
{
    int64_t cpuMilli = 0;
    int64_t memoryMiB = 0;
    int32_t gpuCount = 0; ///< 0 for a CPU-only pod
    int32_t gpuMilli = 0; ///< per GPU; 0 for a CPU-only pod, < 1000 only when gpuCount == 1
    uint64_t models = 0; ///< allowed models (bit = ModelTable id); 0 means any

    bool sharesGpu() const { return gpuCount == 1 && gpuMilli < kMilliPerGpu; }
    int64_t gpuMilliTotal() const { return int64_t(gpuCount) * gpuMilli; }
    /// GPU Clustering's tag bit: 1 for a sharing pod, 1 << k for a k-GPU pod (k capped at 31),
    /// 0 for a CPU-only pod.
    uint32_t clusteringTag() const;
};

/// Whether the node's GPU model is one the pod accepts (a CPU-only pod accepts any node).
bool modelAllowed(const ShareNode& node, const SharePod& pod);

/// How many of the node's GPUs have at least `milli` free.
int gpusWithFree(const ShareNode& node, int32_t milli);

/// The study's filter: NodeResourcesFit on cpu and memory, then the GPU-share filter (model and
/// enough GPUs with enough free milli; whole-GPU pods need fully free GPUs).
bool fits(const ShareNode& node, const SharePod& pod);

/// Takes the pod's resources from the node: CPU, memory, `gpus` (the GPU indices the device
/// choice returned) and the pod's clustering tag.
void place(ShareNode& node, const SharePod& pod, const std::vector<int>& gpus);

} // namespace drasim::gpushare

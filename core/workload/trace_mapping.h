// SPDX-License-Identifier: Apache-2.0
#pragma once

// How trace GPU demands and GPU nodes become DRA objects. Shared by the Alibaba 2023 reader and
// the generic CSV trace. Every mapping decision is written next to the code in trace_mapping.cpp;
// the short version:
//  * one driver, gpu.trace.drasim.dev; a node's GPUs are one ResourceSlice (pool = node name)
//    with devices gpu-0..gpu-N-1 carrying attributes type="gpu", model (trace code, e.g.
//    "V100M32"), productName, index, and capacity gpuMilli (1000) plus memory where the model
//    discloses it;
//  * GpuSharing::Capacity: every GPU has allowMultipleAllocations and gpuMilli is consumable
//    (requestPolicy default 1000, validRange 10..1000 step 10); a pod with num_gpu=1 and
//    gpu_milli<1000 requests capacity {gpuMilli: <milli>}, a whole-GPU pod requests 1000 of each;
//  * GpuSharing::Partitions: every GPU is a counter set (milli: 1000) with the whole GPU and
//    `partitionsPerGpu` equal partitions as devices (K8s 1.35 layout: one counters-only slice plus
//    one slice per GPU); a shared pod asks for ceil(milli/partSize) partitions of one GPU
//    (matchAttribute parentGpu), a whole-GPU pod for the full GPU device;
//  * num_gpu → count; gpu_spec "A|B" → selector `model in ["A", "B"]` (GpuSpecMode::Selector) or a
//    firstAvailable list with one subrequest per model in the listed order (duplicates dropped).

#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "core/api/object_set.h"
#include "core/workload/workload_spec.h"

namespace drasim::workload {

inline constexpr const char* kTraceDriver = "gpu.trace.drasim.dev";
inline constexpr const char* kTraceGpuClass = "gpu.trace.drasim.dev";
inline constexpr const char* kTracePartitionClass = "partition.gpu.trace.drasim.dev";
inline constexpr const char* kTraceClaimName = "gpu"; ///< pod.spec.resourceClaims[].name

struct TraceGpuNode
{
    std::string name;
    int64_t cpuMilli = 0;
    int64_t memoryMiB = 0;
    int32_t gpus = 0;
    std::string model;
    SourcePos pos;
};

/// Nodes, one ResourceSlice set per node, and the DeviceClass(es), in node order.
api::ObjectSet traceClusterObjects(
    const std::vector<TraceGpuNode>& nodes, GpuSharing sharing, int32_t partitionsPerGpu);

/// The DeviceClass(es) of the trace driver (also emitted by traceClusterObjects).
std::vector<api::DeviceClass> traceDeviceClasses(GpuSharing sharing);

/// partitionsPerGpu must divide 1000 and give at most 63 partitions (64 devices per slice).
std::string validatePartitions(int32_t partitionsPerGpu);

/// The pod template of trace rows: one pause container with these requests (requests only, no
/// limits: a trace records requests) and, unless claimTemplate is "", the claim `claimName` made
/// from it, used whole by the container.
std::shared_ptr<const api::PodTemplateSpec> tracePodTemplate(const std::string& namespace_,
    const std::optional<Quantity>& cpu, const std::optional<Quantity>& memory,
    const std::string& claimTemplate, const std::string& claimName);

struct TraceGpuDemand
{
    int32_t count = 0; ///< num_gpu
    int32_t milli = 1000; ///< gpu_milli (only < 1000 when count == 1)
    std::vector<std::string> models; ///< allowed models, deduplicated, listed order; empty = any
};

/// Turns trace rows into pods and claim templates, sharing pod templates between rows with the
/// same shape and emitting each claim template once (on the first job that needs it).
class TracePodFactory
{
public:
    TracePodFactory(
        std::string namespace_, GpuSpecMode specMode, GpuSharing sharing, int32_t partitionsPerGpu);

    /// Requests whole devices of this DeviceClass instead of the trace driver's (trace.deviceClass):
    /// num_gpu devices, a GPU share rounded up to one device, model lists dropped.
    void setDeviceClass(std::string deviceClass)
    {
        m_deviceClass = std::move(deviceClass);
        m_rowShapes.clear(); // their templates name the other class
        m_shared.reset(); // and those of the other configuration
    }

    /// Fills job.tasks[0].pod (and job.claimTemplates the first time a template is used).
    void fill(JobSpec& job, int64_t cpuMilli, int64_t memoryMiB, const TraceGpuDemand& gpu);
    /// The same with requests as quantities (generic CSV); nullopt = no request.
    void fill(JobSpec& job, const std::optional<Quantity>& cpu, const std::optional<Quantity>& memory,
        const TraceGpuDemand& gpu);

    /// The claim template for a demand (exposed for tests).
    api::ResourceClaimTemplate claimTemplate(const TraceGpuDemand& gpu) const;
    static std::string templateName(const TraceGpuDemand& gpu);
    /// "trace-gpu-nvidia-com-2" with setDeviceClass("gpu.nvidia.com").
    std::string classTemplateName(const TraceGpuDemand& gpu) const;

    /// The rows' own numbers: cpu_milli, memory_mib, num_gpu, gpu_milli, models.
    using RowShape = std::tuple<int64_t, int64_t, int32_t, int32_t, std::vector<std::string>>;
    /// What a shape becomes: its pod template and the name of its claim template ("" for none).
    struct ShapeTemplates
    {
        std::shared_ptr<const api::PodTemplateSpec> pod;
        std::string claimTemplate;
    };
    /// The templates every factory of one configuration shares (trace_mapping.cpp).
    struct Shared;

private:
    Shared& shared();
    ShapeTemplates templatesFor(
        const std::optional<Quantity>& cpu, const std::optional<Quantity>& memory, const TraceGpuDemand& gpu);
    void use(JobSpec& job, const ShapeTemplates& shape, const TraceGpuDemand& gpu);

    std::string m_namespace;
    GpuSpecMode m_specMode;
    GpuSharing m_sharing;
    int32_t m_partitions;
    std::string m_deviceClass;
    std::set<std::string> m_emittedTemplates;
    /// The templates of this configuration, built once for every factory of it in the process (a
    /// study runs hundreds of simulations of one trace, each with a factory of its own); fetched
    /// at the first fill.
    std::shared_ptr<Shared> m_shared;
    /// The shapes this factory has met (their claim templates emitted): later rows of a shape
    /// skip the shared store's lock and the formatting of quantities and names.
    std::map<RowShape, std::shared_ptr<const api::PodTemplateSpec>> m_rowShapes;
};

/// Splits "A|B|B" into {"A","B"} (empty string → empty list).
std::vector<std::string> splitGpuSpec(const std::string& spec);

} // namespace drasim::workload

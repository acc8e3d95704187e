// SPDX-License-Identifier: Apache-2.0
#include "core/workload/trace_mapping.h"

#include <algorithm>
#include <deque>
#include <mutex>

namespace drasim::workload {

namespace {

constexpr int64_t kMiB = 1024 * 1024;
constexpr int64_t kGiB = 1024 * kMiB;

struct ModelInfo
{
    const char* code;
    const char* productName;
    int64_t memoryBytes; ///< 0 = undisclosed
};

// Decision: product names and memory sizes from the public specs of the models the codes name.
// The trace gives no GPU memory; V100M16/V100M32 encode it, the others are the boards' sizes.
// G2 and G3 are internal codes without public specs: they get no memory capacity at all rather
// than an invented one, so selectors reading memory must guard with `in` (as real selectors do).
constexpr ModelInfo kModels[] = {
    { "P100", "Tesla P100-PCIE-16GB", 16 * kGiB },
    { "T4", "Tesla T4", 16 * kGiB },
    { "V100M16", "Tesla V100-SXM2-16GB", 16 * kGiB },
    { "V100M32", "Tesla V100-SXM2-32GB", 32 * kGiB },
    { "A10", "NVIDIA A10", 24 * kGiB },
    { "G2", "G2", 0 },
    { "G3", "G3", 0 },
};

ModelInfo modelInfo(const std::string& code)
{
    for (const ModelInfo& m : kModels)
        if (code == m.code)
            return m;
    return ModelInfo { nullptr, nullptr, 0 };
}

api::DeviceAttribute strAttr(std::string s)
{
    api::DeviceAttribute a;
    a.type = api::DeviceAttribute::Type::String;
    a.stringValue = std::move(s);
    return a;
}

api::DeviceAttribute intAttr(int64_t v)
{
    api::DeviceAttribute a;
    a.type = api::DeviceAttribute::Type::Int;
    a.intValue = v;
    return a;
}

std::string lower(std::string s)
{
    for (char& c : s)
        if (c >= 'A' && c <= 'Z')
            c = char(c - 'A' + 'a');
    return s;
}

// A CEL string literal; model codes are alphanumeric, but a generic CSV may hold anything.
std::string celString(const std::string& s)
{
    std::string out = "\"";
    for (char c : s) {
        if (c == '"' || c == '\\')
            out += '\\';
        out += c;
    }
    return out + "\"";
}

std::string modelAttrExpr()
{
    return std::string("device.attributes[\"") + kTraceDriver + "\"].model";
}

void addCommonAttributes(api::Device& d, const TraceGpuNode& node, int32_t index, const char* type)
{
    const ModelInfo info = modelInfo(node.model);
    d.attributes["type"] = strAttr(type);
    d.attributes["model"] = strAttr(node.model);
    d.attributes["productName"] = strAttr(info.productName ? info.productName : node.model);
    d.attributes["index"] = intAttr(index);
}

api::ObjectMeta sliceMeta(const std::string& name, const TraceGpuNode& node)
{
    api::ObjectMeta m;
    m.name = name;
    m.pos = node.pos;
    return m;
}

} // namespace

std::string validatePartitions(int32_t p)
{
    if (p < 2 || p > 63 || 1000 % p != 0)
        return "partitionsPerGpu must divide 1000 and be between 2 and 63 (2, 4, 5, 8, 10, 20, 25, 40, 50), "
               "got "
            + std::to_string(p);
    return {};
}

std::vector<api::DeviceClass> traceDeviceClasses(GpuSharing sharing)
{
    std::vector<api::DeviceClass> classes;
    const std::string driverExpr = std::string("device.driver == \"") + kTraceDriver + "\"";
    auto make = [&](const char* name, std::string expr) {
        api::DeviceClass c;
        c.meta.name = name;
        c.selectors.push_back(api::DeviceSelector { std::move(expr), {} });
        classes.push_back(std::move(c));
    };
    const std::string typeExpr = std::string("device.attributes[\"") + kTraceDriver + "\"].type";
    if (sharing == GpuSharing::Capacity) {
        make(kTraceGpuClass, driverExpr);
    } else {
        make(kTraceGpuClass, driverExpr + " && " + typeExpr + " == \"gpu\"");
        make(kTracePartitionClass, driverExpr + " && " + typeExpr + " == \"partition\"");
    }
    return classes;
}

api::ObjectSet traceClusterObjects(
    const std::vector<TraceGpuNode>& nodes, GpuSharing sharing, int32_t partitionsPerGpu)
{
    api::ObjectSet out;
    out.deviceClasses = traceDeviceClasses(sharing);
    for (const TraceGpuNode& n : nodes) {
        api::Node node;
        node.meta.name = n.name;
        node.meta.pos = n.pos;
        node.meta.labels["kubernetes.io/hostname"] = n.name;
        node.meta.labels["drasim.dev/gpu-model"] = n.model;
        node.capacity["cpu"] = Quantity::fromMilli(n.cpuMilli);
        node.capacity["memory"] = Quantity::fromInt(n.memoryMiB * kMiB, Quantity::Format::BinarySI);
        // Decision: the kubelet default of 110 pods; the trace gives no pod limit.
        node.capacity["pods"] = Quantity::fromInt(110);
        node.allocatable = node.capacity;
        out.nodes.push_back(std::move(node));
        if (n.gpus <= 0)
            continue;

        const ModelInfo info = modelInfo(n.model);
        if (sharing == GpuSharing::Capacity) {
            api::ResourceSlice slice;
            slice.meta = sliceMeta(n.name + "-gpu-trace", n);
            slice.driver = kTraceDriver;
            slice.pool = api::ResourcePool { n.name, 1, 1 };
            slice.nodeName = n.name;
            for (int32_t i = 0; i < n.gpus; ++i) {
                api::Device d;
                d.name = "gpu-" + std::to_string(i);
                d.pos = n.pos;
                addCommonAttributes(d, n, i, "gpu");
                d.allowMultipleAllocations = true;
                // gpuMilli is the shared resource: a request without it takes the whole GPU
                // (default 1000); the 10-milli step is the granularity of the trace's values.
                api::DeviceCapacity milli;
                milli.value = Quantity::fromInt(1000);
                api::CapacityRequestPolicy policy;
                policy.defaultValue = Quantity::fromInt(1000);
                policy.validRange = api::CapacityRequestPolicyRange { Quantity::fromInt(10),
                    Quantity::fromInt(1000), Quantity::fromInt(10) };
                milli.requestPolicy = policy;
                d.capacity["gpuMilli"] = milli;
                if (info.memoryBytes > 0) {
                    // Trace pods state no GPU memory, so a share consumes none by default (a
                    // request may still ask for some); memory is there for selectors and for
                    // other workloads that do request it.
                    api::DeviceCapacity mem;
                    mem.value = Quantity::fromInt(info.memoryBytes, Quantity::Format::BinarySI);
                    api::CapacityRequestPolicy memPolicy;
                    memPolicy.defaultValue = Quantity::fromInt(0, Quantity::Format::BinarySI);
                    memPolicy.validRange
                        = api::CapacityRequestPolicyRange { Quantity::fromInt(0), mem.value, {} };
                    mem.requestPolicy = memPolicy;
                    d.capacity["memory"] = mem;
                }
                slice.devices.push_back(std::move(d));
            }
            out.resourceSlices.push_back(std::move(slice));
            continue;
        }

        // Partitions: K8s 1.35+ layout, counters in their own slice, one device slice per GPU
        // (each GPU has 1 + P devices that consume counters, under the 64-device limit).
        const int32_t p = partitionsPerGpu;
        const int64_t part = 1000 / p;
        const int64_t sliceCount = 1 + n.gpus;
        api::ResourceSlice counters;
        counters.meta = sliceMeta(n.name + "-gpu-trace-counters", n);
        counters.driver = kTraceDriver;
        counters.pool = api::ResourcePool { n.name, 1, sliceCount };
        counters.nodeName = n.name;
        for (int32_t i = 0; i < n.gpus; ++i)
            counters.sharedCounters.push_back(api::CounterSet {
                "gpu-" + std::to_string(i) + "-counters", { { "milli", Quantity::fromInt(1000) } } });
        out.resourceSlices.push_back(std::move(counters));
        for (int32_t i = 0; i < n.gpus; ++i) {
            const std::string gpuName = "gpu-" + std::to_string(i);
            api::ResourceSlice slice;
            slice.meta = sliceMeta(n.name + "-gpu-trace-" + gpuName, n);
            slice.driver = kTraceDriver;
            slice.pool = api::ResourcePool { n.name, 1, sliceCount };
            slice.nodeName = n.name;
            api::Device whole;
            whole.name = gpuName;
            whole.pos = n.pos;
            addCommonAttributes(whole, n, i, "gpu");
            whole.capacity["gpuMilli"].value = Quantity::fromInt(1000);
            if (info.memoryBytes > 0)
                whole.capacity["memory"].value
                    = Quantity::fromInt(info.memoryBytes, Quantity::Format::BinarySI);
            whole.consumesCounters.push_back(
                { gpuName + "-counters", { { "milli", Quantity::fromInt(1000) } }, {} });
            slice.devices.push_back(std::move(whole));
            for (int32_t k = 0; k < p; ++k) {
                api::Device d;
                d.name = gpuName + "-part-" + std::to_string(k);
                d.pos = n.pos;
                addCommonAttributes(d, n, i, "partition");
                d.attributes["parentGpu"] = strAttr(gpuName);
                d.attributes["partition"] = intAttr(k);
                d.capacity["gpuMilli"].value = Quantity::fromInt(part);
                if (info.memoryBytes > 0)
                    d.capacity["memory"].value
                        = Quantity::fromInt(info.memoryBytes / p, Quantity::Format::BinarySI);
                d.consumesCounters.push_back(
                    { gpuName + "-counters", { { "milli", Quantity::fromInt(part) } }, {} });
                slice.devices.push_back(std::move(d));
            }
            out.resourceSlices.push_back(std::move(slice));
        }
    }
    return out;
}

std::vector<std::string> splitGpuSpec(const std::string& spec)
{
    std::vector<std::string> out;
    size_t start = 0;
    while (start <= spec.size()) {
        size_t bar = spec.find('|', start);
        if (bar == std::string::npos)
            bar = spec.size();
        std::string model = spec.substr(start, bar - start);
        // Quirk of gpuspec33: "V100M16|V100M32|V100M32". Repeats add nothing; keep the first.
        if (!model.empty() && std::find(out.begin(), out.end(), model) == out.end())
            out.push_back(std::move(model));
        start = bar + 1;
    }
    return out;
}

TracePodFactory::TracePodFactory(
    std::string namespace_, GpuSpecMode specMode, GpuSharing sharing, int32_t partitionsPerGpu)
    : m_namespace(std::move(namespace_))
    , m_specMode(specMode)
    , m_sharing(sharing)
    , m_partitions(partitionsPerGpu)
{ }

std::string TracePodFactory::classTemplateName(const TraceGpuDemand& gpu) const
{
    std::string name = "trace-";
    for (char ch : m_deviceClass)
        name += std::isalnum(static_cast<unsigned char>(ch))
            ? char(std::tolower(static_cast<unsigned char>(ch)))
            : '-';
    return name + "-" + std::to_string(gpu.count);
}

std::string TracePodFactory::templateName(const TraceGpuDemand& gpu)
{
    std::string name = "trace-gpu-" + std::to_string(gpu.count) + "x" + std::to_string(gpu.milli);
    for (const std::string& m : gpu.models)
        name += "-" + lower(m);
    return name;
}

api::ResourceClaimTemplate TracePodFactory::claimTemplate(const TraceGpuDemand& gpu) const
{
    api::ResourceClaimTemplate t;
    t.meta.name = templateName(gpu);
    t.meta.namespace_ = m_namespace;
    if (!m_deviceClass.empty()) {
        t.meta.name = classTemplateName(gpu);
        api::DeviceRequest req;
        req.name = "gpu";
        api::DeviceRequestSpec spec;
        spec.deviceClassName = m_deviceClass;
        spec.count = gpu.count; // Decision: a share of one GPU takes a whole device of the class
        req.exactly = spec;
        t.spec.requests.push_back(std::move(req));
        return t;
    }
    const bool shared = gpu.count == 1 && gpu.milli < 1000;

    api::DeviceRequestSpec base;
    std::optional<api::DeviceConstraint> constraint;
    if (m_sharing == GpuSharing::Capacity) {
        base.deviceClassName = kTraceGpuClass;
        base.count = gpu.count;
        // Whole GPUs ask for all 1000 milli too: that makes them exclusive on a shareable device.
        base.capacity
            = api::CapacityRequirements { { { "gpuMilli", Quantity::fromInt(shared ? gpu.milli : 1000) } } };
    } else if (shared) {
        // Decision: round the share up to whole partitions; all of them on one GPU.
        const int64_t part = 1000 / m_partitions;
        base.deviceClassName = kTracePartitionClass;
        base.count = (gpu.milli + part - 1) / part;
        constraint
            = api::DeviceConstraint { { "gpu" }, std::string(kTraceDriver) + "/parentGpu", std::nullopt };
    } else {
        base.deviceClassName = kTraceGpuClass;
        base.count = gpu.count;
    }

    api::DeviceRequest req;
    req.name = "gpu";
    if (gpu.models.empty()) {
        req.exactly = base;
    } else if (m_specMode == GpuSpecMode::Selector) {
        api::DeviceRequestSpec spec = base;
        std::string expr;
        if (gpu.models.size() == 1) {
            expr = modelAttrExpr() + " == " + celString(gpu.models[0]);
        } else {
            expr = modelAttrExpr() + " in [";
            for (size_t i = 0; i < gpu.models.size(); ++i)
                expr += (i ? ", " : "") + celString(gpu.models[i]);
            expr += "]";
        }
        spec.selectors.push_back(api::DeviceSelector { expr, {} });
        req.exactly = spec;
    } else {
        // firstAvailable: the listed order is the preference order (the trace lists models
        // alphabetically, so this prefers e.g. V100M16 over V100M32, like a user listing cheaper first).
        for (const std::string& m : gpu.models) {
            api::DeviceSubRequest sub;
            sub.name = lower(m);
            sub.spec = base;
            sub.spec.selectors.push_back(api::DeviceSelector { modelAttrExpr() + " == " + celString(m), {} });
            req.firstAvailable.push_back(std::move(sub));
        }
    }
    t.spec.requests.push_back(std::move(req));
    if (constraint)
        t.spec.constraints.push_back(*constraint);
    return t;
}

/// The templates of one factory configuration (namespace, GPU spec mode, sharing, partitions and
/// device class), shared by all its factories. Simulations run in threads: `mutex` guards both.
struct TracePodFactory::Shared
{
    std::mutex mutex;
    std::map<std::string, std::shared_ptr<const api::PodTemplateSpec>>
        pods; ///< by requests and claim template
    std::map<RowShape, ShapeTemplates> shapes;
};

namespace {

using FactoryConfig = std::tuple<std::string, GpuSpecMode, GpuSharing, int32_t, std::string>;

/// The configurations met last: a study uses one or two, the desktop a handful.
constexpr size_t kKeptConfigurations = 8;

std::shared_ptr<TracePodFactory::Shared> sharedTemplates(FactoryConfig config)
{
    static std::mutex mutex;
    static std::deque<std::pair<FactoryConfig, std::shared_ptr<TracePodFactory::Shared>>> kept;
    std::lock_guard<std::mutex> lock(mutex);
    for (const auto& [known, templates] : kept)
        if (known == config)
            return templates;
    if (kept.size() >= kKeptConfigurations)
        kept.pop_front();
    return kept.emplace_back(std::move(config), std::make_shared<TracePodFactory::Shared>()).second;
}

} // namespace

std::shared_ptr<const api::PodTemplateSpec> tracePodTemplate(const std::string& namespace_,
    const std::optional<Quantity>& cpu, const std::optional<Quantity>& memory,
    const std::string& claimTemplate, const std::string& claimName)
{
    auto pod = std::make_shared<api::PodTemplateSpec>();
    pod->meta.namespace_ = namespace_;
    api::Container c;
    c.name = "main";
    c.image = "registry.k8s.io/pause:3.10";
    // Decision: requests only, no limits (the trace records requests).
    if (cpu)
        c.resources.requests["cpu"] = *cpu;
    if (memory)
        c.resources.requests["memory"] = *memory;
    if (!claimTemplate.empty()) {
        c.resources.claims.push_back(claimName);
        c.resources.claimRequests.push_back(""); // the whole claim
        pod->spec.resourceClaims.push_back(api::PodResourceClaim { claimName, std::nullopt, claimTemplate });
    }
    pod->spec.containers.push_back(std::move(c));
    return pod;
}

TracePodFactory::Shared& TracePodFactory::shared()
{
    if (!m_shared)
        m_shared = sharedTemplates({ m_namespace, m_specMode, m_sharing, m_partitions, m_deviceClass });
    return *m_shared;
}

void TracePodFactory::fill(JobSpec& job, int64_t cpuMilli, int64_t memoryMiB, const TraceGpuDemand& gpu)
{
    RowShape shape { cpuMilli, memoryMiB, gpu.count, gpu.milli, gpu.models };
    if (auto known = m_rowShapes.find(shape); known != m_rowShapes.end()) {
        if (job.tasks.empty())
            job.tasks.emplace_back();
        job.tasks[0].pod = known->second;
        return;
    }
    Shared& s = shared();
    std::optional<ShapeTemplates> made;
    {
        std::lock_guard<std::mutex> lock(s.mutex);
        if (auto it = s.shapes.find(shape); it != s.shapes.end())
            made = it->second;
    }
    if (!made) {
        // Decision: memory_mib 0 (it occurs in the trace) and cpu_milli 0 mean "no request".
        std::optional<Quantity> cpu, memory;
        if (cpuMilli > 0)
            cpu = Quantity::fromMilli(cpuMilli);
        if (memoryMiB > 0)
            memory = Quantity::fromInt(memoryMiB * kMiB, Quantity::Format::BinarySI);
        ShapeTemplates built = templatesFor(cpu, memory, gpu);
        std::lock_guard<std::mutex> lock(s.mutex);
        made = s.shapes.try_emplace(shape, std::move(built)).first->second;
    }
    use(job, *made, gpu);
    m_rowShapes.emplace(std::move(shape), made->pod);
}

void TracePodFactory::fill(JobSpec& job, const std::optional<Quantity>& cpu,
    const std::optional<Quantity>& memory, const TraceGpuDemand& gpu)
{
    use(job, templatesFor(cpu, memory, gpu), gpu);
}

TracePodFactory::ShapeTemplates TracePodFactory::templatesFor(
    const std::optional<Quantity>& cpu, const std::optional<Quantity>& memory, const TraceGpuDemand& gpu)
{
    ShapeTemplates out;
    if (gpu.count > 0)
        out.claimTemplate = m_deviceClass.empty() ? templateName(gpu) : classTemplateName(gpu);
    // Rows with the same shape share one immutable pod template.
    const std::string key
        = (cpu ? cpu->toString() : "") + "/" + (memory ? memory->toString() : "") + "/" + out.claimTemplate;
    Shared& s = shared();
    std::lock_guard<std::mutex> lock(s.mutex);
    auto it = s.pods.find(key);
    if (it == s.pods.end())
        it = s.pods
                 .emplace(key, tracePodTemplate(m_namespace, cpu, memory, out.claimTemplate, kTraceClaimName))
                 .first;
    out.pod = it->second;
    return out;
}

/// Gives the job the shape's pod template, and its claim template the first time this factory
/// uses one of that name.
void TracePodFactory::use(JobSpec& job, const ShapeTemplates& shape, const TraceGpuDemand& gpu)
{
    if (!shape.claimTemplate.empty() && m_emittedTemplates.insert(shape.claimTemplate).second)
        job.claimTemplates.push_back(claimTemplate(gpu));
    if (job.tasks.empty())
        job.tasks.emplace_back();
    job.tasks[0].pod = shape.pod;
}

} // namespace drasim::workload

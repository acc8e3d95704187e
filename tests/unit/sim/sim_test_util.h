// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "core/api/object_set.h"
#include "core/sim/simulator.h"
#include "core/workload/workload.h"

namespace drasim::sim::testing {

/// `count` nodes "<prefix>-<i>" with `gpus` devices "gpu-<j>" of driver gpu.example.com.
inline NodePool gpuPool(const std::string& prefix, int count, int gpus, double price = 0)
{
    NodePool pool;
    pool.name = prefix;
    pool.pricePerHour = price;
    for (int i = 0; i < count; ++i) {
        NodeSpec n;
        n.node.meta.name = prefix + "-" + std::to_string(i);
        api::ResourceSlice s;
        s.meta.name = n.node.meta.name + "-gpu";
        s.driver = "gpu.example.com";
        s.pool.name = n.node.meta.name;
        s.nodeName = n.node.meta.name;
        for (int j = 0; j < gpus; ++j) {
            api::Device d;
            d.name = "gpu-" + std::to_string(j);
            d.attributes["model"].stringValue = "A100";
            s.devices.push_back(d);
        }
        n.slices.push_back(s);
        pool.nodes.push_back(n);
    }
    return pool;
}

/// A one-task job arriving at `at` seconds whose pods need `gpus` devices for `seconds`.
inline workload::JobSpec gpuJob(const std::string& name, double at, double seconds, int gpus = 1,
    int32_t priority = 0, const std::string& workloadName = "w")
{
    workload::JobSpec job;
    job.name = name;
    job.workload = workloadName;
    job.arrivalSeconds = at;
    workload::TaskSpec task;
    task.name = name;
    auto tmpl = std::make_shared<api::PodTemplateSpec>();
    tmpl->meta.annotations["fake/gpus"] = std::to_string(gpus);
    api::PodResourceClaim claim;
    claim.name = "gpu";
    claim.resourceClaimTemplateName = "gpu-" + std::to_string(gpus);
    tmpl->spec.resourceClaims.push_back(claim);
    task.pod = tmpl;
    task.durationSeconds = seconds;
    task.priority = priority;
    job.tasks.push_back(task);
    return job;
}

/// Pool "gp" of `count` nodes "gp-<i>", each with `gpus` GPUs published by a device plugin (the
/// extended resource nvidia.com/gpu): preemption can free those, DRA devices it cannot (Kubernetes
/// up to 1.37).
inline NodePool devicePluginPool(int count = 1, int gpus = 1)
{
    NodePool pool;
    pool.name = "gp";
    for (int i = 0; i < count; ++i) {
        NodeSpec n;
        n.node.meta.name = "gp-" + std::to_string(i);
        for (const auto& [k, v] : { std::pair<std::string, std::string> { "cpu", "8" }, { "memory", "32Gi" },
                 { "pods", "110" }, { "nvidia.com/gpu", std::to_string(gpus) } })
            n.node.allocatable[k] = *Quantity::parse(v);
        n.node.capacity = n.node.allocatable;
        pool.nodes.push_back(n);
    }
    return pool;
}

/// gpuJob whose pods ask for `gpus` device-plugin GPUs (nvidia.com/gpu) instead of a claim.
inline workload::JobSpec pluginGpuJob(
    const std::string& name, double at, double seconds, int32_t priority, int gpus = 1)
{
    workload::JobSpec job = gpuJob(name, at, seconds, gpus, priority);
    auto tmpl = std::make_shared<api::PodTemplateSpec>();
    api::Container c;
    c.name = "main";
    c.resources.requests["nvidia.com/gpu"] = *Quantity::parse(std::to_string(gpus));
    c.resources.limits["nvidia.com/gpu"] = *Quantity::parse(std::to_string(gpus));
    tmpl->spec.containers.push_back(c);
    job.tasks[0].pod = tmpl;
    return job;
}

/// The class "gpu" for the pools of gpuPool() and the template "gpu-1" the jobs of gpuJob(..., 1)
/// use, as objects for a scheduler::Cluster.
inline api::ObjectSet oneGpuClassAndTemplate()
{
    api::ObjectSet o;
    api::DeviceClass cls;
    cls.meta.name = "gpu";
    o.deviceClasses.push_back(cls);
    api::ResourceClaimTemplate t;
    t.meta.name = "gpu-1";
    t.meta.namespace_ = "default";
    api::DeviceRequest r;
    r.name = "gpu";
    r.exactly.emplace();
    r.exactly->deviceClassName = "gpu";
    t.spec.requests.push_back(r);
    o.resourceClaimTemplates.push_back(t);
    return o;
}

/// oneGpuClassAndTemplate() plus the template "gpu-<count>", which asks for `count` devices of the
/// class.
inline api::ObjectSet withGpuTemplate(int count)
{
    api::ObjectSet o = oneGpuClassAndTemplate();
    api::ResourceClaimTemplate many = o.resourceClaimTemplates.front();
    many.meta.name = "gpu-" + std::to_string(count);
    many.spec.requests.front().exactly->count = count;
    o.resourceClaimTemplates.push_back(many);
    return o;
}

/// oneGpuClassAndTemplate() plus the template "gpu-2", which asks for two devices of the class.
inline api::ObjectSet oneAndTwoGpuTemplates()
{
    return withGpuTemplate(2);
}

inline std::unique_ptr<workload::ArrivalSource> source(std::vector<workload::JobSpec> jobs)
{
    return std::make_unique<workload::VectorSource>(std::move(jobs));
}

} // namespace drasim::sim::testing

// SPDX-License-Identifier: Apache-2.0
#pragma once

// Small builders for DRA objects in C++ tests (shared by the allocator and scheduler tests).

#include <string>
#include <vector>

#include "core/api/object_set.h"

namespace drasim::testing {

/// The driver of the tests' GPUs.
inline constexpr const char* kDrv = "gpu.example.com";

/// prefix + number; appended in place, since "x" + std::to_string(i) trips a GCC 12 -Wrestrict false
/// positive.
inline std::string numbered(const std::string& prefix, int64_t i)
{
    std::string s = prefix;
    s += std::to_string(i);
    return s;
}

inline Quantity q(const std::string& text)
{
    return *Quantity::parse(text);
}

inline api::DeviceAttribute strAttr(std::string v)
{
    api::DeviceAttribute a;
    a.type = api::DeviceAttribute::Type::String;
    a.stringValue = std::move(v);
    return a;
}

inline api::DeviceAttribute intAttr(int64_t v)
{
    api::DeviceAttribute a;
    a.type = api::DeviceAttribute::Type::Int;
    a.intValue = v;
    return a;
}

inline api::Device device(std::string name, std::map<std::string, api::DeviceAttribute> attrs = {},
    std::map<std::string, std::string> capacity = {})
{
    api::Device d;
    d.name = std::move(name);
    d.attributes = std::move(attrs);
    for (const auto& [k, v] : capacity)
        d.capacity[k] = api::DeviceCapacity { q(v), std::nullopt };
    return d;
}

inline api::ResourceSlice slice(std::string name, std::string driver, std::string pool, std::string node,
    std::vector<api::Device> devices)
{
    api::ResourceSlice s;
    s.meta.name = std::move(name);
    s.driver = std::move(driver);
    s.pool.name = std::move(pool);
    if (!node.empty())
        s.nodeName = std::move(node);
    else
        s.allNodes = true;
    s.devices = std::move(devices);
    return s;
}

inline api::DeviceClass deviceClass(std::string name, std::vector<std::string> selectors = {})
{
    api::DeviceClass c;
    c.meta.name = std::move(name);
    for (auto& s : selectors)
        c.selectors.push_back(api::DeviceSelector { std::move(s), {} });
    return c;
}

inline api::DeviceRequestSpec requestSpec(
    std::string cls, int64_t count = 1, std::vector<std::string> selectors = {})
{
    api::DeviceRequestSpec r;
    r.deviceClassName = std::move(cls);
    r.count = count;
    for (auto& s : selectors)
        r.selectors.push_back(api::DeviceSelector { std::move(s), {} });
    return r;
}

inline api::DeviceRequest exactRequest(std::string name, api::DeviceRequestSpec spec)
{
    api::DeviceRequest r;
    r.name = std::move(name);
    r.exactly = std::move(spec);
    return r;
}

/// A request of alternatives (firstAvailable), in order of preference.
inline api::DeviceRequest alternativesRequest(std::string name, std::vector<api::DeviceSubRequest> subs)
{
    api::DeviceRequest r;
    r.name = std::move(name);
    r.firstAvailable = std::move(subs);
    return r;
}

inline api::ResourceClaim claim(std::string name, std::vector<api::DeviceRequest> requests)
{
    api::ResourceClaim c;
    c.meta.name = std::move(name);
    c.meta.namespace_ = "default";
    c.spec.requests = std::move(requests);
    return c;
}

inline api::Node node(std::string name, std::map<std::string, std::string> labels = {}, std::string cpu = "8",
    std::string memory = "32Gi")
{
    api::Node n;
    n.meta.name = std::move(name);
    n.meta.labels = std::move(labels);
    n.allocatable["cpu"] = q(cpu);
    n.allocatable["memory"] = q(memory);
    n.allocatable["pods"] = q("110");
    n.capacity = n.allocatable;
    return n;
}

inline api::Pod pod(std::string name, std::vector<std::pair<std::string, std::string>> claims = {},
    std::vector<std::pair<std::string, std::string>> templates = {})
{
    api::Pod p;
    p.meta.name = std::move(name);
    p.meta.namespace_ = "default";
    p.meta.uid = "uid-" + p.meta.name;
    api::Container c;
    c.name = "main";
    p.spec.containers.push_back(c);
    for (auto& [n, c2] : claims)
        p.spec.resourceClaims.push_back(api::PodResourceClaim { n, c2, std::nullopt });
    for (auto& [n, t] : templates)
        p.spec.resourceClaims.push_back(api::PodResourceClaim { n, std::nullopt, t });
    return p;
}

/// The DeviceClass "gpu" (every device of gpu.example.com) and the ResourceClaimTemplate
/// default/one-gpu asking for one device of it.
inline void addOneGpuClassAndTemplate(api::ObjectSet& o)
{
    o.deviceClasses.push_back(deviceClass("gpu", { "device.driver == \"gpu.example.com\"" }));
    api::ResourceClaimTemplate t;
    t.meta.name = "one-gpu";
    t.meta.namespace_ = "default";
    t.spec.requests.push_back(exactRequest("gpu", requestSpec("gpu")));
    o.resourceClaimTemplates.push_back(std::move(t));
}

} // namespace drasim::testing

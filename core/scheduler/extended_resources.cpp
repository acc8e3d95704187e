// SPDX-License-Identifier: Apache-2.0
#include "core/scheduler/extended_resources.h"

#include <algorithm>

namespace drasim::scheduler {

namespace {

bool isNativeResource(const std::string& name)
{
    return name.find('/') == std::string::npos || name.find("kubernetes.io/") != std::string::npos;
}

/// schedutil.IsDRAExtendedResourceName: an extended resource, or a class's implicit name (which
/// lives in kubernetes.io and so is not "extended" by the API's definition).
bool isDraExtendedResourceName(const std::string& name)
{
    return !isNativeResource(name) || name.rfind(kDeviceClassResourcePrefix, 0) == 0;
}

/// The container's request for the resource as a whole number, 0 when absent (validation makes
/// extended resources whole numbers; the implicit names are not checked, so fractions are skipped
/// as upstream's AsInt64 skips them).
int64_t containerCount(const api::Container& c, const std::string& resource)
{
    auto it = c.resources.requests.find(resource);
    if (it == c.resources.requests.end())
        return 0;
    return it->second.kubernetesAsInt64().value_or(0);
}

/// Index of the resource among the container's request names in sorted order (a std::map's order).
size_t requestIndex(const api::Container& c, const std::string& resource)
{
    size_t i = 0;
    for (const auto& [name, q] : c.resources.requests) {
        if (name == resource)
            return i;
        ++i;
    }
    return 0;
}

api::DeviceRequest exactRequest(std::string name, const std::string& className, int64_t count)
{
    api::DeviceRequest r;
    r.name = std::move(name);
    api::DeviceRequestSpec spec;
    spec.deviceClassName = className;
    spec.allocationMode = "ExactCount";
    spec.count = count;
    r.exactly = std::move(spec);
    return r;
}

} // namespace

std::map<std::string, std::string> extendedResourceClasses(
    const std::map<std::string, api::DeviceClass>& classes)
{
    std::map<std::string, std::string> out;
    // Explicit names first, in class name order, so the class that sorts first keeps a name two
    // classes share, and an explicit name beats another class's equal implicit name.
    for (const auto& [name, c] : classes)
        if (c.extendedResourceName)
            out.try_emplace(*c.extendedResourceName, name);
    for (const auto& [name, c] : classes)
        out.try_emplace(kDeviceClassResourcePrefix + name, name);
    return out;
}

DraBackedResources draBackedResources(
    const PodRequests& req, const std::map<std::string, std::string>& classOfResource)
{
    DraBackedResources out;
    if (classOfResource.empty())
        return out;
    for (const auto& [name, count] : req.requests.scalar) {
        if (count <= 0 || !isDraExtendedResourceName(name))
            continue;
        auto it = classOfResource.find(name);
        if (it == classOfResource.end())
            continue;
        out.resources.push_back(name);
        out.classes.push_back(it->second);
        if (out.resources.size() == 64)
            break; // the mask has 64 bits; validation allows far fewer resources per pod in practice
    }
    return out;
}

uint64_t servedByDraMask(const DraBackedResources& backed, const NodeUsage& usage)
{
    uint64_t mask = 0;
    for (size_t i = 0; i < backed.resources.size(); ++i) {
        auto it = usage.allocatable.scalar.find(backed.resources[i]);
        if (it == usage.allocatable.scalar.end() || it->second == 0)
            mask |= uint64_t(1) << i;
    }
    return mask;
}

PodRequests withoutDraServed(const PodRequests& req, const DraBackedResources& backed, uint64_t mask)
{
    PodRequests out = req;
    for (size_t i = 0; i < backed.resources.size(); ++i)
        if (mask & (uint64_t(1) << i))
            out.requests.scalar.erase(backed.resources[i]);
    return out;
}

ExtendedResourceClaim buildExtendedResourceClaim(
    const api::Pod& pod, const DraBackedResources& backed, uint64_t mask)
{
    ExtendedResourceClaim out;
    auto& meta = out.claim.meta;
    meta.namespace_ = pod.meta.namespace_.empty() ? std::string("default") : pod.meta.namespace_;
    meta.generateName = pod.meta.name + "-extended-resources-";
    // The API server's name generator keeps at most 58 characters of the base.
    meta.name = meta.generateName.substr(0, 58) + "00000";
    meta.annotations[kExtendedResourceClaimAnnotation] = "true";
    meta.ownerReferences.push_back(api::OwnerReference { "v1", "Pod", pod.meta.name, pod.meta.uid, true });

    // Init containers first, then the regular ones: the container index of the request names.
    std::vector<const api::Container*> containers;
    for (const auto& c : pod.spec.initContainers)
        containers.push_back(&c);
    for (const auto& c : pod.spec.containers)
        containers.push_back(&c);
    const size_t firstRegular = pod.spec.initContainers.size();

    std::vector<api::DeviceRequest> requests;
    for (size_t k = 0; k < backed.resources.size(); ++k) {
        if (!(mask & (uint64_t(1) << k)))
            continue;
        const std::string& resource = backed.resources[k];
        const std::string& className = backed.classes[k];
        auto nameFor = [&](size_t i, const api::Container& c) {
            return "container-" + std::to_string(i) + "-request-" + std::to_string(requestIndex(c, resource));
        };
        // Regular containers run together: each gets its own request.
        std::vector<api::ContainerExtendedResourceRequest> longLived, shortLived;
        std::vector<std::pair<std::string, int64_t>> regularRequests; ///< (name, count) in container order
        for (size_t i = firstRegular; i < containers.size(); ++i) {
            const int64_t n = containerCount(*containers[i], resource);
            if (n <= 0)
                continue;
            std::string name = nameFor(i, *containers[i]);
            regularRequests.emplace_back(name, n);
            longLived.push_back({ containers[i]->name, resource, name });
            requests.push_back(exactRequest(std::move(name), className, n));
        }
        // Init containers run before them, one at a time: each first reuses the regular
        // containers' devices (in container order) and asks only for what is still missing; the
        // largest such request serves every init container that needed one.
        std::string maxName;
        int64_t maxCount = 0;
        std::vector<std::string> initNames; ///< names of init requests, to be renamed to the largest
        for (size_t i = 0; i < firstRegular; ++i) {
            const int64_t n = containerCount(*containers[i], resource);
            if (n <= 0)
                continue;
            int64_t sum = 0;
            bool covered = false;
            for (const auto& [name, count] : regularRequests) {
                sum += count;
                shortLived.push_back({ containers[i]->name, resource, name });
                if (sum >= n) {
                    covered = true;
                    break;
                }
            }
            if (covered)
                continue;
            std::string name = nameFor(i, *containers[i]);
            shortLived.push_back({ containers[i]->name, resource, name });
            initNames.push_back(name);
            if (maxName.empty() || n - sum > maxCount) {
                maxName = name;
                maxCount = n - sum;
            }
        }
        if (!maxName.empty()) {
            for (auto& m : shortLived)
                if (std::find(initNames.begin(), initNames.end(), m.requestName) != initNames.end())
                    m.requestName = maxName;
            requests.push_back(exactRequest(maxName, className, maxCount));
        }
        out.mappings.insert(out.mappings.end(), longLived.begin(), longLived.end());
        out.mappings.insert(out.mappings.end(), shortLived.begin(), shortLived.end());
    }
    std::sort(requests.begin(), requests.end(),
        [](const api::DeviceRequest& a, const api::DeviceRequest& b) { return a.name < b.name; });
    out.claim.spec.requests = std::move(requests);
    return out;
}

std::string extendedResourceClaimNote(const DraBackedResources& backed, uint64_t mask)
{
    std::string list;
    for (size_t i = 0; i < backed.resources.size(); ++i)
        if (mask & (uint64_t(1) << i))
            list += (list.empty() ? "" : ", ") + backed.resources[i];
    return "created at binding for the extended resources this node serves through DRA: " + list;
}

} // namespace drasim::scheduler

// SPDX-License-Identifier: Apache-2.0
#pragma once

// Extended resources backed by DRA (KEP-5004, feature gate DRAExtendedResource): a pod asking for
// an extended resource such as nvidia.com/gpu on a node that does not advertise it is served from a
// DeviceClass that names that resource (spec.extendedResourceName), or whose implicit name
// deviceclass.resource.kubernetes.io/<class> it asks for. kube-scheduler builds one special claim
// per pod and node with an ExactCount request per container and resource, allocates it after the
// pod's own claims, and creates it at binding.
//
// Decisions (upstream where it is deterministic):
// - The gate is on (beta and on by default since 1.36; the DRA semantics note asks simulators to
//   run with every DRA gate on). SchedulerOptions::draExtendedResources turns it off.
// - A node serves a resource through DRA when its allocatable for it is zero or absent and some
//   class maps it; a node that advertises the resource (device plugin) is checked by
//   NodeResourcesFit as before, even when it has too few. NodeResourcesFit skips the resources a
//   node serves through DRA.
// - Two classes naming the same extendedResourceName: upstream keeps whichever its informer saw
//   last; drasim takes the class whose name sorts first. An explicit name beats the implicit name
//   of another class.
// - Init containers are all treated as short-lived (drasim does not model sidecar restart
//   policies), as in the request computation of pod_info.h.
// - The created claim is named <pod>-extended-resources-<suffix> like upstream's generateName, with
//   the loader's deterministic suffix "00000" instead of a random one.

#include <map>
#include <string>
#include <vector>

#include "core/api/core_v1.h"
#include "core/api/resource_v1.h"
#include "core/scheduler/node_filters.h"
#include "core/scheduler/pod_info.h"

namespace drasim::scheduler {

inline constexpr const char* kDeviceClassResourcePrefix = "deviceclass.resource.kubernetes.io/";
inline constexpr const char* kExtendedResourceClaimAnnotation
    = "resource.kubernetes.io/extended-resource-claim";

/// Extended resource name -> DeviceClass name, for every class (explicit and implicit names).
std::map<std::string, std::string> extendedResourceClasses(
    const std::map<std::string, api::DeviceClass>& classes);

/// The pod's extended resources that some DeviceClass maps, with the class (sorted by resource).
/// Empty for almost every pod, which then takes none of the paths below.
struct DraBackedResources
{
    std::vector<std::string> resources;
    std::vector<std::string> classes; ///< parallel to resources
    bool empty() const { return resources.empty(); }
};
DraBackedResources draBackedResources(
    const PodRequests& req, const std::map<std::string, std::string>& classOfResource);

/// Bit i set: the node serves resources[i] through DRA (it does not advertise it).
uint64_t servedByDraMask(const DraBackedResources& backed, const NodeUsage& usage);

/// The pod's requests without the resources the mask serves through DRA: what NodeResourcesFit
/// checks on such a node.
PodRequests withoutDraServed(const PodRequests& req, const DraBackedResources& backed, uint64_t mask);

/// The special claim for one mask: requests container-<i>-request-<j> (i counts init containers
/// first, j is the resource's index among the container's sorted request names), sorted by name,
/// and the container mappings for the pod status. Named <pod>-extended-resources-00000, owned by
/// the pod, annotated as upstream annotates it.
struct ExtendedResourceClaim
{
    api::ResourceClaim claim;
    std::vector<api::ContainerExtendedResourceRequest> mappings;
};
ExtendedResourceClaim buildExtendedResourceClaim(
    const api::Pod& pod, const DraBackedResources& backed, uint64_t mask);

/// explain's note on the special claim: "created at binding for the extended resources this node
/// serves through DRA: nvidia.com/gpu".
std::string extendedResourceClaimNote(const DraBackedResources& backed, uint64_t mask);

} // namespace drasim::scheduler

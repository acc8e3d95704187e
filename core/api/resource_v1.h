// SPDX-License-Identifier: Apache-2.0
#pragma once

// resource.k8s.io/v1 objects: every field allocation reads or writes. v1beta1 and v1beta2 input is
// converted to these types by the loader.

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/api/meta.h"
#include "core/common/data_value.h"
#include "core/common/quantity.h"

namespace drasim::api {

/// A device attribute: exactly one typed value. Versions keep their text (semver) form.
struct DeviceAttribute
{
    enum class Type { Int, Bool, String, Version };
    Type type = Type::String;
    int64_t intValue = 0;
    bool boolValue = false;
    std::string stringValue; ///< String and Version
    bool operator==(const DeviceAttribute&) const = default;
};

struct CapacityRequestPolicyRange
{
    Quantity min;
    std::optional<Quantity> max;
    std::optional<Quantity> step;
};

struct CapacityRequestPolicy
{
    std::optional<Quantity> defaultValue;
    std::vector<Quantity> validValues;
    std::optional<CapacityRequestPolicyRange> validRange;
};

struct DeviceCapacity
{
    Quantity value;
    std::optional<CapacityRequestPolicy> requestPolicy;
};

struct DeviceCounterConsumption
{
    std::string counterSet;
    std::map<std::string, Quantity> counters;
    /// DRADeviceCompatibilityGroups (1.37 alpha): opaque names; devices on one counter set are
    /// allocated together only when they share one. Empty: no groups.
    std::vector<std::string> compatibilityGroups;
};

struct DeviceTaint
{
    std::string key;
    std::string value;
    std::string effect; ///< None, NoSchedule, NoExecute
    std::string timeAdded;
    /// The DeviceTaintRule this taint was merged in from; empty for the slice's own taints. Rule
    /// taints exist only in the scheduler's view of a slice and are never written back out.
    std::string rule {};
    /// Simulated seconds when the taint appeared (0: present from the start). NoExecute
    /// tolerationSeconds count from here, as the eviction controller counts from timeAdded.
    double appearedAt = 0;
};

/// Device.nodeAllocatableResources (DRANodeAllocatableResources, 1.37 alpha, KEP-5517): how an
/// allocation of the device counts against the node's allocatable cpu, memory or hugepages.
/// `mapping`: the device is that resource, deviceMultiplier per allocated device, or the consumed
/// capacity capacityKey times capacityMultiplier (default 1). `overhead`: the device costs that
/// much per pod and per container that references the claim, on top of what the pod requests.
struct NodeAllocatableMapping
{
    std::optional<Quantity> deviceMultiplier;
    std::optional<std::string> capacityKey;
    std::optional<Quantity> capacityMultiplier;
};

struct NodeAllocatableOverhead
{
    std::optional<Quantity> perPod;
    std::optional<Quantity> perContainer;
};

struct NodeAllocatableResource
{
    std::optional<NodeAllocatableMapping> mapping;
    std::optional<NodeAllocatableOverhead> overhead;
};

struct Device
{
    std::string name;
    /// Qualified attribute name as written ("model" or "dom.example.com/model") → value.
    std::map<std::string, DeviceAttribute> attributes;
    std::map<std::string, DeviceCapacity> capacity;
    std::vector<DeviceCounterConsumption> consumesCounters;
    std::optional<std::string> nodeName;
    std::optional<NodeSelector> nodeSelector;
    std::optional<bool> allNodes;
    std::vector<DeviceTaint> taints;
    std::optional<bool> bindsToNode;
    std::vector<std::string> bindingConditions;
    std::vector<std::string> bindingFailureConditions;
    std::optional<bool> allowMultipleAllocations;
    std::map<std::string, NodeAllocatableResource> nodeAllocatableResources;
    SourcePos pos;
};

struct CounterSet
{
    std::string name;
    std::map<std::string, Quantity> counters;
};

struct ResourcePool
{
    std::string name;
    int64_t generation = 0;
    int64_t resourceSliceCount = 1;
};

struct ResourceSlice
{
    ObjectMeta meta;
    std::string driver;
    ResourcePool pool;
    std::optional<std::string> nodeName;
    std::optional<NodeSelector> nodeSelector;
    std::optional<bool> allNodes;
    std::optional<bool> perDeviceNodeSelection;
    std::vector<Device> devices;
    std::vector<CounterSet> sharedCounters;
    /// DRAOptionalNodeOperations (1.37 alpha): the kubelet calls the driver skip these
    /// (NodePrepareResources, NodeUnprepareResources or "*"); copied into allocation results.
    std::vector<std::string> skipNodeOperations;
};

/// resource.k8s.io/v1alpha3 and v1beta2 DeviceTaintSelector. Since Kubernetes 1.35 it has only
/// these three fields (deviceClassName and CEL selectors were removed); all set ones must match.
struct DeviceTaintSelector
{
    std::optional<std::string> driver;
    std::optional<std::string> pool;
    std::optional<std::string> device;
};

/// DeviceTaintRule: one taint added to every device the selector matches, as if the driver had
/// published it in the ResourceSlice. Without a selector it matches no device.
struct DeviceTaintRule
{
    ObjectMeta meta;
    std::optional<DeviceTaintSelector> deviceSelector;
    DeviceTaint taint;
};

struct DeviceSelector
{
    std::string expression; ///< CEL
    SourcePos pos; ///< position of the expression scalar in its file
};

struct OpaqueDeviceConfiguration
{
    std::string driver;
    DataValue parameters; ///< kept verbatim
};

struct DeviceClass
{
    ObjectMeta meta;
    std::vector<DeviceSelector> selectors;
    std::vector<OpaqueDeviceConfiguration> config;
    std::optional<std::string> extendedResourceName;
};

struct DeviceToleration
{
    std::string key;
    std::string op; ///< Equal (default) or Exists
    std::string value;
    std::string effect;
    std::optional<int64_t> tolerationSeconds;
};

struct CapacityRequirements
{
    std::map<std::string, Quantity> requests;
};

/// DRADerivedAttributes (1.37 alpha, KEP-6080): a value computed per candidate device by a CEL
/// expression over `device`, seen only by the claim's matchAttribute/distinctAttribute
/// constraints, where it hides a driver attribute of the same name.
struct DeviceDerivedAttribute
{
    std::string name; ///< fully qualified: domain/identifier
    std::string expression; ///< CEL
    SourcePos pos; ///< position of the expression scalar in its file
};

/// Shared by ExactDeviceRequest and DeviceSubRequest (a subrequest never has adminAccess).
struct DeviceRequestSpec
{
    std::string deviceClassName;
    std::vector<DeviceSelector> selectors;
    std::string allocationMode = "ExactCount"; ///< ExactCount or All
    int64_t count = 1; ///< ExactCount only
    std::optional<bool> adminAccess;
    SourcePos adminAccessPos; ///< where adminAccess was written (the namespace check points there)
    std::vector<DeviceToleration> tolerations;
    std::optional<CapacityRequirements> capacity;
    std::vector<DeviceDerivedAttribute> derivedAttributes;
};

struct DeviceSubRequest
{
    std::string name;
    DeviceRequestSpec spec;
};

struct DeviceRequest
{
    std::string name;
    std::optional<DeviceRequestSpec> exactly;
    std::vector<DeviceSubRequest> firstAvailable;
};

struct DeviceConstraint
{
    std::vector<std::string> requests;
    std::optional<std::string> matchAttribute;
    std::optional<std::string> distinctAttribute;
};

struct DeviceClaimConfiguration
{
    std::vector<std::string> requests;
    OpaqueDeviceConfiguration opaque;
};

struct ResourceClaimSpec
{
    std::vector<DeviceRequest> requests;
    std::vector<DeviceConstraint> constraints;
    std::vector<DeviceClaimConfiguration> config;
};

struct DeviceRequestAllocationResult
{
    std::string request; ///< "req" or "req/sub"
    std::string driver;
    std::string pool;
    std::string device;
    std::optional<bool> adminAccess;
    std::vector<DeviceToleration> tolerations;
    std::vector<std::string> bindingConditions;
    std::vector<std::string> bindingFailureConditions;
    std::optional<std::string> shareID;
    std::map<std::string, Quantity> consumedCapacity;
    std::vector<std::string> skipNodeOperations; ///< copied from the device's slice
};

struct DeviceAllocationConfiguration
{
    std::string source; ///< FromClass or FromClaim
    std::vector<std::string> requests;
    OpaqueDeviceConfiguration opaque;
};

struct AllocationResult
{
    std::vector<DeviceRequestAllocationResult> results;
    std::vector<DeviceAllocationConfiguration> config;
    std::optional<NodeSelector> nodeSelector;
    std::string allocationTimestamp;
};

struct ResourceClaimConsumerReference
{
    std::string apiGroup;
    std::string resource = "pods";
    std::string name;
    std::string uid;
};

struct ResourceClaim
{
    ObjectMeta meta;
    ResourceClaimSpec spec;
    std::optional<AllocationResult> allocation;
    std::vector<ResourceClaimConsumerReference> reservedFor;
    bool deleting = false; ///< metadata.deletionTimestamp was set
};

struct ResourceClaimTemplate
{
    ObjectMeta meta;
    ObjectMeta claimMeta; ///< spec.metadata (labels/annotations copied to generated claims)
    ResourceClaimSpec spec;
};

} // namespace drasim::api

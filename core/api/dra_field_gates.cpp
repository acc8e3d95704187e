// SPDX-License-Identifier: Apache-2.0
#include "core/api/dra_field_gates.h"

#include <optional>
#include <vector>

namespace drasim::api {

const char* gateOfSliceField(std::string_view field)
{
    if (field == "sharedCounters" || field == "perDeviceNodeSelection")
        return "DRAPartitionableDevices";
    if (field == "skipNodeOperations")
        return "DRAOptionalNodeOperations";
    return nullptr;
}

// The binding fields also need DRAResourceClaimDeviceStatus, on in every version drasim models.
const char* gateOfDeviceField(std::string_view field)
{
    if (field == "consumesCounters" || field == "nodeName" || field == "nodeSelector" || field == "allNodes")
        return "DRAPartitionableDevices";
    if (field == "taints")
        return "DRADeviceTaints";
    if (field == "bindsToNode" || field == "bindingConditions" || field == "bindingFailureConditions")
        return "DRADeviceBindingConditions";
    if (field == "allowMultipleAllocations")
        return "DRAConsumableCapacity";
    return nullptr;
}

const char* gateOfCapacityField(std::string_view field)
{
    return field == "requestPolicy" ? "DRAConsumableCapacity" : nullptr;
}

const char* gateOfCounterConsumptionField(std::string_view field)
{
    return field == "compatibilityGroups" ? "DRADeviceCompatibilityGroups" : nullptr;
}

namespace {

template <typename T> bool isSet(const std::optional<T>& v)
{
    return v.has_value();
}

template <typename T> bool isSet(const std::vector<T>& v)
{
    return !v.empty();
}

// Clears `value` when the gate `gateOf(field)` names is off, recording it when it was set.
class Clearer
{
public:
    Clearer(const FeatureGates& gates, std::set<ClearedField>& cleared)
        : m_gates(gates)
        , m_cleared(cleared)
    { }

    template <typename T> void operator()(const char* gate, std::string_view path, T& value)
    {
        if (!gate || m_gates.enabled(gate))
            return;
        if (isSet(value))
            m_cleared.emplace(gate, std::string(path));
        value = T {};
    }

private:
    const FeatureGates& m_gates;
    std::set<ClearedField>& m_cleared;
};

void dropDisabledDeviceFields(Device& d, Clearer& clear)
{
    clear(gateOfDeviceField("consumesCounters"), "spec.devices[].consumesCounters", d.consumesCounters);
    for (auto& use : d.consumesCounters)
        clear(gateOfCounterConsumptionField("compatibilityGroups"),
            "spec.devices[].consumesCounters[].compatibilityGroups", use.compatibilityGroups);
    clear(gateOfDeviceField("nodeName"), "spec.devices[].nodeName", d.nodeName);
    clear(gateOfDeviceField("nodeSelector"), "spec.devices[].nodeSelector", d.nodeSelector);
    clear(gateOfDeviceField("allNodes"), "spec.devices[].allNodes", d.allNodes);
    clear(gateOfDeviceField("taints"), "spec.devices[].taints", d.taints);
    clear(gateOfDeviceField("bindsToNode"), "spec.devices[].bindsToNode", d.bindsToNode);
    clear(gateOfDeviceField("bindingConditions"), "spec.devices[].bindingConditions", d.bindingConditions);
    clear(gateOfDeviceField("bindingFailureConditions"), "spec.devices[].bindingFailureConditions",
        d.bindingFailureConditions);
    clear(gateOfDeviceField("allowMultipleAllocations"), "spec.devices[].allowMultipleAllocations",
        d.allowMultipleAllocations);
    for (auto& [name, c] : d.capacity)
        clear(
            gateOfCapacityField("requestPolicy"), "spec.devices[].capacity[].requestPolicy", c.requestPolicy);
}

} // namespace

std::set<ClearedField> dropDisabledSliceFields(ResourceSlice& slice, const FeatureGates& gates)
{
    std::set<ClearedField> cleared;
    Clearer clear(gates, cleared);
    clear(gateOfSliceField("sharedCounters"), "spec.sharedCounters", slice.sharedCounters);
    clear(gateOfSliceField("perDeviceNodeSelection"), "spec.perDeviceNodeSelection",
        slice.perDeviceNodeSelection);
    clear(gateOfSliceField("skipNodeOperations"), "spec.skipNodeOperations", slice.skipNodeOperations);
    for (auto& d : slice.devices)
        dropDisabledDeviceFields(d, clear);
    return cleared;
}

} // namespace drasim::api

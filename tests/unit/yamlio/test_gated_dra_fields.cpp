// SPDX-License-Identifier: Apache-2.0
// DRA fields behind feature gates that are off in Kubernetes 1.35 (DRAPartitionableDevices,
// DRAConsumableCapacity, DRADeviceTaints, DRADeviceBindingConditions): with a gate off the API
// server clears them on create, before validation (dropDisabledFields of the resourceslice and
// resourceclaim strategies), and the loader does the same with a warning per field.
#include <gtest/gtest.h>

#include "core/yamlio/loader.h"
#include "tests/unit/yamlio/load_messages.h"

using namespace drasim;

namespace {

yamlio::LoadOptions at(api::KubernetesVersion v, const std::string& gates = "")
{
    yamlio::LoadOptions o;
    o.gates = api::FeatureGates(v);
    EXPECT_EQ(o.gates.parse(gates), "");
    return o;
}

std::string messages(const yamlio::LoadResult& r, Severity severity)
{
    return drasim::testing::loadMessages(r, severity);
}

std::string dropped(
    int line, int column, const std::string& object, const std::string& path, const std::string& gate)
{
    return "s.yaml:" + std::to_string(line) + ":" + std::to_string(column) + ": warning: " + object + ": "
        + path + ": dropped: feature gate " + gate + " is disabled, so the API server clears this field\n";
}

// Every gated device field; the taint's effect and the binding conditions are invalid, which only
// validation of a stored field would report.
/// The six lines every slice here starts with (the driver on line 5, the pool on line 6).
const std::string kSliceHead = "apiVersion: resource.k8s.io/v1\n" // 1
                               "kind: ResourceSlice\n"
                               "metadata: {name: s}\n"
                               "spec:\n"
                               "  driver: gpu.example.com\n" // 5
                               "  pool: {name: p, generation: 1, resourceSliceCount: 1}\n";
const std::string kSlice = kSliceHead
    + "  nodeName: node-1\n"
      "  devices:\n"
      "  - name: d0\n"
      "    capacity:\n" // 10
      "      bw: {value: '4', requestPolicy: {default: '2', validValues: ['2', '4']}}\n"
      "    allowMultipleAllocations: true\n"
      "    consumesCounters: [{counterSet: none, counters: {mem: {value: 1Gi}}}]\n"
      "    taints: [{key: k, effect: Bogus}]\n"
      "    bindsToNode: true\n" // 15
      "    bindingConditions: [ready]\n"
      "    bindingFailureConditions: [ready]\n";

} // namespace

TEST(GatedDraFields, SliceFieldsOfGatesOffAreClearedBeforeValidationWithAWarning)
{
    auto r = yamlio::loadText(kSlice, "s.yaml", at(api::KubernetesVersion::V1_35));
    EXPECT_EQ(messages(r, Severity::Error), "");
    const std::string slice = "ResourceSlice s";
    EXPECT_EQ(messages(r, Severity::Warning),
        dropped(11, 39, slice, "spec.devices[0].capacity[bw].requestPolicy", "DRAConsumableCapacity")
            + dropped(12, 31, slice, "spec.devices[0].allowMultipleAllocations", "DRAConsumableCapacity")
            + dropped(13, 23, slice, "spec.devices[0].consumesCounters", "DRAPartitionableDevices")
            + dropped(14, 13, slice, "spec.devices[0].taints", "DRADeviceTaints")
            + dropped(15, 18, slice, "spec.devices[0].bindsToNode", "DRADeviceBindingConditions")
            + dropped(16, 24, slice, "spec.devices[0].bindingConditions", "DRADeviceBindingConditions")
            + dropped(
                17, 31, slice, "spec.devices[0].bindingFailureConditions", "DRADeviceBindingConditions"));
    ASSERT_EQ(r.objects.resourceSlices.size(), 1u);
    const api::Device& d = r.objects.resourceSlices[0].devices.at(0);
    EXPECT_FALSE(d.capacity.at("bw").requestPolicy);
    EXPECT_FALSE(d.allowMultipleAllocations);
    EXPECT_TRUE(d.consumesCounters.empty());
    EXPECT_TRUE(d.taints.empty());
    EXPECT_FALSE(d.bindsToNode);
    EXPECT_TRUE(d.bindingConditions.empty() && d.bindingFailureConditions.empty());
}

TEST(GatedDraFields, OneGateOnKeepsItsFieldsAndValidatesThem)
{
    // 1.35 with device taints on: the taint is read and its effect refused; the rest is cleared.
    auto r = yamlio::loadText(kSlice, "s.yaml", at(api::KubernetesVersion::V1_35, "DRADeviceTaints=true"));
    EXPECT_EQ(messages(r, Severity::Error),
        "s.yaml:14:31: ResourceSlice s: spec.devices[0].taints[0].effect: Unsupported value: \"Bogus\": "
        "supported values: \"NoExecute\", \"NoSchedule\", \"None\"\n");
    EXPECT_EQ(messages(r, Severity::Warning).find("taints"), std::string::npos);
    // 1.36 has every gate on: every field is validated (the counter set is unknown, the effect and
    // the overlapping conditions are invalid), nothing is dropped.
    r = yamlio::loadText(kSlice, "s.yaml", at(api::KubernetesVersion::V1_36));
    EXPECT_NE(messages(r, Severity::Error).find("taints[0].effect: Unsupported value"), std::string::npos);
    EXPECT_NE(
        messages(r, Severity::Error).find("bindingFailureConditions must not overlap"), std::string::npos);
    EXPECT_EQ(messages(r, Severity::Warning), "");
}

TEST(GatedDraFields, PerDeviceNodeSelectionClearedLeavesTheSliceWithoutNodeSelection)
{
    const std::string slice = kSliceHead
        + "  perDeviceNodeSelection: true\n"
          "  devices: [{name: d0, nodeName: node-1}]\n";
    auto r = yamlio::loadText(slice, "s.yaml", at(api::KubernetesVersion::V1_35));
    EXPECT_EQ(messages(r, Severity::Error),
        "s.yaml:5:3: ResourceSlice s: spec: Required value: exactly one of `nodeName`, `nodeSelector`, "
        "`allNodes`, `perDeviceNodeSelection` is required\n");
    EXPECT_EQ(messages(r, Severity::Warning),
        dropped(7, 27, "ResourceSlice s", "spec.perDeviceNodeSelection", "DRAPartitionableDevices")
            + dropped(8, 34, "ResourceSlice s", "spec.devices[0].nodeName", "DRAPartitionableDevices"));
    r = yamlio::loadText(slice, "s.yaml", at(api::KubernetesVersion::V1_35, "DRAPartitionableDevices=true"));
    EXPECT_EQ(messages(r, Severity::Error), "");
    ASSERT_EQ(r.objects.resourceSlices.size(), 1u);
    EXPECT_EQ(r.objects.resourceSlices[0].devices.at(0).nodeName.value_or(""), "node-1");
}

TEST(GatedDraFields, SharedCountersAreClearedWithTheGateOff)
{
    const std::string slice = kSliceHead
        + "  nodeName: node-1\n"
          "  sharedCounters: [{name: mem, counters: {memory: {value: 8Gi}}}]\n";
    auto r = yamlio::loadText(slice, "s.yaml", at(api::KubernetesVersion::V1_35));
    EXPECT_EQ(messages(r, Severity::Error), "");
    EXPECT_EQ(messages(r, Severity::Warning),
        dropped(8, 19, "ResourceSlice s", "spec.sharedCounters", "DRAPartitionableDevices"));
    ASSERT_EQ(r.objects.resourceSlices.size(), 1u);
    EXPECT_TRUE(r.objects.resourceSlices[0].sharedCounters.empty());
    r = yamlio::loadText(slice, "s.yaml", at(api::KubernetesVersion::V1_36));
    ASSERT_EQ(r.objects.resourceSlices.size(), 1u);
    EXPECT_EQ(r.objects.resourceSlices[0].sharedCounters.size(), 1u);
}

TEST(GatedDraFields, ClaimTolerationsAndCapacityAreClearedButDistinctAttributeIsKept)
{
    const std::string claim = "apiVersion: resource.k8s.io/v1\n" // 1
                              "kind: ResourceClaim\n"
                              "metadata: {name: c, namespace: default}\n"
                              "spec:\n"
                              "  devices:\n" // 5
                              "    requests:\n"
                              "    - name: a\n"
                              "      exactly:\n"
                              "        deviceClassName: gpu\n"
                              "        tolerations: [{key: k, operator: Exists}]\n" // 10
                              "        capacity: {requests: {bw: '2'}}\n"
                              "    - name: b\n"
                              "      firstAvailable:\n"
                              "      - {name: one, deviceClassName: gpu, capacity: {requests: {bw: '1'}}}\n"
                              "    constraints:\n" // 15
                              "    - distinctAttribute: gpu.example.com/numa\n"
                              "    - requests: [a]\n";
    auto r = yamlio::loadText(claim, "s.yaml", at(api::KubernetesVersion::V1_35));
    // validateDeviceConstraint without DRAConsumableCapacity names the field it wants.
    EXPECT_EQ(messages(r, Severity::Error),
        "s.yaml:17:7: ResourceClaim default/c: spec.devices.constraints[1].matchAttribute: Required value\n");
    const std::string object = "ResourceClaim default/c";
    EXPECT_EQ(messages(r, Severity::Warning),
        dropped(10, 22, object, "spec.devices.requests[0].exactly.tolerations", "DRADeviceTaints")
            + dropped(11, 19, object, "spec.devices.requests[0].exactly.capacity", "DRAConsumableCapacity")
            + dropped(14, 53, object, "spec.devices.requests[1].firstAvailable[0].capacity",
                "DRAConsumableCapacity"));
    r = yamlio::loadText(
        claim.substr(0, claim.find("    - requests: [a]")), "s.yaml", at(api::KubernetesVersion::V1_35));
    ASSERT_EQ(messages(r, Severity::Error), "");
    ASSERT_EQ(r.objects.resourceClaims.size(), 1u);
    const api::ResourceClaimSpec& spec = r.objects.resourceClaims[0].spec;
    ASSERT_TRUE(spec.requests.at(0).exactly);
    EXPECT_TRUE(spec.requests[0].exactly->tolerations.empty());
    EXPECT_FALSE(spec.requests[0].exactly->capacity);
    EXPECT_FALSE(spec.requests.at(1).firstAvailable.at(0).spec.capacity);
    ASSERT_EQ(spec.constraints.size(), 1u);
    EXPECT_EQ(spec.constraints[0].distinctAttribute.value_or(""), "gpu.example.com/numa");
}

TEST(GatedDraFields, AllocationResultFieldsOfGatesOffAreCleared)
{
    const std::string claim = "apiVersion: resource.k8s.io/v1\n" // 1
                              "kind: ResourceClaim\n"
                              "metadata: {name: c, namespace: default}\n"
                              "spec:\n"
                              "  devices:\n" // 5
                              "    requests: [{name: a, exactly: {deviceClassName: gpu}}]\n"
                              "status:\n"
                              "  allocation:\n"
                              "    devices:\n"
                              "      results:\n" // 10
                              "      - {request: a, driver: gpu.example.com, pool: p, device: d0, shareID: "
                              "11111111-1111-1111-1111-111111111111,\n"
                              "         consumedCapacity: {bw: '2'}, bindingConditions: [ready], "
                              "bindingFailureConditions: [failed]}\n";
    auto r = yamlio::loadText(claim, "s.yaml", at(api::KubernetesVersion::V1_35));
    EXPECT_EQ(messages(r, Severity::Error), "");
    const std::string object = "ResourceClaim default/c";
    const std::string result = "status.allocation.devices.results[0]";
    EXPECT_EQ(messages(r, Severity::Warning),
        dropped(11, 77, object, result + ".shareID", "DRAConsumableCapacity")
            + dropped(12, 28, object, result + ".consumedCapacity", "DRAConsumableCapacity")
            + dropped(12, 58, object, result + ".bindingConditions", "DRADeviceBindingConditions")
            + dropped(12, 93, object, result + ".bindingFailureConditions", "DRADeviceBindingConditions"));
    ASSERT_EQ(r.objects.resourceClaims.size(), 1u);
    ASSERT_TRUE(r.objects.resourceClaims[0].allocation);
    const auto& res = r.objects.resourceClaims[0].allocation->results.at(0);
    EXPECT_FALSE(res.shareID);
    EXPECT_TRUE(res.consumedCapacity.empty());
    EXPECT_TRUE(res.bindingConditions.empty() && res.bindingFailureConditions.empty());
}

namespace {

std::string sliceWithPolicy(const std::string& policy)
{
    return kSliceHead
        + "  nodeName: node-1\n"
          "  devices:\n"
          "  - name: d0\n"
          "    allowMultipleAllocations: true\n"
          "    capacity:\n"
          "      bw: {value: '1', requestPolicy: "
        + policy + "}\n";
}

} // namespace

// DRAFractionalCapacityRange (1.37): validValues are unique as whole units without it, exactly with it.
TEST(GatedDraFields, ValidValuesCollideAsWholeUnitsWithoutFractionalRanges)
{
    const std::string s = sliceWithPolicy("{default: 100m, validValues: [100m, 200m, '1']}");
    auto r = yamlio::loadText(s, "s.yaml", at(api::KubernetesVersion::V1_37));
    EXPECT_EQ(messages(r, Severity::Error),
        "s.yaml:12:75: ResourceSlice s: spec.devices[0].capacity[bw].requestPolicy.validValues[1]: Duplicate "
        "value: \"1\"\n"
        "s.yaml:12:81: ResourceSlice s: spec.devices[0].capacity[bw].requestPolicy.validValues[2]: Duplicate "
        "value: \"1\"\n");
    r = yamlio::loadText(s, "s.yaml", at(api::KubernetesVersion::V1_37, "DRAFractionalCapacityRange=true"));
    EXPECT_EQ(messages(r, Severity::Error), "");
    r = yamlio::loadText(sliceWithPolicy("{default: 100m, validValues: [100m, 100m]}"), "s.yaml",
        at(api::KubernetesVersion::V1_37, "DRAFractionalCapacityRange=true"));
    EXPECT_NE(
        messages(r, Severity::Error).find("validValues[1]: Duplicate value: \"100m\""), std::string::npos);
}

TEST(GatedDraFields, FractionalRangesAreCheckedInThousandthsOnlyWithTheGate)
{
    // 250m is not 200m plus whole 100m steps; in whole units all three are 1.
    const std::string misaligned
        = sliceWithPolicy("{default: 250m, validRange: {min: 200m, max: '1', step: 100m}}");
    auto r = yamlio::loadText(misaligned, "s.yaml", at(api::KubernetesVersion::V1_37));
    EXPECT_EQ(messages(r, Severity::Error), "");
    r = yamlio::loadText(
        misaligned, "s.yaml", at(api::KubernetesVersion::V1_37, "DRAFractionalCapacityRange=true"));
    EXPECT_EQ(messages(r, Severity::Error),
        "s.yaml:12:95: ResourceSlice s: spec.devices[0].capacity[bw].requestPolicy.validRange.step: Invalid "
        "value: "
        "\"250m\": value is not a multiple of a given step (100m) from (200m)\n");
    // Finer than thousandths: not representable ("fractional-too-fine-precision" upstream).
    r = yamlio::loadText(sliceWithPolicy("{default: 20u, validRange: {min: 10u}}"), "s.yaml",
        at(api::KubernetesVersion::V1_37, "DRAFractionalCapacityRange=true"));
    EXPECT_EQ(messages(r, Severity::Error),
        "s.yaml:12:49: ResourceSlice s: spec.devices[0].capacity[bw].requestPolicy.validRange.default: "
        "Invalid "
        "value: \"20u\": value cannot be represented as a milli value\n"
        "s.yaml:12:72: ResourceSlice s: spec.devices[0].capacity[bw].requestPolicy.validRange.min: Invalid "
        "value: "
        "\"10u\": value cannot be represented as a milli value\n");
}

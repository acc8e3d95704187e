// SPDX-License-Identifier: Apache-2.0
// One rule for the DRA fields a feature gate that is off clears from a ResourceSlice
// (core/api/dra_field_gates.h): the loader applies it as it reads a slice, and slices made in
// memory (a Scenario's node pools) go through dropDisabledSliceFields. The law: for every
// combination of the slice gates, reading a slice under those gates gives what reading it with
// every gate on and then dropping the disabled fields gives, and both name the same gates.
#include <set>

#include <gtest/gtest.h>

#include "core/api/dra_field_gates.h"
#include "core/yamlio/loader.h"
#include "core/yamlio/writer.h"

using namespace drasim;

namespace {

// Two slices of one pool: the counters, and a device with every gated field set (valid with all
// the gates on).
const std::string kSlices
    = "apiVersion: resource.k8s.io/v1\n"
      "kind: ResourceSlice\n"
      "metadata: {name: counters}\n"
      "spec:\n"
      "  driver: gpu.example.com\n"
      "  pool: {name: p, generation: 1, resourceSliceCount: 2}\n"
      "  nodeName: node-1\n"
      "  sharedCounters: [{name: mem, counters: {memory: {value: 8Gi}}}]\n"
      "---\n"
      "apiVersion: resource.k8s.io/v1\n"
      "kind: ResourceSlice\n"
      "metadata: {name: devices}\n"
      "spec:\n"
      "  driver: gpu.example.com\n"
      "  pool: {name: p, generation: 1, resourceSliceCount: 2}\n"
      "  nodeName: node-1\n"
      "  skipNodeOperations: ['*']\n"
      "  devices:\n"
      "  - name: d0\n"
      "    capacity:\n"
      "      bw: {value: '4', requestPolicy: {default: '2', validValues: ['2', '4']}}\n"
      "    allowMultipleAllocations: true\n"
      "    consumesCounters:\n"
      "    - {counterSet: mem, counters: {memory: {value: 4Gi}}, compatibilityGroups: [a]}\n"
      "    taints: [{key: k, effect: NoSchedule}]\n"
      "    bindsToNode: true\n"
      "    bindingConditions: [ready]\n"
      "    bindingFailureConditions: [failed]\n";

const std::vector<std::string> kGates
    = { "DRAPartitionableDevices", "DRAConsumableCapacity", "DRADeviceTaints", "DRADeviceBindingConditions",
          "DRADeviceCompatibilityGroups", "DRAOptionalNodeOperations" };

/// 1.37 with gate i of kGates on when bit i of `mask` is set (DRADeviceTaintRules follows
/// DRADeviceTaints, which it needs).
api::FeatureGates gatesOf(unsigned mask)
{
    api::FeatureGates g(api::KubernetesVersion::V1_37);
    for (size_t i = 0; i < kGates.size(); ++i)
        EXPECT_EQ(g.set(kGates[i], (mask >> i) & 1u), "");
    EXPECT_EQ(g.set("DRADeviceTaintRules", g.enabled("DRADeviceTaints")), "");
    return g;
}

yamlio::LoadResult load(const api::FeatureGates& gates)
{
    yamlio::LoadOptions o;
    o.gates = gates;
    return yamlio::loadText(kSlices, "s.yaml", o);
}

/// The gates the loader's "dropped" warnings name.
std::set<std::string> gatesWarnedAbout(const yamlio::LoadResult& r)
{
    std::set<std::string> out;
    for (const auto& d : r.diagnostics.all())
        for (const auto& gate : kGates)
            if (d.severity == Severity::Warning
                && d.message.find("feature gate " + gate + " is disabled") != std::string::npos)
                out.insert(gate);
    return out;
}

} // namespace

TEST(SliceGateRule, LoaderAndInMemoryClearingAgreeForEveryGateCombination)
{
    const unsigned all = (1u << kGates.size()) - 1;
    const yamlio::LoadResult full = load(gatesOf(all));
    ASSERT_FALSE(full.diagnostics.hasErrors()) << full.diagnostics.formatAll();
    ASSERT_EQ(full.objects.resourceSlices.size(), 2u);
    for (unsigned mask = 0; mask <= all; ++mask) {
        const api::FeatureGates gates = gatesOf(mask);
        const yamlio::LoadResult read = load(gates);
        ASSERT_FALSE(read.diagnostics.hasErrors()) << mask << "\n" << read.diagnostics.formatAll();
        api::ObjectSet dropped = full.objects;
        std::set<std::string> droppedGates;
        for (auto& s : dropped.resourceSlices)
            for (const auto& [gate, path] : api::dropDisabledSliceFields(s, gates))
                droppedGates.insert(gate);
        EXPECT_EQ(yamlio::toYamlList(dropped), yamlio::toYamlList(read.objects)) << "gates " << mask;
        EXPECT_EQ(droppedGates, gatesWarnedAbout(read)) << "gates " << mask;
    }
}

TEST(SliceGateRule, NamesEachClearedFieldOnceWithItsGate)
{
    yamlio::LoadResult full = load(gatesOf((1u << kGates.size()) - 1));
    ASSERT_EQ(full.objects.resourceSlices.size(), 2u);
    const api::FeatureGates v135(api::KubernetesVersion::V1_35);
    const std::set<api::ClearedField> counters
        = api::dropDisabledSliceFields(full.objects.resourceSlices[0], v135);
    EXPECT_EQ(
        counters, (std::set<api::ClearedField> { { "DRAPartitionableDevices", "spec.sharedCounters" } }));
    EXPECT_TRUE(full.objects.resourceSlices[0].sharedCounters.empty());
    const std::set<api::ClearedField> device
        = api::dropDisabledSliceFields(full.objects.resourceSlices[1], v135);
    const std::set<api::ClearedField> want = {
        { "DRAConsumableCapacity", "spec.devices[].allowMultipleAllocations" },
        { "DRAConsumableCapacity", "spec.devices[].capacity[].requestPolicy" },
        { "DRADeviceBindingConditions", "spec.devices[].bindingConditions" },
        { "DRADeviceBindingConditions", "spec.devices[].bindingFailureConditions" },
        { "DRADeviceBindingConditions", "spec.devices[].bindsToNode" },
        { "DRADeviceTaints", "spec.devices[].taints" },
        { "DRAPartitionableDevices", "spec.devices[].consumesCounters" },
        // 1.35 does not have the 1.37 alphas at all: their fields go too.
        { "DRAOptionalNodeOperations", "spec.skipNodeOperations" },
    };
    EXPECT_EQ(device, want);
    // Cleared fields are not reported again.
    EXPECT_TRUE(api::dropDisabledSliceFields(full.objects.resourceSlices[1], v135).empty());
    // The capacity itself stays; only its policy goes.
    EXPECT_EQ(full.objects.resourceSlices[1].devices[0].capacity.count("bw"), 1u);
}

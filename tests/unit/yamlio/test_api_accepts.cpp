// SPDX-License-Identifier: Apache-2.0
// Input the API server accepts must load without a diagnostic, with its defaults applied
// (SetDefaults_* of resource.k8s.io v1, v1beta2 and v1beta1, then validation.go).
#include <gtest/gtest.h>

#include "core/yamlio/loader.h"

using namespace drasim;

namespace {

api::ObjectSet loadClean(const std::string& text)
{
    auto r = yamlio::loadText(text, "t.yaml");
    EXPECT_FALSE(r.diagnostics.hasErrors()) << r.diagnostics.formatAll();
    return std::move(r.objects);
}

std::string claim(const std::string& version, const std::string& devicesBody)
{
    return "apiVersion: resource.k8s.io/" + version
        + "\nkind: ResourceClaim\nmetadata: {name: c}\nspec:\n  devices:\n" + devicesBody;
}

// count is an int64 without a pointer: a written 0 cannot be told from no count, so ExactCount
// defaults it to 1 and All accepts it.
TEST(ApiAccepts, CountZeroIsDefaulted)
{
    for (const char* version : { "v1", "v1beta2" }) {
        const auto objects = loadClean(claim(version,
            "    requests:\n"
            "    - {name: a, exactly: {deviceClassName: gpu, count: 0}}\n"
            "    - {name: b, exactly: {deviceClassName: gpu, allocationMode: All, count: 0}}\n"
            "    - name: c\n"
            "      firstAvailable: [{name: x, deviceClassName: gpu, count: 0}]\n"));
        ASSERT_EQ(objects.resourceClaims.size(), 1u) << version;
        const auto& requests = objects.resourceClaims[0].spec.requests;
        ASSERT_EQ(requests.size(), 3u);
        EXPECT_EQ(requests[0].exactly->allocationMode, "ExactCount");
        EXPECT_EQ(requests[0].exactly->count, 1);
        EXPECT_EQ(requests[1].exactly->allocationMode, "All");
        EXPECT_EQ(requests[1].exactly->count, 0);
        EXPECT_EQ(requests[2].firstAvailable[0].spec.count, 1);
    }
    const auto beta
        = loadClean(claim("v1beta1", "    requests: [{name: a, deviceClassName: gpu, count: 0}]\n"));
    ASSERT_EQ(beta.resourceClaims.size(), 1u);
    EXPECT_EQ(beta.resourceClaims[0].spec.requests[0].exactly->count, 1);
}

// validateDeviceToleration: the key is optional for Equal too, and None is a taint effect a
// toleration may name.
TEST(ApiAccepts, TolerationsWithoutKeyOrWithEffectNone)
{
    const auto objects = loadClean(claim("v1",
        "    requests:\n    - name: r\n      exactly:\n        deviceClassName: gpu\n"
        "        tolerations: [{operator: Equal, value: x}, {key: k, operator: Exists, effect: None}]\n"));
    ASSERT_EQ(objects.resourceClaims.size(), 1u);
    const auto& tolerations = objects.resourceClaims[0].spec.requests[0].exactly->tolerations;
    ASSERT_EQ(tolerations.size(), 2u);
    EXPECT_EQ(tolerations[0].key, "");
    EXPECT_EQ(tolerations[1].effect, "None");
}

// validateDeviceConstraint checks matchAttribute when it is set and ignores distinctAttribute then.
TEST(ApiAccepts, ConstraintWithBothAttributes)
{
    const auto objects = loadClean(claim("v1",
        "    requests: [{name: r, exactly: {deviceClassName: gpu}}]\n"
        "    constraints: [{matchAttribute: dra.net/numa, distinctAttribute: dra.net/numa}]\n"));
    ASSERT_EQ(objects.resourceClaims.size(), 1u);
    EXPECT_EQ(objects.resourceClaims[0].spec.constraints[0].matchAttribute, "dra.net/numa");
}

// An empty firstAvailable list is no firstAvailable (validateDeviceRequest counts entries).
TEST(ApiAccepts, EmptyFirstAvailableBesideExactly)
{
    const auto objects = loadClean(
        claim("v1", "    requests: [{name: r, exactly: {deviceClassName: gpu}, firstAvailable: []}]\n"));
    ASSERT_EQ(objects.resourceClaims.size(), 1u);
    EXPECT_TRUE(objects.resourceClaims[0].spec.requests[0].exactly.has_value());
}

std::string sliceWithSpec(const std::string& spec)
{
    return "apiVersion: resource.k8s.io/v1\nkind: ResourceSlice\nmetadata: {name: s}\nspec:\n"
           "  driver: gpu.example.com\n  pool: {name: p, resourceSliceCount: 1}\n"
        + spec;
}

// validateDevice checks a per-device nodeSelector like any node selector; the one-term rule is
// the slice's own.
TEST(ApiAccepts, PerDeviceNodeSelectorWithTwoTerms)
{
    const auto objects = loadClean(
        sliceWithSpec("  perDeviceNodeSelection: true\n  devices:\n  - name: gpu-0\n"
                      "    nodeSelector:\n      nodeSelectorTerms:\n"
                      "      - matchFields: [{key: metadata.name, operator: In, values: [a]}]\n"
                      "      - matchFields: [{key: metadata.name, operator: In, values: [b]}]\n"));
    ASSERT_EQ(objects.resourceSlices.size(), 1u);
    EXPECT_EQ(objects.resourceSlices[0].devices[0].nodeSelector->terms.size(), 2u);
}

// Counter and DeviceCapacity values are plain quantities: left out they are zero, and "any parsed
// quantity is valid".
TEST(ApiAccepts, CounterAndCapacityWithoutValue)
{
    const auto objects
        = loadClean(sliceWithSpec("  nodeName: n1\n  devices:\n  - name: gpu-0\n"
                                  "    capacity: {memory: {}}\n"
                                  "    consumesCounters: [{counterSet: cs, counters: {mem: {}}}]\n"));
    ASSERT_EQ(objects.resourceSlices.size(), 1u);
    const auto& d = objects.resourceSlices[0].devices[0];
    EXPECT_TRUE(d.capacity.at("memory").value.isZero());
    EXPECT_TRUE(d.consumesCounters[0].counters.at("mem").isZero());
}

// validateDriverName is ValidateCSIDriverName: the DNS-subdomain rule applies to the lowercased
// name, so a driver (or an attribute domain) may be written with capitals.
TEST(ApiAccepts, DriverNamesAreCheckedLowercased)
{
    const auto objects = loadClean(sliceWithSpec("  nodeName: n1\n  devices:\n  - name: gpu-0\n"
                                                 "    attributes: {GPU.Example.com/model: {string: a}}\n"));
    ASSERT_EQ(objects.resourceSlices.size(), 1u);
    const auto upper
        = loadClean("apiVersion: resource.k8s.io/v1\nkind: ResourceSlice\nmetadata: {name: s}\n"
                    "spec:\n  driver: GPU.Example.com\n  pool: {name: p, resourceSliceCount: 1}\n"
                    "  nodeName: n1\n  devices: [{name: gpu-0}]\n");
    ASSERT_EQ(upper.resourceSlices.size(), 1u);
    EXPECT_EQ(upper.resourceSlices[0].driver, "GPU.Example.com");
}

// A missing spec decodes to the zero spec; a claim without requests is valid (and allocated with
// no devices), in a claim and in a template.
TEST(ApiAccepts, ClaimsWithoutSpec)
{
    const auto objects
        = loadClean("apiVersion: resource.k8s.io/v1\nkind: ResourceClaim\nmetadata: {name: c}\n"
                    "---\napiVersion: resource.k8s.io/v1beta1\nkind: ResourceClaimTemplate\n"
                    "metadata: {name: t}\nspec: {}\n");
    ASSERT_EQ(objects.resourceClaims.size(), 1u);
    EXPECT_TRUE(objects.resourceClaims[0].spec.requests.empty());
    ASSERT_EQ(objects.resourceClaimTemplates.size(), 1u);
    EXPECT_TRUE(objects.resourceClaimTemplates[0].spec.requests.empty());
}

} // namespace

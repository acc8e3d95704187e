// SPDX-License-Identifier: Apache-2.0
// Namespaces and the admin-access gate, DeviceTaintRules: loaded, validated and located like the
// API server reports them, and written back out.
#include <gtest/gtest.h>

#include "core/yamlio/loader.h"
#include "core/yamlio/writer.h"

using namespace drasim;

namespace {

std::string ns(const std::string& name, const std::string& labels = "")
{
    return "apiVersion: v1\nkind: Namespace\nmetadata:\n  name: " + name + "\n" + labels + "---\n";
}

std::string adminClaim(const std::string& namespace_ = "default")
{
    return "apiVersion: resource.k8s.io/v1\n"
           "kind: ResourceClaim\n"
           "metadata: {name: watch, namespace: "
        + namespace_
        + "}\n"
          "spec:\n"
          "  devices:\n"
          "    requests:\n"
          "    - name: gpu\n"
          "      exactly:\n"
          "        deviceClassName: gpu\n"
          "        adminAccess: true\n";
}

std::string errors(const yamlio::LoadResult& r)
{
    std::string out;
    for (const auto& d : r.diagnostics.all())
        if (d.severity == Severity::Error)
            out += d.format() + "\n";
    return out;
}

const char* kForbidden
    = "Forbidden: admin access to devices requires the `resource.kubernetes.io/admin-access: "
      "true` label on the containing namespace";

} // namespace

TEST(AdminAccessGate, LabelledNamespaceAdmitsTheClaim)
{
    auto r = yamlio::loadText(
        ns("default", "  labels: {resource.kubernetes.io/admin-access: \"true\"}\n") + adminClaim(),
        "t.yaml");
    EXPECT_EQ(errors(r), "");
    ASSERT_EQ(r.objects.namespaces.size(), 1u);
    EXPECT_EQ(r.objects.namespaces[0].meta.labels.at("resource.kubernetes.io/admin-access"), "true");
    EXPECT_EQ(r.objects.resourceClaims.size(), 1u);
}

TEST(AdminAccessGate, UnlabelledNamespaceIsForbiddenAtTheField)
{
    // Namespace: lines 1-4, claim from line 5; adminAccess on line 15, value at column 22.
    auto r = yamlio::loadText(ns("default") + adminClaim(), "t.yaml");
    EXPECT_EQ(errors(r),
        std::string("t.yaml:15:22: ResourceClaim default/watch: spec.devices.requests[0].adminAccess: ")
            + kForbidden + "\n");
    EXPECT_TRUE(r.objects.resourceClaims.empty()) << "a rejected claim is not loaded";
}

TEST(AdminAccessGate, NamespaceMayComeAfterTheClaimAndInAnotherFile)
{
    auto r = yamlio::loadText(adminClaim() + "---\n" + ns("default", "  labels: {a: b}\n"), "t.yaml");
    EXPECT_NE(errors(r).find(kForbidden), std::string::npos) << errors(r);
}

TEST(AdminAccessGate, MissingNamespaceIsTheLookupError)
{
    auto r = yamlio::loadText(ns("other") + adminClaim("team"), "t.yaml");
    EXPECT_NE(errors(r).find(
                  "ResourceClaim team/watch: spec.devices.requests[0].adminAccess: Internal error: could "
                  "not retrieve namespace to verify admin access: namespaces \"team\" not found"),
        std::string::npos)
        << errors(r);
}

TEST(AdminAccessGate, WithoutNamespaceObjectsNothingIsChecked)
{
    auto r = yamlio::loadText(adminClaim(), "t.yaml");
    EXPECT_EQ(errors(r), "");
    EXPECT_EQ(r.objects.resourceClaims.size(), 1u);
}

TEST(Namespaces, NameIsADnsLabelAndDuplicatesAreRejected)
{
    auto bad = yamlio::loadText(ns("a.b"), "t.yaml");
    EXPECT_NE(errors(bad).find("t.yaml:4:9: Namespace a.b: metadata.name: Invalid value: \"a.b\""),
        std::string::npos)
        << errors(bad);
    auto dup = yamlio::loadText(ns("a") + ns("a"), "t.yaml");
    EXPECT_NE(errors(dup).find("Namespace a: metadata.name: Duplicate value: \"a\""), std::string::npos)
        << errors(dup);
    auto nsField
        = yamlio::loadText("apiVersion: v1\nkind: Namespace\nmetadata: {name: a, namespace: b}\n", "t.yaml");
    EXPECT_NE(
        errors(nsField).find("metadata.namespace: Forbidden: not allowed on this type"), std::string::npos);
}

TEST(DeviceTaintRules, ReadInBothVersionsAndWrittenBack)
{
    const std::string text = "apiVersion: resource.k8s.io/v1alpha3\n"
                             "kind: DeviceTaintRule\n"
                             "metadata: {name: drain}\n"
                             "spec:\n"
                             "  deviceSelector: {driver: gpu.example.com, pool: node-1, device: gpu-0}\n"
                             "  taint: {key: maintenance, value: \"true\", effect: NoExecute}\n"
                             "status: {conditions: []}\n";
    auto r = yamlio::loadText(text, "t.yaml");
    ASSERT_EQ(errors(r), "");
    ASSERT_EQ(r.objects.deviceTaintRules.size(), 1u);
    const auto& rule = r.objects.deviceTaintRules[0];
    ASSERT_TRUE(rule.deviceSelector);
    EXPECT_EQ(rule.deviceSelector->driver, "gpu.example.com");
    EXPECT_EQ(rule.deviceSelector->pool, "node-1");
    EXPECT_EQ(rule.deviceSelector->device, "gpu-0");
    EXPECT_EQ(rule.taint.effect, "NoExecute");
    // Written as v1beta2 and read back the same.
    auto again = yamlio::loadText(yamlio::toYamlList(r.objects), "again.yaml");
    ASSERT_EQ(errors(again), "");
    ASSERT_EQ(again.objects.deviceTaintRules.size(), 1u);
    EXPECT_EQ(again.objects.deviceTaintRules[0].deviceSelector->device, "gpu-0");
    EXPECT_EQ(again.objects.deviceTaintRules[0].taint.value, "true");
}

TEST(DeviceTaintRules, InvalidRulesAreLocated)
{
    auto r
        = yamlio::loadText("apiVersion: resource.k8s.io/v1beta2\nkind: DeviceTaintRule\nmetadata: {name: r}\n"
                           "spec:\n  deviceSelector:\n    selectors: []\n    pool: \"\"\n",
            "t.yaml");
    const std::string e = errors(r);
    EXPECT_NE(
        e.find("t.yaml:6:5: DeviceTaintRule r: spec.deviceSelector.selectors: unknown field \"selectors\" "
               "(removed in Kubernetes 1.35"),
        std::string::npos)
        << e;
    EXPECT_NE(
        e.find("t.yaml:7:11: DeviceTaintRule r: spec.deviceSelector.pool: Required value"), std::string::npos)
        << e;
    EXPECT_NE(e.find("DeviceTaintRule r: spec.taint.key: Required value"), std::string::npos) << e;
    EXPECT_TRUE(r.objects.deviceTaintRules.empty());
}

TEST(DeviceTaintRules, RuleTaintsAreNotWrittenIntoSlices)
{
    auto r = yamlio::loadText("apiVersion: resource.k8s.io/v1\nkind: ResourceSlice\nmetadata: {name: s}\n"
                              "spec:\n  driver: gpu.example.com\n  pool: {name: p, resourceSliceCount: 1}\n"
                              "  nodeName: node-1\n  devices:\n  - name: gpu-0\n",
        "t.yaml");
    ASSERT_EQ(errors(r), "");
    api::DeviceTaint fromRule;
    fromRule.key = "k";
    fromRule.effect = "NoSchedule";
    fromRule.rule = "drain";
    r.objects.resourceSlices[0].devices[0].taints.push_back(fromRule);
    EXPECT_EQ(yamlio::toYamlList(r.objects).find("taints"), std::string::npos);
}

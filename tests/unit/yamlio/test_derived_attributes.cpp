// SPDX-License-Identifier: Apache-2.0
// derivedAttributes of claim requests (DRADerivedAttributes, 1.37 alpha): read with the gate on,
// dropped with a warning with it off, and validated as pkg/apis/resource/validation does
// (validateDeviceDerivedAttribute; the name's format and maxItems from the v1 type's tags).
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "core/yamlio/loader.h"

using namespace drasim;

namespace {

yamlio::LoadOptions gateOn()
{
    yamlio::LoadOptions o;
    EXPECT_EQ(o.gates.set("DRADerivedAttributes", true), "");
    return o;
}

/// A claim with requests gpu (exactly) and nic (firstAvailable: one), `derived` under gpu and the
/// constraints given.
std::string claim(const std::string& derived, const std::string& constraints)
{
    return "apiVersion: resource.k8s.io/v1\nkind: ResourceClaim\nmetadata: {name: c}\nspec:\n  devices:\n"
           "    requests:\n"
           "    - name: gpu\n"
           "      exactly:\n"
           "        deviceClassName: gpu.example.com\n"
           "        derivedAttributes:\n"
        + derived
        + "    - name: nic\n"
          "      firstAvailable:\n"
          "      - name: one\n"
          "        deviceClassName: nic.example.com\n"
          "        derivedAttributes:\n"
          "        - {name: derived/numa, expression: 'device.attributes[\"nic.example.com\"].numaNode'}\n"
          "    constraints:\n"
        + constraints;
}

const std::string kNuma
    = "        - name: derived/numa\n          expression: device.attributes[\"gpu.example.com\"].numa\n";
const std::string kBoth = "    - {matchAttribute: derived/numa, requests: [gpu, nic]}\n";

std::string errors(const yamlio::LoadResult& r)
{
    std::string out;
    for (const auto& d : r.diagnostics.all())
        if (d.severity == Severity::Error)
            out += d.format() + "\n";
    return out;
}

TEST(DerivedAttributes, ReadWithTheGateOn)
{
    auto r = yamlio::loadText(claim(kNuma, kBoth), "t.yaml", gateOn());
    ASSERT_EQ(r.diagnostics.formatAll(), "");
    const auto& spec = r.objects.resourceClaims.at(0).spec;
    ASSERT_EQ(spec.requests[0].exactly->derivedAttributes.size(), 1u);
    const auto& a = spec.requests[0].exactly->derivedAttributes[0];
    EXPECT_EQ(a.name, "derived/numa");
    EXPECT_EQ(a.expression, "device.attributes[\"gpu.example.com\"].numa");
    EXPECT_EQ(a.pos.line, 12);
    EXPECT_EQ(a.pos.column, 23);
    EXPECT_EQ(spec.requests[1].firstAvailable[0].spec.derivedAttributes.at(0).name, "derived/numa");
}

TEST(DerivedAttributes, DroppedWithAWarningWhileTheGateIsOff)
{
    for (auto v : { api::KubernetesVersion::V1_36, api::KubernetesVersion::V1_37 }) {
        yamlio::LoadOptions o;
        o.gates = api::FeatureGates(v);
        auto r = yamlio::loadText(claim(kNuma, kBoth), "t.yaml", o);
        EXPECT_EQ(r.diagnostics.formatAll(),
            "t.yaml:11:9: warning: ResourceClaim default/c: "
            "spec.devices.requests[0].exactly.derivedAttributes: "
            "dropped: feature gate DRADerivedAttributes is disabled, so the API server clears this field\n"
            "t.yaml:18:9: warning: ResourceClaim default/c: "
            "spec.devices.requests[1].firstAvailable[0].derivedAttributes: dropped: feature gate "
            "DRADerivedAttributes is disabled, so the API server clears this field\n");
        const auto& spec = r.objects.resourceClaims.at(0).spec;
        EXPECT_TRUE(spec.requests[0].exactly->derivedAttributes.empty());
        EXPECT_TRUE(spec.requests[1].firstAvailable[0].spec.derivedAttributes.empty());
    }
}

TEST(DerivedAttributes, EachMustBeNamedByAConstraintCoveringItsRequest)
{
    // For every request, for the parent of a subrequest, for the subrequest itself; match or distinct.
    for (const std::string& ok : std::vector<std::string> { "    - {matchAttribute: derived/numa}\n",
             "    - {distinctAttribute: derived/numa, requests: [gpu]}\n"
             "    - {matchAttribute: derived/numa, requests: [nic/one]}\n",
             kBoth })
        EXPECT_EQ(errors(yamlio::loadText(claim(kNuma, ok), "t.yaml", gateOn())), "") << ok;
    auto r = yamlio::loadText(
        claim(kNuma, "    - {matchAttribute: derived/numa, requests: [nic]}\n"), "t.yaml", gateOn());
    EXPECT_EQ(errors(r),
        "t.yaml:11:17: ResourceClaim default/c: spec.devices.requests[0].exactly.derivedAttributes[0].name: "
        "Invalid value: \"derived/numa\": must be referenced by at least one matchAttribute or "
        "distinctAttribute "
        "constraint targeting this request\n");
    r = yamlio::loadText(
        claim(kNuma, "    - {matchAttribute: other.example.com/numa}\n"), "t.yaml", gateOn());
    EXPECT_EQ(errors(r),
        "t.yaml:11:17: ResourceClaim default/c: spec.devices.requests[0].exactly.derivedAttributes[0].name: "
        "Invalid value: \"derived/numa\": must be referenced by at least one matchAttribute or "
        "distinctAttribute "
        "constraint targeting this request\n"
        "t.yaml:18:18: ResourceClaim default/c: "
        "spec.devices.requests[1].firstAvailable[0].derivedAttributes[0].name: Invalid value: "
        "\"derived/numa\": "
        "must be referenced by at least one matchAttribute or distinctAttribute constraint targeting this "
        "request\n");
}

TEST(DerivedAttributes, NamesAreFullyQualifiedAndUnique)
{
    auto r = yamlio::loadText(
        claim("        - {name: numa, expression: '1'}\n", "    - {matchAttribute: numa}\n"), "t.yaml",
        gateOn());
    const std::string e = errors(r);
    EXPECT_NE(
        e.find("t.yaml:11:18: ResourceClaim default/c: spec.devices.requests[0].exactly.derivedAttributes[0]"
               ".name: Invalid value: \"numa\""),
        std::string::npos)
        << e;
    r = yamlio::loadText(claim(kNuma + kNuma, kBoth), "t.yaml", gateOn());
    EXPECT_EQ(errors(r),
        "t.yaml:13:11: ResourceClaim default/c: spec.devices.requests[0].exactly.derivedAttributes[1]: "
        "Duplicate "
        "value: \"derived/numa\"\n");
}

TEST(DerivedAttributes, NameAndExpressionAreRequiredAndBounded)
{
    auto r = yamlio::loadText(claim("        - {expression: ''}\n", kBoth), "t.yaml", gateOn());
    EXPECT_EQ(errors(r),
        "t.yaml:11:11: ResourceClaim default/c: spec.devices.requests[0].exactly.derivedAttributes[0].name: "
        "Required value\n"
        "t.yaml:11:24: ResourceClaim default/c: "
        "spec.devices.requests[0].exactly.derivedAttributes[0].expression: "
        "Required value\n");
    r = yamlio::loadText(
        claim("        - {name: derived/numa, expression: '" + std::string(10241, '1') + "'}\n", kBoth),
        "t.yaml", gateOn());
    EXPECT_NE(errors(r).find("derivedAttributes[0].expression: Too long: must have at most 10240 bytes"),
        std::string::npos);
    std::string many, constraints;
    for (int i = 0; i < 33; ++i) {
        many += "        - {name: derived/a" + std::to_string(i) + ", expression: '1'}\n";
        constraints += "    - {matchAttribute: derived/a" + std::to_string(i) + "}\n";
    }
    r = yamlio::loadText(claim(many, kBoth + constraints), "t.yaml", gateOn());
    EXPECT_EQ(errors(r),
        "t.yaml:11:9: ResourceClaim default/c: spec.devices.requests[0].exactly.derivedAttributes: Too many: "
        "33: "
        "must have at most 32 items\n"
        "t.yaml:51:5: ResourceClaim default/c: spec.devices.constraints: Too many: 34: must have at most 32 "
        "items\n");
}

} // namespace

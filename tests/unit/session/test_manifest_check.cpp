// SPDX-License-Identifier: Apache-2.0
// The checks `drasim validate` and the GUI editor share, and the selector preview of `drasim cel`.
#include <gtest/gtest.h>

#include "core/session/manifest_check.h"
#include "core/session/selector_preview.h"

using namespace drasim;
using namespace drasim::session;

namespace {

const std::string kBasicCluster = DRASIM_SOURCE_DIR "/scenarios/basic/cluster.yaml";

const char* const kClassWithBadSelector = R"(apiVersion: resource.k8s.io/v1
kind: DeviceClass
metadata:
  name: broken
spec:
  selectors:
  - cel:
      expression: device.driver == 1
)";

} // namespace

TEST(ManifestCheck, TextSelectorErrorIsLocatedInsideTheManifest)
{
    auto r = validateManifestText(kClassWithBadSelector, "edit.yaml");
    ASSERT_TRUE(r.diagnostics.hasErrors());
    const Diagnostic& d = r.diagnostics.all().front();
    EXPECT_EQ(d.pos.file, "edit.yaml");
    EXPECT_EQ(d.pos.line, 8);
    // "device.driver == 1": the checker points at the operator, column 21 of the expression.
    EXPECT_GT(d.pos.column, 19);
    EXPECT_NE(d.format().find("DeviceClass broken: spec.selectors[0].cel.expression"), std::string::npos)
        << d.format();
    EXPECT_NE(d.message.find("no matching overload"), std::string::npos) << d.message;
}

TEST(ManifestCheck, LoaderErrorsComeFirstAndGoodObjectsStay)
{
    auto r = validateManifestText("apiVersion: v1\nkind: Node\nmetadata:\n  name: a\n  colour: red\n---\n"
                                  "apiVersion: v1\nkind: Node\nmetadata:\n  name: b\n",
        "two.yaml");
    ASSERT_TRUE(r.diagnostics.hasErrors());
    EXPECT_EQ(r.diagnostics.all().front().pos.line, 5);
    EXPECT_NE(r.diagnostics.all().front().message.find("unknown field"), std::string::npos);
    ASSERT_EQ(r.objects.nodes.size(), 1u);
    EXPECT_EQ(r.objects.nodes[0].meta.name, "b");
}

TEST(ManifestCheck, PathsAndTextAgreeOnAValidBundle)
{
    auto byPath = validateManifestPaths({ kBasicCluster });
    EXPECT_FALSE(byPath.diagnostics.hasErrors()) << byPath.diagnostics.formatAll();
    EXPECT_EQ(byPath.objects.resourceSlices.size(), 2u);
}

TEST(SelectorPreview, MatchesNoMatchesAndRuntimeErrorsPerDevice)
{
    auto loaded = validateManifestPaths({ kBasicCluster });
    auto p = previewSelector(
        R"(device.attributes["gpu.nvidia.com"].uuid.startsWith("GPU-0000"))", loaded.objects);
    ASSERT_TRUE(p.compiled);
    ASSERT_EQ(p.devices.size(), 8u);
    EXPECT_EQ(p.matched, 1u);
    EXPECT_EQ(p.unmatched, 7u);
    EXPECT_EQ(p.devices[0].device, "gpu-0");
    EXPECT_EQ(p.devices[0].node, "gpu-node-a");
    EXPECT_EQ(p.devices[0].match, DeviceMatch::Match);
    EXPECT_EQ(p.devices[1].match, DeviceMatch::NoMatch);

    auto e = previewSelector(R"(device.attributes["gpu.nvidia.com"].model == "x")", loaded.objects);
    ASSERT_TRUE(e.compiled);
    EXPECT_EQ(e.errors, 8u);
    EXPECT_EQ(e.devices[0].match, DeviceMatch::Error);
    EXPECT_NE(e.devices[0].error.find("model"), std::string::npos) << e.devices[0].error;
}

TEST(SelectorPreview, CompileErrorHasItsColumnAndNoDevices)
{
    auto loaded = validateManifestPaths({ kBasicCluster });
    auto p = previewSelector("device.driver == ", loaded.objects);
    EXPECT_FALSE(p.compiled);
    EXPECT_TRUE(p.devices.empty());
    EXPECT_EQ(p.compileError.line, 1);
    EXPECT_GE(p.compileError.column, 15);
    EXPECT_FALSE(p.compileError.message.empty());
}

TEST(ManifestCheck, ScenarioTextIsParsedAsAScenario)
{
    auto r = validateText(
        "apiVersion: drasim.dev/v1alpha1\nkind: Scenario\nmetadata:\n  name: s\nspec:\n  bogus: 1\n",
        "s.yaml");
    ASSERT_TRUE(r.diagnostics.hasErrors());
    EXPECT_NE(r.diagnostics.all().front().format().find("s.yaml:6:"), std::string::npos)
        << r.diagnostics.formatAll();
    EXPECT_EQ(r.objects.size(), 0u);
    auto m = validateText(kClassWithBadSelector, "m.yaml");
    EXPECT_NE(m.diagnostics.all().front().format().find("DeviceClass broken"), std::string::npos);
}

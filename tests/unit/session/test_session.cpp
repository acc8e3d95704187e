// SPDX-License-Identifier: Apache-2.0
#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>

#include "core/scheduler/batch.h"
#include "core/session/session.h"
#include "core/storage/database.h"
#include "tests/unit/temp_dir.h"

using namespace drasim;
using namespace drasim::session;

namespace {

using drasim::test_support::TempDir;

const std::string kBasic = DRASIM_SOURCE_DIR "/scenarios/basic/cluster.yaml";
const std::string kDefaultScenario = DRASIM_SOURCE_DIR "/scenarios/sim/default/scenario.yaml";

/// A scratch folder removed at the end of the test.

} // namespace

TEST(InputKind, ScenarioIsATopLevelKindLineOfARegularFile)
{
    TempDir dir;
    EXPECT_EQ(detectInputKind(kDefaultScenario), InputKind::Scenario);
    EXPECT_EQ(detectInputKind(kBasic), InputKind::Manifests);
    EXPECT_EQ(
        detectInputKind(dir.write("a.yaml", "apiVersion: x\nkind:   Scenario  \r\n")), InputKind::Scenario);
    EXPECT_EQ(detectInputKind(dir.write("b.yaml", "items:\n  kind: Scenario\n")), InputKind::Manifests);
    EXPECT_EQ(detectInputKind(dir.write("c.yaml", "kind: ScenarioSet\n")), InputKind::Manifests);
    EXPECT_EQ(detectInputKind(dir.write("d.yaml", "kind: Scenario")), InputKind::Scenario); // no newline
    EXPECT_EQ(detectInputKind(dir.path()), InputKind::Manifests);
    EXPECT_EQ(detectInputKind("-"), InputKind::Manifests);
    EXPECT_EQ(detectInputKind(dir.path() + "/missing.yaml"), InputKind::Manifests);
    EXPECT_STREQ(inputKindName(InputKind::Scenario), "scenario");
    EXPECT_STREQ(inputKindName(InputKind::Manifests), "manifests");
}

TEST(InputKind, AnyTopLevelKindCanBeAskedFor)
{
    TempDir dir;
    const std::string study = dir.write("study.yaml", "apiVersion: drasim.dev/v1alpha1\nkind: Study\n");
    EXPECT_TRUE(hasTopLevelKind(study, "Study"));
    EXPECT_FALSE(hasTopLevelKind(study, "Scenario"));
    EXPECT_EQ(detectInputKind(study), InputKind::Manifests); // the session opens no studies
    EXPECT_FALSE(hasTopLevelKind(dir.write("e.yaml", "spec:\n  kind: Study\n"), "Study"));
    EXPECT_FALSE(hasTopLevelKind(dir.write("f.yaml", "kind: Studies\n"), "Study"));
    EXPECT_FALSE(hasTopLevelKind(dir.path(), "Study"));
    EXPECT_FALSE(hasTopLevelKind("-", "Study"));
}

TEST(Session, OpensManifestsAndBuildsASchedulerCluster)
{
    Session s;
    ASSERT_TRUE(s.open({ kBasic })) << s.diagnostics().formatAll();
    EXPECT_EQ(s.kind(), InputKind::Manifests);
    ASSERT_EQ(s.inputs().size(), 1u);
    EXPECT_EQ(s.inputs()[0].path, kBasic);
    EXPECT_EQ(s.scenario(), nullptr);
    EXPECT_EQ(s.prepared(), nullptr);
    EXPECT_EQ(s.objects().nodes.size(), 2u);
    auto pendingInSession = [&] {
        int n = 0;
        for (const auto& p : s.objects().pods)
            n += p.spec.nodeName.empty();
        return n;
    };
    const int pendingBefore = pendingInSession();
    EXPECT_GT(pendingBefore, 0);
    auto cluster = s.buildCluster({});
    ASSERT_TRUE(cluster) << s.diagnostics().formatAll();
    auto batch = scheduler::scheduleAll(*cluster, s.objects().pods);
    ASSERT_FALSE(batch.pods.empty());
    int scheduled = 0;
    for (const auto& p : batch.pods)
        scheduled += !p.spec.nodeName.empty();
    EXPECT_GT(scheduled, 0);
    EXPECT_EQ(pendingInSession(), pendingBefore); // the cluster works on a copy
}

TEST(Session, OpensAScenarioWithTheClusterItBuilds)
{
    Session s;
    ASSERT_TRUE(s.open({ kDefaultScenario })) << s.diagnostics().formatAll();
    EXPECT_EQ(s.kind(), InputKind::Scenario);
    ASSERT_NE(s.scenario(), nullptr);
    EXPECT_EQ(s.scenario()->name, "default");
    ASSERT_NE(s.prepared(), nullptr);
    EXPECT_EQ(s.objects().nodes.size(), 10u); // 4 h100 + 6 l40s: what the Cluster view shows
    EXPECT_EQ(&s.objects(), s.prepared()->objects.get());
    EXPECT_TRUE(s.buildCluster({}));
}

TEST(Session, BadInputIsReportedAndNoClusterIsBuilt)
{
    TempDir dir;
    std::string bad = dir.write(
        "bad.yaml", "apiVersion: v1\nkind: Node\nmetadata: {name: n}\nspec: {unschedulable: maybe}\n");
    Session s;
    EXPECT_FALSE(s.open({ bad }));
    EXPECT_TRUE(s.diagnostics().hasErrors());
    EXPECT_NE(s.diagnostics().formatAll().find(bad + ":4:"), std::string::npos)
        << s.diagnostics().formatAll();
    EXPECT_EQ(s.buildCluster({}), nullptr);

    std::string scenario = dir.write("s.yaml",
        "apiVersion: drasim.dev/v1alpha1\nkind: Scenario\nmetadata: {name: s}\nspec:\n  cluster:\n"
        "    nodePools: [{name: a, shape: no-such-shape, count: 1}]\n");
    EXPECT_FALSE(s.open({ scenario }));
    EXPECT_EQ(s.kind(), InputKind::Scenario);
    EXPECT_EQ(s.prepared(), nullptr);
    EXPECT_NE(
        s.diagnostics().formatAll().find("spec.cluster.nodePools[0].shape: Not found: \"no-such-shape\""),
        std::string::npos)
        << s.diagnostics().formatAll();

    // Opening again starts over.
    ASSERT_TRUE(s.open({ kBasic })) << s.diagnostics().formatAll();
    EXPECT_FALSE(s.diagnostics().hasErrors());
    EXPECT_EQ(s.kind(), InputKind::Manifests);
    EXPECT_EQ(s.scenario(), nullptr);
}

TEST(Session, OpenManifestsReadsAScenarioFileAsManifests)
{
    Session s;
    ASSERT_TRUE(s.openManifests({ kDefaultScenario })) << s.diagnostics().formatAll();
    EXPECT_EQ(s.kind(), InputKind::Manifests);
    EXPECT_EQ(s.inputs()[0].kind, InputKind::Manifests);
    EXPECT_EQ(s.scenario(), nullptr);
    EXPECT_TRUE(s.objects().nodes.empty());
    EXPECT_NE(s.diagnostics().formatAll().find("warning: Scenario default: skipped"), std::string::npos)
        << s.diagnostics().formatAll();
}

TEST(Session, ClusterDiagnosticsAreAppended)
{
    TempDir dir;
    std::string file = dir.write("classes.yaml", R"(apiVersion: resource.k8s.io/v1
kind: DeviceClass
metadata: {name: broken}
spec:
  selectors:
  - cel: {expression: 'device.driver =='}
)");
    Session s;
    ASSERT_TRUE(s.open({ file })) << s.diagnostics().formatAll(); // the loader does not compile CEL
    EXPECT_FALSE(s.diagnostics().hasErrors());
    EXPECT_EQ(s.buildCluster({}), nullptr);
    EXPECT_EQ(s.diagnostics().formatAll(),
        file
            + ":6:40: DeviceClass broken: spec.selectors[0].cel.expression: compilation failed: Syntax "
              "error: "
              "mismatched input '<EOF>' expecting an expression\n");
}

TEST(Session, ACancelledOpenFails)
{
    CancelToken cancel;
    cancel.cancel();
    Session s;
    EXPECT_FALSE(s.open({ kBasic }, &cancel));
    EXPECT_EQ(s.buildCluster({}), nullptr);
    EXPECT_FALSE(s.open({ kDefaultScenario }, &cancel));
    EXPECT_EQ(s.prepared(), nullptr);
}

TEST(Session, OpensARunStore)
{
    TempDir dir;
    Session s;
    EXPECT_EQ(s.runStore(), nullptr);
    storage::RunStore& store = s.openRunStore(dir.path() + "/runs.db");
    EXPECT_EQ(s.runStore(), &store);
    EXPECT_TRUE(store.runs().empty());
    std::string notADb = dir.write("text.db", std::string(4096, 'x'));
    EXPECT_THROW(s.openRunStore(notADb), storage::StorageError);
    EXPECT_EQ(s.runStore(), nullptr);
}

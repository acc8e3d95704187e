// SPDX-License-Identifier: Apache-2.0
// A bundle written to a private folder for a run (write, read back, removed afterwards), and the
// paths a scenario names: every field found, and exactly the ones leaving the folder reported.
#include <filesystem>
#include <fstream>
#include <sstream>

#include <gtest/gtest.h>

#include "core/scenario/bundle_folder.h"
#include "core/scenario/named_paths.h"
#include "core/scenario/scenario.h"
#include "core/scenario/variant.h"
#include "tests/unit/temp_dir.h"

using namespace drasim;
using namespace drasim::scenario;
namespace fs = std::filesystem;

namespace {

std::string fileBytes(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

const std::vector<BundleFile> kFiles = {
    { "classes.yaml", "kind: DeviceClass\n" },
    { "scenario.yaml", "kind: Scenario\n" },
    { "workloads/a/train.yaml", "kind: Job\n" },
};

/// Every field that names a path, some inside the folder, some leaving it, one absolute.
const char* const kPathsScenario = R"(apiVersion: drasim.dev/v1alpha1
kind: Scenario
metadata: {name: paths}
spec:
  cluster:
    catalog: ../catalog
    shapes: [shapes/a.yaml]
    manifests: [/abs/dump.yaml]
    trace: {nodes: ../../nodes.csv}
  resources: [classes.yaml, sub/../../shared/classes.yaml]
  workloads:
    - name: jobs
      manifests: [jobs/a.yaml, ../jobs/b.yaml]
      duration: {distribution: empirical, file: durations.txt}
    - name: replay
      trace: {path: ../trace.csv}
    - name: nightly
      pipeline:
        path: pipe.yaml
        taskDurations: {train: {distribution: empirical, file: ../outside-durations.txt}}
)";

std::vector<std::string> fields(const std::vector<NamedPath>& paths)
{
    std::vector<std::string> out;
    for (const auto& p : paths)
        out.push_back(p.field);
    return out;
}

} // namespace

TEST(BundleFolder, HoldsTheFilesByteForByteUntilItIsDestroyed)
{
    std::string error, root;
    {
        auto folder = BundleFolder::create(kFiles, error);
        ASSERT_TRUE(folder) << error;
        root = fs::path(folder->folder()).parent_path().string();
        EXPECT_TRUE(fs::path(folder->folder()).is_absolute());
        for (const auto& f : kFiles)
            EXPECT_EQ(fileBytes(folder->path(f.path)), f.content) << f.path;
        // Only the finished folder is there: the staging name was renamed away.
        std::vector<std::string> entries;
        for (const auto& e : fs::directory_iterator(root))
            entries.push_back(e.path().filename().string());
        EXPECT_EQ(entries, std::vector<std::string> { "scenario" });
        // Private to this user.
        const fs::perms p = fs::status(root).permissions();
        EXPECT_EQ(p & (fs::perms::group_all | fs::perms::others_all), fs::perms::none);
    }
    EXPECT_FALSE(fs::exists(root));
}

TEST(BundleFolder, TwoFoldersOfTheSameFilesAreDistinct)
{
    std::string error;
    auto a = BundleFolder::create(kFiles, error);
    auto b = BundleFolder::create(kFiles, error);
    ASSERT_TRUE(a && b) << error;
    EXPECT_NE(a->folder(), b->folder());
}

TEST(BundleFolder, AFileLeavingTheFolderIsRefusedAndNothingIsLeftBehind)
{
    const fs::path tmp = fs::temp_directory_path();
    auto count = [&] {
        int n = 0;
        for (const auto& e : fs::directory_iterator(tmp))
            n += e.path().filename().string().rfind("drasim-scenario-", 0) == 0;
        return n;
    };
    const int before = count();
    std::string error;
    auto folder = BundleFolder::create({ { "scenario.yaml", "x" }, { "../escape.yaml", "x" } }, error);
    EXPECT_FALSE(folder);
    EXPECT_NE(error.find("\"../escape.yaml\" would land outside the folder"), std::string::npos) << error;
    EXPECT_EQ(count(), before);
}

TEST(BundleFolder, RelabelReplacesTheFolderWhereverItStartsAPath)
{
    std::string error;
    auto folder = BundleFolder::create(kFiles, error);
    ASSERT_TRUE(folder) << error;
    const std::string f = folder->folder();
    const std::string text = f + "/scenario.yaml:3:1: bad\ncannot read " + f + "/workloads/a/train.yaml\n";
    EXPECT_EQ(folder->relabel(text, "store:x@2"),
        "store:x@2/scenario.yaml:3:1: bad\ncannot read store:x@2/workloads/a/train.yaml\n");
    EXPECT_EQ(folder->relabel(text, ""), "scenario.yaml:3:1: bad\ncannot read workloads/a/train.yaml\n");
    EXPECT_EQ(folder->relabel("nothing here", "store:x@2"), "nothing here");
}

TEST(NamedPaths, EveryPathFieldIsListedAndOnlyThoseLeavingTheFolderAreOutside)
{
    test_support::TempDir dir; // the scenario's folder is s/, the outside durations beside it
    fs::create_directories(dir.file("s"));
    dir.write("s/durations.txt", "300\n5m\n");
    dir.write("outside-durations.txt", "60\n");
    const std::string folder = dir.file("s");
    Diagnostics diags;
    auto sc = parseScenario(kPathsScenario, dir.file("s/scenario.yaml"), diags);
    ASSERT_TRUE(sc) << diags.formatAll();

    EXPECT_EQ(fields(namedPaths(*sc)),
        (std::vector<std::string> { "spec.cluster.catalog", "spec.cluster.shapes[0]",
            "spec.cluster.manifests[0]", "spec.cluster.trace.nodes", "spec.resources[0]", "spec.resources[1]",
            "spec.workloads[0].manifests[0]", "spec.workloads[0].manifests[1]",
            "spec.workloads[0].duration.file", "spec.workloads[1].trace.path",
            "spec.workloads[2].pipeline.path", "spec.workloads[2].pipeline.taskDurations.train.file" }));
    const auto outside = pathsOutside(*sc, folder);
    EXPECT_EQ(fields(outside),
        (std::vector<std::string> { "spec.cluster.catalog", "spec.cluster.trace.nodes", "spec.resources[1]",
            "spec.workloads[0].manifests[1]", "spec.workloads[1].trace.path",
            "spec.workloads[2].pipeline.taskDurations.train.file" }));
    // Paths stay as joined, so the "../" steps can be shown as written.
    EXPECT_EQ(outside[0].path, folder + "/../catalog");
    EXPECT_EQ(outside[2].path, folder + "/sub/../../shared/classes.yaml");
}

TEST(NamedPaths, AVariantWhoseBaseLiesOutsideItsFolderIsOutside)
{
    test_support::TempDir dir;
    fs::create_directories(dir.file("base"));
    fs::create_directories(dir.file("variant"));
    dir.write("base/scenario.yaml",
        "apiVersion: drasim.dev/v1alpha1\nkind: Scenario\nmetadata: {name: b}\nspec: {}\n");
    dir.write("variant/v.variant.yaml",
        "apiVersion: drasim.dev/v1alpha1\nkind: Variant\nmetadata: {name: v}\nspec:\n  base: "
        "../base/scenario.yaml\n  overrides:\n  - scheduling: {scoring: most-allocated}\n");
    Diagnostics diags;
    auto sc = loadScenarioOrVariant(dir.file("variant/v.variant.yaml"), diags);
    ASSERT_TRUE(sc) << diags.formatAll();
    const auto outside = pathsOutside(*sc, dir.file("variant"));
    ASSERT_EQ(outside.size(), 1u);
    EXPECT_EQ(outside[0].field, "spec.base");
    EXPECT_EQ(fs::path(outside[0].path).lexically_normal(), fs::path(dir.file("base/scenario.yaml")));
    // From the folder holding both, nothing is outside.
    EXPECT_TRUE(pathsOutside(*sc, dir.path()).empty());
}

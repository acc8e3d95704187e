// SPDX-License-Identifier: Apache-2.0
// A study exported with its files runs from its folder alone, and plans exactly as the original.
#include <filesystem>
#include <fstream>
#include <sstream>
#include <unistd.h>

#include <gtest/gtest.h>

#include "core/planner/planner.h"
#include "core/planner/study_export.h"
#include "core/scenario/named_paths.h"

using namespace drasim;
using namespace drasim::planner;
namespace fs = std::filesystem;

namespace {

const std::string kSmallStudy = std::string(DRASIM_SOURCE_DIR) + "/tests/unit/planner/data/small/study.yaml";

std::string readText(const fs::path& p)
{
    std::ifstream f(p, std::ios::binary);
    std::stringstream s;
    s << f.rdbuf();
    return s.str();
}

struct Folder
{
    fs::path path;
    explicit Folder(const std::string& name)
        : path(fs::temp_directory_path() / ("drasim-export-" + name + "-" + std::to_string(::getpid())))
    {
        fs::remove_all(path);
    }
    ~Folder() { fs::remove_all(path); }
};

Plan prepared(const std::string& study)
{
    Diagnostics diags;
    auto s = loadStudy(study, diags);
    auto plan = s ? preparePlan(*s, diags) : std::nullopt;
    EXPECT_TRUE(plan.has_value()) << diags.formatAll();
    return plan ? *plan : Plan {};
}

TEST(StudyExport, CopiesEveryFileAndRewritesOnlyThePaths)
{
    Folder out("small");
    std::vector<ExportedFile> files;
    std::string error;
    ASSERT_TRUE(exportStudy(prepared(kSmallStudy), out.path.string(), files, error)) << error;

    // The scenario's paths lead to the copies; everything else of both documents is as written.
    const std::string scenario = readText(out.path / "scenario.yaml");
    EXPECT_NE(scenario.find("  cluster:\n    catalog: catalog\n    nodePools:\n"), std::string::npos)
        << scenario;
    EXPECT_NE(scenario.find("  resources: [resources/classes.yaml]\n"), std::string::npos) << scenario;
    EXPECT_NE(scenario.find("      manifests: [workloads/training.yaml]\n"), std::string::npos) << scenario;
    EXPECT_NE(scenario.find("# The default scenario's workloads without its events"), std::string::npos);
    EXPECT_EQ(scenario.find("../"), std::string::npos) << scenario;
    EXPECT_EQ(readText(out.path / "study.yaml"), readText(kSmallStudy));
    EXPECT_TRUE(fs::is_regular_file(out.path / "catalog" / "dgx-h100.yaml"));
    EXPECT_FALSE(fs::exists(out.path.string() + ".partial"));

    // Self-contained: no path leaves the folder, and the copy reads as the original does.
    Plan copy = prepared((out.path / "study.yaml").string());
    EXPECT_TRUE(scenario::pathsOutside(copy.scenario, out.path.string()).empty());
    EXPECT_EQ(copy.candidates.size(), 2u);
    for (const ExportedFile& f : files)
        EXPECT_EQ(readText(f.source), readText(out.path / f.path)) << f.field;
}

TEST(StudyExport, SameFileTwiceIsCopiedOnceAndNamesDoNotCollide)
{
    Folder src("collide-src"), out("collide");
    fs::create_directories(src.path / "a");
    fs::create_directories(src.path / "b");
    fs::copy_file(
        std::string(DRASIM_SOURCE_DIR) + "/scenarios/sim/default/classes.yaml", src.path / "a/classes.yaml");
    fs::copy_file(
        std::string(DRASIM_SOURCE_DIR) + "/scenarios/sim/default/classes.yaml", src.path / "b/classes.yaml");
    std::string scenario
        = readText(std::string(DRASIM_SOURCE_DIR) + "/tests/unit/planner/data/small/scenario.yaml");
    const std::string from = "resources: [../../../../../scenarios/sim/default/classes.yaml]";
    scenario.replace(scenario.find(from), from.size(),
        "resources:\n    - a/classes.yaml\n    - \"b/classes.yaml\"  # quoted\n    - ./a/classes.yaml");
    const std::string training = std::string(DRASIM_SOURCE_DIR) + "/scenarios/sim/default/workloads/";
    for (size_t at;
         (at = scenario.find("../../../../../scenarios/sim/default/workloads/")) != std::string::npos;)
        scenario.replace(at, 47, training);
    std::ofstream(src.path / "scenario.yaml") << scenario;
    std::ofstream(src.path / "study.yaml") << readText(kSmallStudy);

    std::vector<ExportedFile> files;
    std::string error;
    ASSERT_TRUE(exportStudy(prepared((src.path / "study.yaml").string()), out.path.string(), files, error))
        << error;
    const std::string written = readText(out.path / "scenario.yaml");
    EXPECT_NE(written.find("    - resources/classes.yaml\n    - resources/classes-2.yaml  # quoted\n"
                           "    - resources/classes.yaml\n"),
        std::string::npos)
        << written;
    // Absolute paths are copied too.
    EXPECT_NE(written.find("      manifests: [workloads/training.yaml]\n"), std::string::npos) << written;
}

TEST(StudyExport, RefusesAFolderThatHoldsFiles)
{
    Folder out("busy");
    fs::create_directories(out.path);
    std::ofstream(out.path / "keep.txt") << "mine";
    std::vector<ExportedFile> files;
    std::string error;
    EXPECT_FALSE(exportStudy(prepared(kSmallStudy), out.path.string(), files, error));
    EXPECT_EQ(error, out.path.string() + " exists and is not an empty folder; give a new one");
    EXPECT_EQ(readText(out.path / "keep.txt"), "mine");
}

TEST(StudyExport, AMissingFileLeavesNothingBehind)
{
    Folder out("missing");
    Plan plan = prepared(kSmallStudy);
    plan.scenario.resources.push_back("no-such-file.yaml");
    std::vector<ExportedFile> files;
    std::string error;
    EXPECT_FALSE(exportStudy(plan, out.path.string(), files, error));
    EXPECT_NE(
        error.find("no-such-file.yaml (spec.resources[1]): No such file or directory"), std::string::npos)
        << error;
    EXPECT_FALSE(fs::exists(out.path));
    EXPECT_FALSE(fs::exists(out.path.string() + ".partial"));
}

} // namespace

// SPDX-License-Identifier: Apache-2.0
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <stdlib.h>

#include <gtest/gtest.h>

#include "core/scenario/scenario_bundle.h"

using namespace drasim;
using namespace drasim::scenario;
namespace fs = std::filesystem;

namespace {

class TempDir
{
public:
    TempDir()
    {
        std::string tmpl = (fs::temp_directory_path() / "drasim-bundle-XXXXXX").string();
        m_path = mkdtemp(tmpl.data());
    }
    ~TempDir() { fs::remove_all(m_path); }
    std::string path(const std::string& name = {}) const
    {
        return name.empty() ? m_path : m_path + "/" + name;
    }

private:
    std::string m_path;
};

std::string slurp(const fs::path& p)
{
    std::ifstream in(p, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

/// Every regular file under a folder, relative path -> bytes.
std::map<std::string, std::string> tree(const std::string& folder)
{
    std::map<std::string, std::string> out;
    for (const auto& e : fs::recursive_directory_iterator(folder))
        if (e.is_regular_file())
            out[e.path().lexically_relative(folder).generic_string()] = slurp(e.path());
    return out;
}

} // namespace

TEST(ScenarioBundle, ExportThenImportIsByteStable)
{
    const std::string source = std::string(DRASIM_SOURCE_DIR) + "/scenarios/sim/default";
    Diagnostics diags;
    auto bundle = readBundle(source, diags);
    ASSERT_TRUE(bundle) << diags.formatAll();
    EXPECT_EQ(bundle->name, "default");
    EXPECT_EQ(bundle->mainFile, "scenario.yaml");
    std::vector<std::string> paths;
    for (const auto& f : bundle->files)
        paths.push_back(f.path);
    // The YAML of the folder, not its README or goldens.
    EXPECT_EQ(paths,
        (std::vector<std::string> { "classes.yaml", "scenario.yaml", "workloads/batch-inference.yaml",
            "workloads/finetune.yaml", "workloads/serving.yaml", "workloads/training.yaml" }));

    TempDir out;
    std::string error;
    ASSERT_TRUE(writeBundle(bundle->files, out.path("exported"), error)) << error;
    for (const auto& [path, bytes] : tree(out.path("exported")))
        EXPECT_EQ(bytes, slurp(source + "/" + path)) << path;
    auto again = readBundle(out.path("exported"), diags);
    ASSERT_TRUE(again) << diags.formatAll();
    EXPECT_EQ(again->files, bundle->files);
    EXPECT_EQ(again->hash, bundle->hash);
}

TEST(ScenarioBundle, TheHashTellsEveryDifferenceApart)
{
    const std::vector<BundleFile> base { { "a.yaml", "x" }, { "scenario.yaml", "y" } };
    const std::string h = bundleHash(base, "scenario.yaml");
    EXPECT_EQ(h, bundleHash(base, "scenario.yaml"));
    EXPECT_NE(h, bundleHash(base, "a.yaml"));
    EXPECT_NE(h, bundleHash({ { "a.yaml", "x " }, { "scenario.yaml", "y" } }, "scenario.yaml"));
    EXPECT_NE(h, bundleHash({ { "b.yaml", "x" }, { "scenario.yaml", "y" } }, "scenario.yaml"));
    // Moving bytes from one file to the next is a different bundle, not the same concatenation.
    EXPECT_NE(bundleHash({ { "a.yaml", "xy" }, { "b.yaml", "" } }, "a.yaml"),
        bundleHash({ { "a.yaml", "x" }, { "b.yaml", "y" } }, "a.yaml"));
}

TEST(ScenarioBundle, ProblemsAreReportedWithTheirFile)
{
    TempDir dir;
    Diagnostics diags;
    EXPECT_FALSE(readBundle(dir.path("missing"), diags));
    EXPECT_EQ(diags.formatAll(), dir.path("missing") + ": no such file or folder\n");

    Diagnostics empty;
    EXPECT_FALSE(readBundle(dir.path(), empty));
    EXPECT_EQ(empty.formatAll(), dir.path() + ": no scenario.yaml in this folder\n");

    std::ofstream(dir.path("scenario.yaml"))
        << "apiVersion: drasim.dev/v1alpha1\nkind: Scenario\nmetadata: {name: x}\nspec:\n  seed: -1\n";
    Diagnostics bad;
    EXPECT_FALSE(readBundle(dir.path(), bad));
    EXPECT_NE(bad.formatAll().find(dir.path("scenario.yaml") + ":5:"), std::string::npos) << bad.formatAll();

    std::string error;
    fs::create_directories(dir.path("full"));
    std::ofstream(dir.path("full/keep.txt")) << "mine";
    EXPECT_FALSE(writeBundle({ { "scenario.yaml", "a" } }, dir.path("full"), error));
    EXPECT_EQ(error, dir.path("full") + ": exists and is not an empty folder; nothing was written");
    EXPECT_EQ(slurp(dir.path("full/keep.txt")), "mine");
    EXPECT_FALSE(writeBundle({ { "../escape.yaml", "a" } }, dir.path("new"), error));
    EXPECT_EQ(error, dir.path("new") + ": the stored file \"../escape.yaml\" would land outside the folder");
    EXPECT_FALSE(fs::exists(dir.path("escape.yaml")));
}

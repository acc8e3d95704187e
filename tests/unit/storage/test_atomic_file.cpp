// SPDX-License-Identifier: Apache-2.0
#include <filesystem>
#include <fstream>
#include <sstream>

#include <gtest/gtest.h>

#include "core/common/atomic_file.h"

namespace fs = std::filesystem;

namespace {
std::string slurp(const std::string& path)
{
    std::ifstream in(path);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}
} // namespace

TEST(AtomicFile, ReplacesContentAndLeavesNoTemporaryFiles)
{
    std::string tmpl = (fs::temp_directory_path() / "drasim-atomic-XXXXXX").string();
    fs::path dir = mkdtemp(tmpl.data());
    std::string target = (dir / "summary.json").string();
    ASSERT_TRUE(drasim::writeFileAtomically(target, "{\"a\": 1}\n"));
    ASSERT_TRUE(drasim::writeFileAtomically(target, "{\"a\": 2}\n"));
    EXPECT_EQ(slurp(target), "{\"a\": 2}\n");
    EXPECT_EQ(std::distance(fs::directory_iterator(dir), fs::directory_iterator()), 1);
    fs::remove_all(dir);
}

TEST(AtomicFile, FailureNamesThePathAndKeepsNothing)
{
    std::string error;
    EXPECT_FALSE(drasim::writeFileAtomically("/nonexistent-dir/out.json", "x", &error));
    EXPECT_EQ(error.rfind("/nonexistent-dir/out.json: cannot create temporary file: ", 0), 0u) << error;
}

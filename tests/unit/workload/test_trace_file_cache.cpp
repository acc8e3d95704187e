// SPDX-License-Identifier: Apache-2.0
// The pod list of a trace file is parsed once and shared while the file stays as it was: the
// shared list equals a fresh read, a rewritten file is read again, and a file with errors reports
// them on every read.
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>

#include "core/workload/trace_file_cache.h"
#include "tests/unit/workload/source_helpers.h"

using namespace drasim;
using namespace drasim::workload;

namespace {

using test_support::kTraceData;

/// A copy of a fixture in a folder of its own, removed with it.
class TraceCopy
{
public:
    explicit TraceCopy(const std::string& fixture)
    {
        std::string tmpl = (std::filesystem::temp_directory_path() / "drasim-trace-cache-XXXXXX").string();
        m_dir = mkdtemp(tmpl.data());
        m_path = (m_dir / "pods.csv").string();
        std::filesystem::copy_file(kTraceData + fixture, m_path);
    }
    ~TraceCopy() { std::filesystem::remove_all(m_dir); }
    TraceCopy(const TraceCopy&) = delete;
    TraceCopy& operator=(const TraceCopy&) = delete;

    const std::string& path() const { return m_path; }
    /// Keeps the first `rows` data rows (and the header), as an editor saving the file would.
    void truncateTo(size_t rows)
    {
        std::ifstream in(m_path);
        std::string text, line;
        for (size_t i = 0; i <= rows && std::getline(in, line); ++i)
            text += line + "\n";
        in.close();
        std::ofstream(m_path, std::ios::trunc) << text;
    }

private:
    std::filesystem::path m_dir;
    std::string m_path;
};

std::vector<std::string> rowNames(const AlibabaPodList& list)
{
    std::vector<std::string> names;
    for (const auto& r : list.rows)
        names.push_back(r.name);
    return names;
}

} // namespace

TEST(TraceFileCache, TheSharedListEqualsAFreshReadAndIsReadOnce)
{
    TraceCopy file("pods_small.csv");
    Diagnostics d1, d2, fresh;
    auto first = sharedAlibabaPods(file.path(), d1, std::nullopt);
    auto second = sharedAlibabaPods(file.path(), d2, std::nullopt);
    auto plain = readAlibabaPods(file.path(), fresh);
    ASSERT_TRUE(first && second && plain);
    EXPECT_EQ(first.get(), second.get()); // one parse, shared
    EXPECT_EQ(rowNames(*first), rowNames(*plain));
    EXPECT_EQ(first->hasTimes, plain->hasTimes);
    EXPECT_EQ(first->rows.back().deletion, plain->rows.back().deletion);
    EXPECT_TRUE(d1.all().empty() && d2.all().empty());
    // A limit is part of what was read.
    Diagnostics d3;
    auto limited = sharedAlibabaPods(file.path(), d3, 5);
    ASSERT_TRUE(limited);
    EXPECT_EQ(limited->rows.size(), 5u);
    EXPECT_EQ(sharedAlibabaPods(file.path(), d3, std::nullopt).get(), first.get());
}

TEST(TraceFileCache, ARewrittenFileIsReadAgain)
{
    TraceCopy file("pods_small.csv");
    Diagnostics diags;
    auto before = sharedAlibabaPods(file.path(), diags, std::nullopt);
    ASSERT_TRUE(before);
    ASSERT_GT(before->rows.size(), 3u);
    file.truncateTo(3);
    auto after = sharedAlibabaPods(file.path(), diags, std::nullopt);
    ASSERT_TRUE(after);
    EXPECT_EQ(after->rows.size(), 3u);
    EXPECT_FALSE(diags.hasErrors()) << diags.formatAll();
}

TEST(TraceFileCache, AFileWithErrorsReportsThemOnEveryRead)
{
    TraceCopy file("pods_malformed.csv");
    for (int read = 0; read < 2; ++read) {
        Diagnostics diags;
        EXPECT_EQ(sharedAlibabaPods(file.path(), diags, std::nullopt), nullptr);
        ASSERT_TRUE(diags.hasErrors());
        EXPECT_NE(diags.formatAll().find("pods.csv:3:"), std::string::npos) << diags.formatAll();
    }
    Diagnostics missing;
    EXPECT_EQ(sharedAlibabaPods(file.path() + ".gone", missing, std::nullopt), nullptr);
    EXPECT_TRUE(missing.hasErrors());
}

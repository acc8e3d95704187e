// SPDX-License-Identifier: Apache-2.0
// A folder of its own under the system's temporary directory for one test, removed with
// everything in it when the test ends: where store, session and scenario tests put their files.
#pragma once

#include <filesystem>
#include <fstream>
#include <stdlib.h>
#include <string>

namespace drasim::test_support {

class TempDir
{
public:
    explicit TempDir(const std::string& prefix = "drasim-test")
    {
        std::string tmpl = (std::filesystem::temp_directory_path() / (prefix + "-XXXXXX")).string();
        m_path = mkdtemp(tmpl.data());
    }
    ~TempDir() { std::filesystem::remove_all(m_path); }
    TempDir(const TempDir&) = delete;
    TempDir& operator=(const TempDir&) = delete;

    std::string path() const { return m_path.string(); }
    /// The path of `name` inside the folder.
    std::string file(const std::string& name) const { return (m_path / name).string(); }
    /// Writes `text` to `name` inside the folder; returns its path.
    std::string write(const std::string& name, const std::string& text) const
    {
        std::ofstream(m_path / name, std::ios::binary) << text;
        return file(name);
    }

private:
    std::filesystem::path m_path;
};

} // namespace drasim::test_support

// SPDX-License-Identifier: Apache-2.0
#include "core/scenario/bundle_folder.h"

#include <cstdlib>
#include <filesystem>
#include <system_error>

namespace drasim::scenario {

namespace fs = std::filesystem;

std::unique_ptr<BundleFolder> BundleFolder::create(const std::vector<BundleFile>& files, std::string& error)
{
    std::error_code ec;
    fs::path base = fs::temp_directory_path(ec);
    if (ec) {
        error = "cannot find the temporary folder: " + ec.message();
        return nullptr;
    }
    // mkdtemp makes the folder with mode 0700 and a name no one else can have taken.
    std::string root = (base / "drasim-scenario-XXXXXX").string();
    if (!mkdtemp(root.data())) {
        error = "cannot create a temporary folder under " + base.string();
        return nullptr;
    }
    root = fs::path(root).lexically_normal().string(); // as the loader's resolved paths spell it
    // Owns the root from here on, so every failure below removes it.
    std::unique_ptr<BundleFolder> out(new BundleFolder(root, (fs::path(root) / "scenario").string()));
    const std::string staging = (fs::path(root) / ".staging").string();
    if (!writeBundle(files, staging, error))
        return nullptr;
    fs::rename(staging, out->m_folder, ec);
    if (ec) {
        error = out->m_folder + ": " + ec.message();
        return nullptr;
    }
    return out;
}

BundleFolder::BundleFolder(std::string root, std::string folder)
    : m_root(std::move(root))
    , m_folder(std::move(folder))
{ }

BundleFolder::~BundleFolder()
{
    std::error_code ec;
    fs::remove_all(m_root, ec); // best effort: the system cleans its temporary folder too
}

std::string BundleFolder::path(const std::string& file) const
{
    return (fs::path(m_folder) / file).string();
}

std::string BundleFolder::relabel(std::string text, const std::string& label) const
{
    const std::string from = m_folder + "/";
    const std::string to = label.empty() ? std::string() : label + "/";
    for (size_t at = 0; (at = text.find(from, at)) != std::string::npos; at += to.size())
        text.replace(at, from.size(), to);
    return text;
}

} // namespace drasim::scenario

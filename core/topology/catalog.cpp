// SPDX-License-Identifier: Apache-2.0
#include "core/topology/catalog.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <system_error>

#include "core/topology/shape_reader.h"

namespace drasim::topology {

namespace fs = std::filesystem;

Catalog Catalog::load(const std::string& dir, Diagnostics& diags)
{
    Catalog c;
    c.m_dir = dir;
    std::error_code ec;
    if (!fs::is_directory(dir, ec)) {
        diags.error(SourcePos { dir, 0, 0 }, "", "", "", "hardware catalog directory not found");
        return c;
    }
    std::vector<fs::path> files;
    for (const auto& entry : fs::directory_iterator(dir, ec)) {
        if (!entry.is_regular_file(ec))
            continue;
        const auto ext = entry.path().extension().string();
        if (ext == ".yaml" || ext == ".yml")
            files.push_back(entry.path());
    }
    std::sort(files.begin(), files.end());
    std::map<std::string, std::string> seen;
    for (const auto& f : files) {
        for (auto& s : loadNodeShapeFile(f.string(), diags)) {
            auto [it, added] = seen.emplace(s.name, f.string());
            if (!added) {
                diags.error(s.pos, "NodeShape", s.name, "metadata.name",
                    "shape name already defined in " + it->second);
                continue;
            }
            c.m_shapes.push_back(std::move(s));
        }
    }
    std::sort(c.m_shapes.begin(), c.m_shapes.end(),
        [](const NodeShape& a, const NodeShape& b) { return a.name < b.name; });
    return c;
}

std::vector<std::string> Catalog::searchPath()
{
    std::vector<std::string> out;
    if (const char* env = std::getenv("DRASIM_HARDWARE_DIR"); env && *env)
        out.emplace_back(env);
    // An installed program finds the catalog it was installed with (<prefix>/bin/drasim next to
    // <prefix>/share/drasim/resources/hardware) before the source tree it was built from, so an
    // installed copy never depends on a checkout that happens to still exist.
    std::error_code ec;
    auto exe = fs::read_symlink("/proc/self/exe", ec);
    if (!ec)
        out.push_back(
            (exe.parent_path().parent_path() / "share" / "drasim" / "resources" / "hardware").string());
#ifdef DRASIM_HARDWARE_SOURCE_DIR
    out.emplace_back(DRASIM_HARDWARE_SOURCE_DIR);
#endif
    return out;
}

std::string Catalog::defaultDirectory()
{
    std::error_code ec;
    for (const auto& d : searchPath())
        if (fs::is_directory(d, ec))
            return d;
    return {};
}

const NodeShape* Catalog::find(const std::string& name) const
{
    auto it = std::lower_bound(m_shapes.begin(), m_shapes.end(), name,
        [](const NodeShape& s, const std::string& n) { return s.name < n; });
    return it != m_shapes.end() && it->name == name ? &*it : nullptr;
}

std::vector<std::string> Catalog::names() const
{
    std::vector<std::string> out;
    for (const auto& s : m_shapes)
        out.push_back(s.name);
    return out;
}

} // namespace drasim::topology

// SPDX-License-Identifier: Apache-2.0
#include "core/topology/importers.h"

#include <cctype>
#include <filesystem>

#include "core/topology/catalog.h"
#include "core/topology/shape_reader.h"
#include "core/yamlio/yaml_tree.h"

namespace drasim::topology {

namespace {

// "DGX_H100 topo.txt" → "dgx-h100-topo": a DNS label usable as metadata.name.
std::string nameFromPath(const std::string& path)
{
    std::string stem = std::filesystem::path(path).stem().string();
    std::string out;
    for (char ch : stem) {
        const char c = char(std::tolower(static_cast<unsigned char>(ch)));
        if (std::isalnum(static_cast<unsigned char>(c)))
            out += c;
        else if (!out.empty() && out.back() != '-')
            out += '-';
    }
    while (!out.empty() && out.back() == '-')
        out.pop_back();
    if (out.size() > 63)
        out.resize(63);
    while (!out.empty() && out.back() == '-')
        out.pop_back();
    return out.empty() ? "imported" : out;
}

} // namespace

std::vector<NodeShape> loadShapeInput(
    const std::string& path, const ImportOptions& options, Diagnostics& diags)
{
    std::string text;
    std::string why;
    if (!yamlio::readFile(path, text, &why)) {
        diags.error(SourcePos { path, 0, 0 }, "", "", "", why);
        return {};
    }
    ImportOptions opts = options;
    if (opts.shapeName.empty() || opts.shapeName == "imported")
        opts.shapeName = path == "-" ? "imported" : nameFromPath(path);
    switch (detectFormat(text)) {
    case InputFormat::HwlocXml: {
        NodeShape s;
        if (!importHwlocXml(text, path, opts, s, diags))
            return {};
        return { std::move(s) };
    }
    case InputFormat::NvidiaSmiTopo: {
        NodeShape s;
        if (!importNvidiaSmiTopo(text, path, opts, s, diags))
            return {};
        return { std::move(s) };
    }
    case InputFormat::NodeShapeYaml:
        break;
    }
    return readNodeShapes(text, path, diags);
}

std::vector<NodeShape> resolveShapeArgument(
    const std::string& arg, const std::string& catalogDir, const ImportOptions& options, Diagnostics& diags)
{
    std::error_code ec;
    if (arg == "-" || std::filesystem::is_regular_file(arg, ec))
        return loadShapeInput(arg, options, diags);
    const std::string dir = catalogDir.empty() ? Catalog::defaultDirectory() : catalogDir;
    if (dir.empty()) {
        diags.error(SourcePos { arg, 0, 0 }, "", "", "",
            "no such file, and no hardware catalog found (set DRASIM_HARDWARE_DIR or use --catalog)");
        return {};
    }
    Diagnostics catalogDiags;
    Catalog catalog = Catalog::load(dir, catalogDiags);
    if (const NodeShape* s = catalog.find(arg))
        return { *s };
    // Only now do broken catalog files matter: they may be why the name is missing.
    diags.append(catalogDiags);
    std::string known;
    for (const auto& n : catalog.names())
        known += (known.empty() ? "" : ", ") + n;
    diags.error(SourcePos { arg, 0, 0 }, "", "", "",
        "no such file or catalog shape (catalog " + dir + " has: " + (known.empty() ? "nothing" : known)
            + ")");
    return {};
}

} // namespace drasim::topology

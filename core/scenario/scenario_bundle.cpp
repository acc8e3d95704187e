// SPDX-License-Identifier: Apache-2.0
#include "core/scenario/scenario_bundle.h"

#include <algorithm>
#include <filesystem>
#include <system_error>

#include "core/common/atomic_file.h"
#include "core/common/sha256.h"
#include "core/scenario/scenario.h"
#include "core/scenario/variant.h"
#include "core/yamlio/yaml_tree.h"

namespace drasim::scenario {

namespace fs = std::filesystem;

namespace {

constexpr const char* kMainFile = "scenario.yaml";

bool isYaml(const fs::path& p)
{
    const std::string ext = p.extension().string();
    return ext == ".yaml" || ext == ".yml";
}

void fail(Diagnostics& diags, const std::string& file, const std::string& message)
{
    diags.error(SourcePos { file, 0, 0 }, "", "", "", message);
}

/// Every YAML file under `folder` (hidden files and folders skipped), relative paths sorted.
bool listYaml(const fs::path& folder, std::vector<std::string>& out, Diagnostics& diags)
{
    std::error_code ec;
    fs::recursive_directory_iterator it(folder, fs::directory_options::none, ec), end;
    for (; !ec && it != end; it.increment(ec)) {
        const std::string name = it->path().filename().string();
        if (!name.empty() && name[0] == '.') {
            if (it->is_directory(ec))
                it.disable_recursion_pending();
            continue;
        }
        if (it->is_regular_file(ec) && isYaml(it->path()))
            out.push_back(it->path().lexically_relative(folder).generic_string());
        if (out.size() > kMaxBundleFiles) {
            fail(diags, folder.string(),
                "more than " + std::to_string(kMaxBundleFiles) + " YAML files: not a scenario folder");
            return false;
        }
    }
    if (ec) {
        fail(diags, folder.string(), "cannot list the folder: " + ec.message());
        return false;
    }
    std::sort(out.begin(), out.end());
    return true;
}

} // namespace

std::string bundleHash(const std::vector<BundleFile>& files, const std::string& mainFile)
{
    // Lengths before bytes, so that no two different bundles serialise alike.
    std::string text = "drasim-bundle-1\n" + std::to_string(mainFile.size()) + ":" + mainFile + "\n";
    for (const BundleFile& f : files)
        text += std::to_string(f.path.size()) + ":" + f.path + std::to_string(f.content.size()) + ":"
            + f.content;
    return sha256Hex(text);
}

std::optional<ScenarioBundle> readBundle(const std::string& path, Diagnostics& diags)
{
    std::error_code ec;
    const bool isFolder = fs::is_directory(path, ec);
    if (!isFolder && !fs::is_regular_file(path, ec)) {
        fail(diags, path, "no such file or folder");
        return std::nullopt;
    }
    const fs::path folder = isFolder ? fs::path(path) : fs::path(path).parent_path();
    const fs::path base = folder.empty() ? fs::path(".") : folder;
    ScenarioBundle bundle;
    bundle.mainFile = isFolder ? kMainFile : fs::path(path).filename().string();
    if (isFolder && !fs::is_regular_file(base / kMainFile, ec)) {
        fail(diags, path, "no scenario.yaml in this folder");
        return std::nullopt;
    }
    std::vector<std::string> paths;
    if (!listYaml(base, paths, diags))
        return std::nullopt;
    if (std::find(paths.begin(), paths.end(), bundle.mainFile) == paths.end())
        paths.insert(std::upper_bound(paths.begin(), paths.end(), bundle.mainFile), bundle.mainFile);
    size_t bytes = 0;
    for (const std::string& p : paths) {
        BundleFile f { p, {} };
        std::string error;
        if (!yamlio::readFile((base / p).string(), f.content, &error, kMaxBundleBytes - bytes)) {
            fail(diags, (base / p).string(), error);
            return std::nullopt;
        }
        bytes += f.content.size();
        bundle.files.push_back(std::move(f));
    }
    // The main file may be a Variant: it is checked with its base applied, as it would run.
    std::optional<Scenario> sc = loadScenarioOrVariant((base / bundle.mainFile).string(), diags);
    if (!sc)
        return std::nullopt;
    bundle.name = sc->name;
    bundle.hash = bundleHash(bundle.files, bundle.mainFile);
    return bundle;
}

bool writeBundle(const std::vector<BundleFile>& files, const std::string& folder, std::string& error)
{
    std::error_code ec;
    if (fs::exists(folder, ec) && !(fs::is_directory(folder, ec) && fs::is_empty(folder, ec))) {
        error = folder + ": exists and is not an empty folder; nothing was written";
        return false;
    }
    for (const BundleFile& f : files) {
        const fs::path rel = fs::path(f.path).lexically_normal();
        if (rel.empty() || rel.is_absolute() || *rel.begin() == "..") {
            error = folder + ": the stored file \"" + f.path + "\" would land outside the folder";
            return false;
        }
    }
    for (const BundleFile& f : files) {
        const fs::path target = fs::path(folder) / f.path;
        fs::create_directories(target.parent_path(), ec);
        if (ec) {
            error = target.parent_path().string() + ": " + ec.message();
            return false;
        }
        std::string why;
        if (!writeFileAtomically(target.string(), f.content, &why)) {
            error = target.string() + ": " + why;
            return false;
        }
    }
    return true;
}

} // namespace drasim::scenario

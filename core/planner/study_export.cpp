// SPDX-License-Identifier: Apache-2.0
#include "core/planner/study_export.h"

#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <system_error>

#include "core/scenario/named_paths.h"
#include "core/topology/catalog.h"
#include "core/yamlio/scalar_edit.h"

namespace drasim::planner {

namespace fs = std::filesystem;

namespace {

constexpr const char* kCatalogField = "spec.cluster.catalog";

/// The folder of the export a scenario field's file goes to.
std::string kindFolder(const std::string& field)
{
    auto ends = [&](const std::string& tail) {
        return field.size() >= tail.size()
            && field.compare(field.size() - tail.size(), tail.size(), tail) == 0;
    };
    if (field == kCatalogField)
        return "catalog";
    if (field.rfind("spec.cluster.shapes[", 0) == 0)
        return "shapes";
    if (field.rfind("spec.cluster.manifests[", 0) == 0)
        return "manifests";
    if (field.rfind("spec.resources[", 0) == 0)
        return "resources";
    if (field.find(".trace.") != std::string::npos)
        return "traces";
    if (ends(".pipeline.path"))
        return "pipelines";
    if (ends(".file"))
        return "durations";
    return "workloads"; // a workload's manifests
}

/// `name` in `folder`, numbered ("classes-2.yaml") when another file took it.
std::string freeName(const std::string& folder, const fs::path& name, std::set<std::string>& taken)
{
    std::string path = folder + "/" + name.string();
    for (int n = 2; !taken.insert(path).second; ++n)
        path = folder + "/" + name.stem().string() + "-" + std::to_string(n) + name.extension().string();
    return path;
}

/// Every file the scenario names, each once (a file named twice is copied once), where it goes.
std::vector<ExportedFile> planFiles(const scenario::Scenario& sc)
{
    std::vector<scenario::NamedPath> named = scenario::namedPaths(sc);
    if (sc.catalog.empty()) {
        // The built-in catalog, as this program finds it: the Job's image may hold another one.
        const std::string dir = topology::Catalog::defaultDirectory();
        if (!dir.empty())
            named.insert(named.begin(), scenario::NamedPath { kCatalogField, dir });
    }
    std::vector<ExportedFile> out;
    std::map<std::string, std::string> bySource;
    std::set<std::string> taken;
    for (const scenario::NamedPath& p : named) {
        const std::string key = fs::absolute(p.path).lexically_normal().string();
        auto [it, fresh] = bySource.emplace(key, std::string());
        if (fresh) {
            const std::string folder = kindFolder(p.field);
            it->second = folder == "catalog" ? folder : freeName(folder, fs::path(key).filename(), taken);
        }
        out.push_back({ p.field, p.path, it->second });
    }
    return out;
}

bool manifestLike(const fs::path& p)
{
    const std::string ext = p.extension().string();
    return ext == ".yaml" || ext == ".yml" || ext == ".json";
}

/// Copies a file, or a folder's YAML and JSON files (what the readers of folders take), to `to`.
bool copyOne(const ExportedFile& f, const fs::path& to, std::error_code& ec)
{
    fs::create_directories(to.parent_path(), ec);
    if (ec || !fs::is_directory(f.source, ec))
        return !ec && fs::copy_file(f.source, to, ec);
    for (fs::recursive_directory_iterator it(f.source, ec), end; !ec && it != end; it.increment(ec)) {
        const std::string name = it->path().filename().string();
        if (!name.empty() && name[0] == '.') {
            if (it->is_directory(ec))
                it.disable_recursion_pending();
            continue;
        }
        if (!it->is_regular_file(ec) || !manifestLike(it->path()))
            continue;
        const fs::path target = to / fs::relative(it->path(), f.source, ec);
        fs::create_directories(target.parent_path(), ec);
        if (ec || !fs::copy_file(it->path(), target, ec))
            return false;
    }
    return !ec;
}

bool copyFiles(const std::vector<ExportedFile>& files, const fs::path& staging, std::string& error)
{
    std::set<std::string> done;
    for (const ExportedFile& f : files) {
        std::error_code ec;
        if (done.insert(f.path).second && !copyOne(f, staging / f.path, ec)) {
            error = "cannot copy " + f.source + " (" + f.field + "): " + ec.message();
            return false;
        }
    }
    return true;
}

/// The document `file` with each field's path changed as `paths` says; the catalog field is
/// added to spec.cluster when the document has none.
bool rewrite(const std::string& file, const std::vector<std::pair<std::string, std::string>>& paths,
    std::string& out, std::string& error)
{
    std::string text;
    Diagnostics diags;
    std::vector<yamlio::YamlNode> docs;
    if (yamlio::readFile(file, text, &error))
        docs = yamlio::parseYamlDocuments(text, file, diags);
    if (docs.empty()) {
        error = file + ": " + (error.empty() ? diags.formatAll() : error);
        return false;
    }
    std::vector<yamlio::TextEdit> edits;
    for (const auto& [field, path] : paths) {
        const yamlio::YamlNode* node = yamlio::findField(docs.front(), field);
        std::optional<yamlio::TextEdit> edit;
        if (node)
            edit = yamlio::replaceScalar(text, *node, path);
        else if (field == kCatalogField && (node = yamlio::findField(docs.front(), "spec.cluster")))
            edit = yamlio::addFirstEntry(text, *node, "catalog", path);
        if (!edit) {
            error
                = file + ": " + field + ": cannot rewrite this path; write it as one plain or quoted scalar";
            return false;
        }
        edits.push_back(std::move(*edit));
    }
    out = yamlio::applyEdits(std::move(text), std::move(edits));
    return true;
}

bool writeText(const fs::path& path, const std::string& text, std::string& error)
{
    std::ofstream f(path, std::ios::binary);
    f << text;
    f.close();
    if (!f)
        error = "cannot write " + path.string();
    return bool(f);
}

/// The two documents, rewritten, into the staging folder.
bool writeDocuments(
    const Plan& plan, const std::vector<ExportedFile>& files, const fs::path& staging, std::string& error)
{
    std::vector<std::pair<std::string, std::string>> scenarioPaths;
    for (const ExportedFile& f : files)
        scenarioPaths.emplace_back(f.field, f.path);
    std::string scenarioText, studyText;
    return rewrite(plan.study.scenarioPath(), scenarioPaths, scenarioText, error)
        && rewrite(plan.study.file, { { "spec.scenario", "scenario.yaml" } }, studyText, error)
        && writeText(staging / "scenario.yaml", scenarioText, error)
        && writeText(staging / "study.yaml", studyText, error);
}

/// A new folder, or an empty one (removed, to be replaced by the staging folder).
bool claimTarget(const fs::path& folder, std::string& error)
{
    std::error_code ec;
    if (!fs::exists(folder, ec))
        return true;
    if (!fs::is_directory(folder, ec) || !fs::is_empty(folder, ec)) {
        error = folder.string() + " exists and is not an empty folder; give a new one";
        return false;
    }
    fs::remove(folder, ec);
    return true;
}

} // namespace

bool exportStudy(
    const Plan& plan, const std::string& folder, std::vector<ExportedFile>& files, std::string& error)
{
    const fs::path target = fs::path(folder).lexically_normal();
    if (!claimTarget(target, error))
        return false;
    files = planFiles(plan.scenario);
    const fs::path staging = target.string() + ".partial";
    std::error_code ec;
    fs::remove_all(staging, ec);
    fs::create_directories(staging, ec);
    if (ec) {
        error = "cannot create " + staging.string() + ": " + ec.message();
        return false;
    }
    bool ok = copyFiles(files, staging, error) && writeDocuments(plan, files, staging, error);
    if (ok) {
        fs::rename(staging, target, ec);
        if (ec)
            error = "cannot rename " + staging.string() + " to " + target.string() + ": " + ec.message();
        ok = !ec;
    }
    if (!ok)
        fs::remove_all(staging, ec);
    return ok;
}

} // namespace drasim::planner

// SPDX-License-Identifier: Apache-2.0
#include "core/scenario/named_paths.h"

#include <filesystem>

namespace drasim::scenario {

namespace fs = std::filesystem;

namespace {

/// `written` joined onto the scenario's folder the way preparation joins it, without normalising,
/// so "../" steps stay visible.
std::string joined(const Scenario& sc, const std::string& written)
{
    if (written.empty() || written.front() == '/' || sc.baseDir.empty() || sc.baseDir == ".")
        return written;
    return sc.baseDir.back() == '/' ? sc.baseDir + written : sc.baseDir + "/" + written;
}

void addList(std::vector<NamedPath>& out, const std::string& field, const std::vector<std::string>& paths,
    const Scenario& sc)
{
    for (size_t i = 0; i < paths.size(); ++i)
        out.push_back({ field + "[" + std::to_string(i) + "]", joined(sc, paths[i]) });
}

void addDuration(std::vector<NamedPath>& out, const std::string& field,
    const std::optional<workload::DurationSpec>& duration)
{
    if (duration && duration->distribution == workload::DurationSpec::Distribution::Empirical)
        out.push_back({ field + ".file", duration->file });
}

/// True when `path`, lexically normalised, is `folder` or lies below it.
bool within(const std::string& path, const fs::path& folder)
{
    const fs::path rel = fs::path(path).lexically_normal().lexically_relative(folder);
    return !rel.empty() && *rel.begin() != "..";
}

} // namespace

std::vector<NamedPath> namedPaths(const Scenario& sc)
{
    std::vector<NamedPath> out;
    if (!sc.catalog.empty())
        out.push_back({ "spec.cluster.catalog", joined(sc, sc.catalog) });
    addList(out, "spec.cluster.shapes", sc.shapeFiles, sc);
    addList(out, "spec.cluster.manifests", sc.manifests, sc);
    if (sc.traceCluster)
        out.push_back({ "spec.cluster.trace.nodes", joined(sc, sc.traceCluster->nodesPath) });
    addList(out, "spec.resources", sc.resources, sc);
    if (!sc.schedulerConfigFile.empty())
        out.push_back({ "spec.scheduler.configFile", joined(sc, sc.schedulerConfigFile) });
    for (size_t i = 0; i < sc.workloads.size(); ++i) {
        const workload::WorkloadSpec& w = sc.workloads[i];
        const std::string field = "spec.workloads[" + std::to_string(i) + "]";
        // Workload paths are joined onto the folder when parsed.
        for (size_t j = 0; j < w.manifests.size(); ++j)
            out.push_back({ field + ".manifests[" + std::to_string(j) + "]", w.manifests[j] });
        if (w.trace)
            out.push_back({ field + ".trace.path", w.trace->path });
        if (w.pipeline) {
            out.push_back({ field + ".pipeline.path", w.pipeline->path });
            for (const auto& [task, duration] : w.pipeline->taskDurations)
                addDuration(out, field + ".pipeline.taskDurations." + task, duration);
        }
        addDuration(out, field + ".duration", w.duration);
    }
    return out;
}

std::vector<NamedPath> pathsOutside(const Scenario& sc, const std::string& folder)
{
    const fs::path root = fs::path(folder).lexically_normal();
    if (!within(sc.baseDir == "." ? folder : sc.baseDir, root))
        return { { "spec.base", sc.file } };
    std::vector<NamedPath> out;
    const std::string prefix = sc.baseDir.back() == '/' ? sc.baseDir : sc.baseDir + "/";
    for (NamedPath& p : namedPaths(sc))
        // An absolute path as written does not start with the folder (and if it names a file in
        // it, it is inside); a relative one was joined onto it.
        if (p.path.compare(0, prefix.size(), prefix) == 0 && !within(p.path, root))
            out.push_back(std::move(p));
    return out;
}

} // namespace drasim::scenario

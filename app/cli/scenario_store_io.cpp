// SPDX-License-Identifier: Apache-2.0
#include "app/cli/scenario_store_io.h"

#include "app/cli/cli_support.h"

namespace drasim::cli {

std::vector<storage::StoredFile> toStored(const std::vector<scenario::BundleFile>& files)
{
    std::vector<storage::StoredFile> out;
    for (const auto& f : files)
        out.push_back({ f.path, f.content });
    return out;
}

std::vector<scenario::BundleFile> toBundle(const std::vector<storage::StoredFile>& files)
{
    std::vector<scenario::BundleFile> out;
    for (const auto& f : files)
        out.push_back({ f.path, f.content });
    return out;
}

std::optional<storage::ScenarioRevision> findSavedRevision(
    storage::RunStore& store, const std::string& name, int64_t wanted)
{
    const std::vector<storage::ScenarioRevision> revisions = store.revisionsOf(name);
    if (revisions.empty()) {
        printError("scenario " + name + " is not in the store " + store.path());
        return std::nullopt;
    }
    if (wanted == 0) {
        for (auto it = revisions.rbegin(); it != revisions.rend(); ++it)
            if (!it->mainFile.empty())
                return *it;
        printError("scenario " + name + " was only run, never saved: no revision has its files in the store");
        return std::nullopt;
    }
    if (wanted > int64_t(revisions.size())) {
        printError("scenario " + name + " has no revision " + std::to_string(wanted) + " (revisions 1-"
            + std::to_string(revisions.size()) + ")");
        return std::nullopt;
    }
    const storage::ScenarioRevision& r = revisions[size_t(wanted - 1)];
    if (r.mainFile.empty()) {
        printError("scenario " + name + " revision " + std::to_string(wanted)
            + " was only run, not saved: its files are not in the store");
        return std::nullopt;
    }
    return r;
}

} // namespace drasim::cli

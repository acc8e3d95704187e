// SPDX-License-Identifier: Apache-2.0
#include "core/topology/mig_placement.h"

#include <algorithm>

namespace drasim::topology {

namespace {

// Backtracking over placements. Larger instances go first and every instance tries the highest
// start first: NVML fills a GPU from the top for the big profiles, which is what leaves the low
// slices for the small ones (e.g. A100 2x1g.5gb + 2g.10gb + 3g.20gb puts 3g.20gb at 4).
// Choosing one deterministic rule matters more than matching NVML's undocumented heuristic.
bool place(std::vector<MigInstance>& items, size_t i, std::vector<bool>& used)
{
    if (i == items.size())
        return true;
    const MigProfile& p = *items[i].profile;
    for (auto it = p.starts.rbegin(); it != p.starts.rend(); ++it) {
        const int s = *it;
        if (s + p.memorySlices > int(used.size()))
            continue;
        bool free = true;
        for (int k = s; k < s + p.memorySlices; ++k)
            free = free && !used[k];
        if (!free)
            continue;
        for (int k = s; k < s + p.memorySlices; ++k)
            used[k] = true;
        items[i].start = s;
        if (place(items, i + 1, used))
            return true;
        for (int k = s; k < s + p.memorySlices; ++k)
            used[k] = false;
    }
    return false;
}

} // namespace

std::optional<std::vector<MigInstance>> placeMigLayout(
    const DeviceModel& model, const std::vector<std::string>& layout, std::string* error)
{
    std::vector<MigInstance> items;
    int compute = 0;
    for (const auto& name : layout) {
        auto it = std::find_if(model.migProfiles.begin(), model.migProfiles.end(),
            [&](const MigProfile& p) { return p.name == name; });
        if (it == model.migProfiles.end()) {
            if (error) {
                *error = "unknown MIG profile \"" + name + "\" for " + model.id + " (known:";
                for (const auto& p : model.migProfiles)
                    *error += " " + p.name;
                *error += ")";
            }
            return std::nullopt;
        }
        compute += it->computeSlices;
        items.push_back({ &*it, 0 });
    }
    // "+me" profiles exist once per GPU (they own the media engines).
    for (const auto& p : model.migProfiles) {
        if (p.name.find("+me") == std::string::npos)
            continue;
        if (std::count(layout.begin(), layout.end(), p.name) > 1) {
            if (error)
                *error = "MIG profile \"" + p.name + "\" can be created only once per GPU";
            return std::nullopt;
        }
    }
    if (compute > 7) {
        if (error)
            *error = "MIG layout needs " + std::to_string(compute) + " compute slices, the GPU has 7";
        return std::nullopt;
    }
    std::stable_sort(items.begin(), items.end(), [](const MigInstance& a, const MigInstance& b) {
        return a.profile->memorySlices > b.profile->memorySlices;
    });
    std::vector<bool> used(size_t(std::max(0, model.migMemorySlices)), false);
    if (!place(items, 0, used)) {
        if (error)
            *error = "MIG layout does not fit on one GPU (no placement without overlapping memory slices)";
        return std::nullopt;
    }
    std::stable_sort(items.begin(), items.end(),
        [](const MigInstance& a, const MigInstance& b) { return a.start < b.start; });
    return items;
}

} // namespace drasim::topology

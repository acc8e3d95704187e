// SPDX-License-Identifier: Apache-2.0
#include "core/compare/comparison.h"

namespace drasim::compare {

std::vector<RunData> loadRuns(storage::RunStore& store, const std::vector<int64_t>& ids)
{
    std::vector<RunData> out;
    out.reserve(ids.size());
    for (int64_t id : ids) {
        std::optional<storage::RunInfo> info = store.run(id);
        if (!info)
            throw CompareError("run " + std::to_string(id) + " is not in the store " + store.path());
        if (info->summaryJson.empty())
            throw CompareError(
                "run " + std::to_string(id) + " (status " + info->status + ") has no summary to compare");
        RunData data;
        data.info = std::move(*info);
        data.series = store.series(id);
        out.push_back(std::move(data));
    }
    return out;
}

} // namespace drasim::compare

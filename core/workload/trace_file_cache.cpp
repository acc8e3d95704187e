// SPDX-License-Identifier: Apache-2.0
#include "core/workload/trace_file_cache.h"

#include <deque>
#include <filesystem>
#include <mutex>
#include <tuple>

namespace drasim::workload {

namespace {

struct TraceFileKey
{
    std::string path;
    std::optional<uint64_t> limit;
    uintmax_t size = 0;
    std::filesystem::file_time_type modified;
    bool operator==(const TraceFileKey& o) const
    {
        return std::tie(path, limit, size, modified) == std::tie(o.path, o.limit, o.size, o.modified);
    }
};

/// The last few lists read: a study uses one or two trace files, the desktop a handful.
constexpr size_t kKeptTraceFiles = 4;

std::mutex& traceCacheMutex()
{
    static std::mutex m;
    return m;
}

std::deque<std::pair<TraceFileKey, std::shared_ptr<const AlibabaPodList>>>& traceCache()
{
    static std::deque<std::pair<TraceFileKey, std::shared_ptr<const AlibabaPodList>>> c;
    return c;
}

} // namespace

std::shared_ptr<const AlibabaPodList> sharedAlibabaPods(
    const std::string& path, Diagnostics& diags, std::optional<uint64_t> limit)
{
    std::error_code sizeError, timeError;
    TraceFileKey key { path, limit, std::filesystem::file_size(path, sizeError),
        std::filesystem::last_write_time(path, timeError) };
    const bool keyable = !sizeError && !timeError;
    // Held while reading: threads that want the same file wait for one read instead of each
    // making their own.
    std::lock_guard<std::mutex> lock(traceCacheMutex());
    auto& cache = traceCache();
    if (keyable)
        for (const auto& [k, list] : cache)
            if (k == key)
                return list;
    const size_t itemsBefore = diags.all().size();
    const size_t errorsBefore = diags.errorCount();
    auto read = readAlibabaPods(path, diags, limit);
    if (!read || diags.errorCount() > errorsBefore)
        return nullptr;
    auto list = std::make_shared<const AlibabaPodList>(std::move(*read));
    if (keyable && diags.all().size() == itemsBefore) {
        if (cache.size() >= kKeptTraceFiles)
            cache.pop_front();
        cache.emplace_back(std::move(key), list);
    }
    return list;
}

} // namespace drasim::workload

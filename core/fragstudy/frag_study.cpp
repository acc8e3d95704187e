// SPDX-License-Identifier: Apache-2.0
#include "core/fragstudy/frag_study.h"

#include <algorithm>
#include <charconv>
#include <mutex>

#include "core/common/parallel_items.h"

namespace drasim::fragstudy {

namespace {

struct RunOutcome
{
    RunCurves curves;
    size_t arrivals = 0;
    size_t dropped = 0;
};

std::vector<SeedStats> statsAcross(
    const std::vector<const std::vector<std::optional<double>>*>& runs, int maxPercent)
{
    std::vector<SeedStats> out;
    for (int x = 0; x <= maxPercent; ++x) {
        std::vector<double> values;
        for (const auto* run : runs)
            if ((*run)[size_t(x)])
                values.push_back(*(*run)[size_t(x)]);
        out.push_back(seedStats(std::move(values)));
    }
    return out;
}

PolicyCurves summarise(gpushare::SharePolicy policy, const std::vector<RunOutcome>& runs, int maxPercent)
{
    PolicyCurves curves { policy, {}, {}, {}, 0, 0 };
    std::vector<const std::vector<std::optional<double>>*> allocated, fragment, rate;
    for (const RunOutcome& run : runs) {
        allocated.push_back(&run.curves.allocatedPercent);
        fragment.push_back(&run.curves.fragmentPercent);
        rate.push_back(&run.curves.fragmentRatePercent);
        curves.meanArrivals += double(run.arrivals) / double(runs.size());
        curves.meanDropped += double(run.dropped) / double(runs.size());
    }
    curves.allocated = statsAcross(allocated, maxPercent);
    curves.fragment = statsAcross(fragment, maxPercent);
    curves.fragmentRate = statsAcross(rate, maxPercent);
    return curves;
}

std::optional<uint64_t> parseNumber(std::string_view text)
{
    uint64_t value = 0;
    auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec != std::errc() || end != text.data() + text.size() || text.empty())
        return std::nullopt;
    return value;
}

} // namespace

SeedStats seedStats(std::vector<double> values)
{
    SeedStats stats;
    stats.seeds = values.size();
    if (values.empty())
        return stats;
    std::sort(values.begin(), values.end());
    const auto quantile = [&](double q) {
        const double pos = q * double(values.size() - 1);
        const size_t lo = size_t(pos);
        const size_t hi = std::min(lo + 1, values.size() - 1);
        return values[lo] + (values[hi] - values[lo]) * (pos - double(lo));
    };
    double sum = 0;
    for (double v : values)
        sum += v;
    stats.mean = sum / double(values.size());
    stats.median = quantile(0.5);
    stats.lowerQuartile = quantile(0.25);
    stats.upperQuartile = quantile(0.75);
    return stats;
}

std::optional<StudyResult> runStudy(
    const StudyInput& input, const StudyOptions& options, ProgressSink* progress, const CancelToken* cancel)
{
    const size_t seeds = options.seeds.size();
    const size_t total = options.policies.size() * seeds;
    std::vector<RunOutcome> outcomes(total);
    size_t done = 0;
    std::mutex progressMutex;
    // Each thread takes the next run until none is left (FGD's runs take longer than the others,
    // so fixed ranges would leave threads idle); each run writes its own slot.
    const bool finished = forEachItem(
        total, options.threads,
        [&](size_t i) {
            ReplayOptions run;
            run.policy = options.policies[i / seeds];
            run.gpuChoice = options.gpuChoice;
            run.tieBreak = options.tieBreak;
            run.seed = options.seeds[i % seeds];
            run.inflation = options.inflation;
            const ReplayResult result = replay(input, run);
            outcomes[i] = { binByArrival(result.points, input.gpuCount(), options.maxPercent),
                result.points.size(), result.dropped };
            if (progress) {
                const std::lock_guard lock(progressMutex);
                progress->progress(double(++done) / double(total), "fragmentation runs");
            }
        },
        cancel);
    if (!finished)
        return std::nullopt;
    StudyResult result;
    result.options = options;
    result.nodes = input.nodes.size();
    result.gpus = input.gpuCount();
    result.tracePods = input.pods.size();
    for (size_t p = 0; p < options.policies.size(); ++p) {
        const std::vector<RunOutcome> runs(
            outcomes.begin() + std::ptrdiff_t(p * seeds), outcomes.begin() + std::ptrdiff_t((p + 1) * seeds));
        result.policies.push_back(summarise(options.policies[p], runs, options.maxPercent));
    }
    return result;
}

std::optional<std::vector<uint64_t>> parseSeedList(const std::string& text, std::string& error)
{
    std::vector<uint64_t> seeds;
    size_t start = 0;
    while (start <= text.size()) {
        const size_t comma = std::min(text.find(',', start), text.size());
        const std::string_view item = std::string_view(text).substr(start, comma - start);
        const size_t dash = item.find('-');
        const auto first = parseNumber(item.substr(0, dash));
        const auto last = dash == std::string_view::npos ? first : parseNumber(item.substr(dash + 1));
        if (!first || !last || *last < *first || *last - *first >= 10000) {
            error = '"';
            error.append(item);
            error += "\" is not a seed or a range of seeds (42, 42-51)";
            return std::nullopt;
        }
        for (uint64_t s = *first; s <= *last; ++s)
            seeds.push_back(s);
        start = comma + 1;
    }
    return seeds;
}

} // namespace drasim::fragstudy

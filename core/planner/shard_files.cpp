// SPDX-License-Identifier: Apache-2.0
#include "core/planner/shard_files.h"

#include <algorithm>
#include <filesystem>
#include <map>
#include <optional>

#include "core/planner/policy_study.h"
#include "core/planner/study_store.h"

namespace drasim::planner {

namespace {

size_t partCount(const Plan& plan)
{
    return std::max<size_t>(1, plan.study.policies.size());
}

/// The latest row of each part of the study in `store` that `wanted` accepts (same inputs, and
/// the part's policy); nullopt for a part without one.
template <typename Wanted>
std::vector<std::optional<StoredStudy>> latestPerPart(StudyStore& store, const Plan& plan, Wanted wanted)
{
    std::vector<std::optional<StoredStudy>> found(partCount(plan));
    for (const StoredStudy& s : store.studies())
        for (size_t p = 0; p < found.size(); ++p)
            if (s.fingerprint == plan.fingerprint && s.policy == storedPolicyName(plan, p) && wanted(s))
                found[p] = s; // rows are read oldest first: the latest wins
    return found;
}

bool anyFound(const std::vector<std::optional<StoredStudy>>& found)
{
    return std::any_of(found.begin(), found.end(), [](const auto& s) { return s.has_value(); });
}

/// "under scoring policy fgd" for a part of a study comparing policies; "" otherwise.
std::string underPolicy(const Plan& plan, size_t part)
{
    return plan.study.policies.empty() ? std::string()
                                       : " under scoring policy " + storedPolicyName(plan, part);
}

/// The indices of 0..count-1 not in `seen`, as "1, 3".
std::string missingShards(const std::map<int, std::string>& seen, int count)
{
    std::string missing;
    for (int k = 0; k < count; ++k)
        if (!seen.count(k))
            missing += (missing.empty() ? "" : ", ") + std::to_string(k);
    return missing;
}

/// The shards every part of the study found in the files, checked to be one whole split each.
struct SplitCheck
{
    std::vector<int> count; ///< per part: the split's N; 0 while only bisections were seen
    std::vector<std::map<int, std::string>> seen; ///< per part: shard index -> its file

    /// Takes `s`, part `p` of `file`; false with `error` when it does not belong with the others.
    bool take(const StoredStudy& s, size_t p, const std::string& file, std::string& error)
    {
        if (count[p] != 0 && s.shardCount != count[p]) {
            error = file + ": shard of a " + std::to_string(s.shardCount) + "-way split; the others are "
                + std::to_string(count[p]) + "-way";
            return false;
        }
        count[p] = s.shardCount;
        if (auto [it, fresh] = seen[p].emplace(s.shardIndex, file); !fresh) {
            error = file + ": shard " + std::to_string(s.shardIndex) + " again (also in " + it->second + ")";
            return false;
        }
        return true;
    }

    /// Every part has every shard of its split. The shards missing are said once when every part
    /// misses the same ones (a file left out), else for the first part that misses others.
    bool whole(const Plan& plan, std::string& error) const
    {
        if (std::all_of(count.begin(), count.end(), [](int n) { return n == 0; })) {
            error = "no shard among the files: only the bisections (drasim plan --bisect-only)";
            return false;
        }
        const std::string first = missingShards(seen[0], count[0]);
        bool same = true;
        for (size_t p = 0; p < count.size(); ++p)
            same = same && count[p] == count[0] && missingShards(seen[p], count[p]) == first;
        for (size_t p = 0; p < count.size(); ++p) {
            const std::string part = same ? std::string() : underPolicy(plan, p);
            if (count[p] == 0) {
                error
                    = "no shard among the files" + part + ": only the bisections (drasim plan --bisect-only)";
                return false;
            }
            if (int(seen[p].size()) != count[p]) {
                error = "shards missing" + part + ": " + missingShards(seen[p], count[p]) + " of "
                    + std::to_string(count[p]);
                return false;
            }
        }
        return true;
    }
};

} // namespace

bool readShardFiles(const Plan& plan, const std::vector<std::string>& files,
    std::vector<std::vector<Evaluation>>& byPart, std::string& error)
{
    const size_t parts = partCount(plan);
    byPart.assign(parts, {});
    SplitCheck split { std::vector<int>(parts, 0), std::vector<std::map<int, std::string>>(parts) };
    for (const auto& file : files) {
        std::error_code ec;
        if (!std::filesystem::is_regular_file(file, ec)) {
            error = file + ": no such shard file";
            return false;
        }
        StudyStore store(file);
        const auto found
            = latestPerPart(store, plan, [](const StoredStudy& s) { return s.status == "finished"; });
        if (!anyFound(found)) {
            error = file + ": no finished shard of study " + plan.study.name
                + " with these inputs (was it run from the same study and scenario files?)";
            return false;
        }
        for (size_t p = 0; p < parts; ++p) {
            if (!found[p]) {
                error = file + ": no finished shard of study " + plan.study.name + underPolicy(plan, p)
                    + " (did its run stop before that policy?)";
                return false;
            }
            // The bisections' file (drasim plan --bisect-only) is no shard, but its answers are welcome.
            if (!found[p]->bisectionStage() && !split.take(*found[p], p, file, error))
                return false;
            auto evaluations = store.evaluations(*found[p]);
            byPart[p].insert(byPart[p].end(), evaluations.begin(), evaluations.end());
        }
    }
    return split.whole(plan, error);
}

bool readBisectionFile(const Plan& plan, const std::string& file,
    std::vector<std::vector<Evaluation>>& byPart, std::string& error)
{
    StudyStore store(file);
    const auto found = latestPerPart(
        store, plan, [](const StoredStudy& s) { return s.bisectionStage() && s.status == "finished"; });
    if (!anyFound(found)) {
        error = file + ": no finished bisections of study " + plan.study.name
            + " with these inputs (drasim plan STUDY --bisect-only --db FILE writes them)";
        return false;
    }
    byPart.assign(found.size(), {});
    for (size_t p = 0; p < found.size(); ++p) {
        if (!found[p]) {
            error = file + ": no finished bisections of study " + plan.study.name + underPolicy(plan, p)
                + " (did the --bisect-only run stop before that policy?)";
            return false;
        }
        byPart[p] = store.evaluations(*found[p]);
    }
    return true;
}

} // namespace drasim::planner

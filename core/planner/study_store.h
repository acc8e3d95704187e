// SPDX-License-Identifier: Apache-2.0
#pragma once

// Planner studies in a SQLite file: each run of a study (or of one shard of it) and every
// evaluation it made, written one transaction per evaluation, so a killed process keeps all it
// had finished and a shard file can be merged with the others later (`drasim merge`). The
// tables (planner_studies, planner_evaluations) live beside the run store's in the same file.

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/planner/evaluation.h"
#include "core/planner/search.h"

namespace drasim::storage {
class Database;
}

namespace drasim::planner {

/// How the shared bisection stage (Shard::bisectionsOnly) is recorded: shard index -1 of a
/// 0-way split, as it belongs to no split and serves any.
constexpr int kBisectionStageIndex = -1;

struct StoredStudy
{
    int64_t id = 0;
    std::string name;
    std::string fingerprint;
    int shardIndex = 0;
    int shardCount = 1;
    bool bisectionStage() const { return shardIndex == kBisectionStageIndex; }
    size_t shapes = 0;
    size_t levels = 0;
    std::string status; ///< running, finished, failed, cancelled
    /// The scoring policy this row's evaluations were made under, for a study that compares the
    /// policies of its spec.policies (one row per policy and run); empty for a study of the
    /// scenario's own scoring, and for every row of a file written before policies were stored.
    std::string policy;
};

class StudyStore
{
public:
    /// Opens or creates the file; throws storage::StorageError naming it.
    explicit StudyStore(const std::string& path);
    ~StudyStore();

    /// A new row of the study's run (or shard, or bisection stage), under `policy` (StoredStudy::policy).
    int64_t beginStudy(const std::string& name, const std::string& fingerprint, const Shard& shard,
        size_t shapes, size_t levels, const std::string& policy = {});
    void addEvaluation(int64_t study, const Evaluation& e);
    void finishStudy(int64_t study, const std::string& status, const std::string& reportJson);

    std::vector<StoredStudy> studies(); ///< oldest first
    /// In the order they were added. Throws storage::StorageError on a malformed row.
    std::vector<Evaluation> evaluations(const StoredStudy& study);
    std::string report(int64_t study);

private:
    std::unique_ptr<storage::Database> m_db;
};

} // namespace drasim::planner

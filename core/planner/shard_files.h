// SPDX-License-Identifier: Apache-2.0
#pragma once

// A split study read back from the files its parts wrote: the shards' files that drasim merge
// combines (drasim plan --shard K/N --db FILE), and the shared bisections' file a shard reads
// (drasim plan --bisect-only --db FILE). A study that compares scoring policies (spec.policies)
// has one part per policy in each file (StoredStudy::policy); the others have one, named "".
// Both return false with `error` saying what is wrong, naming the file (and the policy, where one
// policy's part is missing and another's is not), and let storage::StorageError through for a file
// that cannot be read.

#include <string>
#include <vector>

#include "core/planner/evaluation.h"
#include "core/planner/planner.h"

namespace drasim::planner {

/// Every evaluation of the study in `files`, per part in the study's order (storedPolicyName):
/// each file gives the latest finished run of each part; for each part the files must hold
/// exactly one shard per index 0..N-1 of one N-way split, besides any bisections' files.
bool readShardFiles(const Plan& plan, const std::vector<std::string>& files,
    std::vector<std::vector<Evaluation>>& byPart, std::string& error);

/// The evaluations of the latest finished bisection stage of each part of the study in `file`
/// (same inputs).
bool readBisectionFile(const Plan& plan, const std::string& file,
    std::vector<std::vector<Evaluation>>& byPart, std::string& error);

} // namespace drasim::planner

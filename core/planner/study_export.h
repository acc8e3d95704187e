// SPDX-License-Identifier: Apache-2.0
#pragma once

// A study with every file it reads, copied into one folder that runs wherever it is put (a
// volume mounted into the pods of a Job, another machine): study.yaml, scenario.yaml, and the
// files the scenario names, each under a folder of its kind (catalog/, shapes/, manifests/,
// traces/, resources/, workloads/, pipelines/, durations/). The two documents keep their text,
// comments and layout; only the paths in them change, to the copies. A scenario on the built-in
// hardware catalog gets the catalog this program reads as catalog/, so the copy simulates the
// same hardware whichever drasim runs it.

#include <string>
#include <vector>

#include "core/planner/planner.h"

namespace drasim::planner {

struct ExportedFile
{
    std::string field; ///< the scenario field naming it ("spec.resources[0]")
    std::string source; ///< as read here
    std::string path; ///< in the folder ("resources/classes.yaml")
};

/// Writes the study of `plan` into `folder` (created; refused when it exists and is not empty).
/// All is written under a staging name first and renamed into place, so a failed export leaves
/// nothing behind. Returns false with `error` set ("cannot copy ../x.csv (spec.workloads[0]
/// .trace.path): No such file or directory").
bool exportStudy(
    const Plan& plan, const std::string& folder, std::vector<ExportedFile>& files, std::string& error);

} // namespace drasim::planner

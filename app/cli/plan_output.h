// SPDX-License-Identifier: Apache-2.0
#pragma once

// What `drasim plan` and `drasim merge` print and write from a study result, so that a merged
// study reads exactly like one run in a single process.

#include <string>
#include <string_view>

#include "core/common/progress.h"
#include "core/planner/policy_study.h"
#include "core/planner/study_result.h"

namespace drasim::cli {

struct PlanOutputs
{
    std::string output = "text"; ///< stdout: text or json
    std::string frontierCsv; ///< file paths; empty = not written
    std::string frontierJson;
};

/// Writes the frontier files, then prints the report. False (after an error line) when a file
/// cannot be written; nothing is printed on stdout then.
bool emitStudy(const planner::StudyResult& result, const PlanOutputs& outputs);

/// The same for a study that compares scoring policies (spec.policies): the comparison and each
/// policy's report; the frontier CSV with a leading policy column.
bool emitPolicyStudy(const planner::PolicyStudyResult& result, const PlanOutputs& outputs);

/// The report as JSON text (what --frontier-json and -o json write, and what the store keeps).
std::string studyJson(const planner::StudyResult& result);

/// Progress on stderr as "stage NN%", drawn only when stderr is a terminal; done() clears it.
class StderrPercent : public ProgressSink
{
public:
    void progress(double fraction, std::string_view stage) override;
    void done();

private:
    int m_last = -1;
    std::string m_stage;
};

} // namespace drasim::cli

// SPDX-License-Identifier: Apache-2.0
#pragma once

// A fragmentation study's input as a Scenario names it, for `drasim frag-study` and the desktop.

#include <optional>

#include "core/common/diagnostic.h"
#include "core/fragstudy/study_input.h"
#include "core/scenario/scenario.h"

namespace drasim::fragstudy {

/// Reads the files `scenario` names: `spec.cluster.trace.nodes` and the first workload whose
/// trace has format alibaba-2023. nullopt with diagnostics when either is missing or unreadable.
/// The alibaba-2023 trace of the first workload that has one, or null.
const workload::TraceSpec* studyTrace(const scenario::Scenario& scenario);

/// Whether `scenario` names both files a study reads (whether they can be read is not checked).
inline bool namesStudyFiles(const scenario::Scenario& scenario)
{
    return scenario.traceCluster && studyTrace(scenario);
}

std::optional<StudyInput> scenarioStudyInput(const scenario::Scenario& scenario, Diagnostics& diags);

} // namespace drasim::fragstudy

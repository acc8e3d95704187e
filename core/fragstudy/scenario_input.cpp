// SPDX-License-Identifier: Apache-2.0
#include "core/fragstudy/scenario_input.h"

#include "core/workload/workload_spec.h"

namespace drasim::fragstudy {

const workload::TraceSpec* studyTrace(const scenario::Scenario& scenario)
{
    for (const workload::WorkloadSpec& w : scenario.workloads)
        if (w.trace && w.trace->format == workload::TraceSpec::Format::Alibaba2023)
            return &*w.trace;
    return nullptr;
}

std::optional<StudyInput> scenarioStudyInput(const scenario::Scenario& scenario, Diagnostics& diags)
{
    const SourcePos where { scenario.file, scenario.pos.line, scenario.pos.column };
    if (!scenario.traceCluster) {
        diags.error(where, "Scenario", scenario.name, "spec.cluster.trace",
            "a fragmentation study needs the trace's node list (spec.cluster.trace.nodes)");
        return std::nullopt;
    }
    const workload::TraceSpec* trace = studyTrace(scenario);
    if (!trace) {
        diags.error(where, "Scenario", scenario.name, "spec.workloads",
            "a fragmentation study needs a workload with an alibaba-2023 trace");
        return std::nullopt;
    }
    return loadStudyInput(scenario.resolvedPath(scenario.traceCluster->nodesPath), trace->path, diags);
}

} // namespace drasim::fragstudy

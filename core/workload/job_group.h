// SPDX-License-Identifier: Apache-2.0
#pragma once

// The PodGroup Kubernetes' Job controller makes for a Job (KEP-5547, gate WorkloadWithJob):
//   1.35  none (no Job integration)
//   1.36  a gang of minCount = parallelism for an Indexed Job with parallelism == completions > 1,
//         nothing for any other Job
//   1.37  spec.scheduling compiled for every eligible Job: basic when it is omitted, a gang's
//         omitted minCount = parallelism (at least 1)
// Eligible: no controller owner (a JobSet or other parent makes the objects itself) and no
// spec.template.spec.schedulingGroup (the pods already name their own PodGroup).

#include <optional>

#include "core/api/core_v1.h"
#include "core/api/feature_gates.h"
#include "core/workload/workload.h"

namespace drasim::workload {

std::optional<GroupSpec> jobControllerGroup(const api::PodController& job, const api::FeatureGates& gates);

} // namespace drasim::workload

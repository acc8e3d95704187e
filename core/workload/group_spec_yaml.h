// SPDX-License-Identifier: Apache-2.0
#pragma once

// A workload's `scheduling:` (the shape of a Kubernetes 1.37 Job's spec.scheduling):
//   schedulingPolicy: {gang: {minCount: 8}} | {basic: {}}
//   schedulingConstraints: {topology: [{key: <node label>}]}   # at most one
//   disruptionMode: {single: {}} | {all: {}}                    # how preemption evicts the group
//   resourceClaims: [{name, resourceClaimTemplateName | resourceClaimName}]   # at most 4, shared

#include <optional>
#include <string>

#include "core/workload/workload.h"
#include "core/yamlio/doc_reader.h"

namespace drasim::workload {

std::optional<GroupSpec> groupSpecFrom(
    const yamlio::YamlNode& node, const std::string& field, yamlio::DocReader& c);

} // namespace drasim::workload

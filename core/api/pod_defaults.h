// SPDX-License-Identifier: Apache-2.0
#pragma once

// Defaults the API server applies to a Pod when it is created (SetDefaults_Pod), limited to what
// scheduling sees.

#include "core/api/core_v1.h"

namespace drasim::api {

/// Every resource a container (or init container) names in `limits` but not in `requests` gets a
/// request equal to its limit; requests that are present stay as written. Applies to cpu and memory
/// as much as to extended resources (`limits: {nvidia.com/gpu: 2}` asks for two GPUs).
///
/// Decision: this runs where a Pod comes into existence, as on the API server: when a Pod manifest
/// is loaded (so `allocate -o yaml` prints the requests the API server would store) and when the
/// simulator creates a Pod from a template. Pod templates (Job, Deployment, ... and Kubeflow tasks)
/// keep their resources as written: upstream defaults only Pods, never PodTemplates.
void defaultRequestsFromLimits(PodSpec& spec);

} // namespace drasim::api

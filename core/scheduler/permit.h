// SPDX-License-Identifier: Apache-2.0
#pragma once

// Kubernetes 1.35's gang barrier (pkg/scheduler/framework/plugins/gangscheduling at v1.35, with
// the workload manager's podGroupInfo): the members of a gang are scheduled one at a time through
// the ordinary pod cycle; Reserve assumes each (it holds its node's resources and its DRA devices
// from then on), and Permit makes it wait, unbound, until assumed plus bound members reach the
// gang's minCount; then every waiting member is allowed and binds. The group's deadline is made
// at its first wait, 5 minutes ahead, and made again once it has passed; when it passes every
// waiting member is rejected, Unreserve gives its resources back, and it goes back to the queue as
// unschedulable. 1.36 and 1.37 decide the gang in a group cycle before Reserve instead
// (group_cycle.cpp), so nothing waits there.

#include <cstdint>
#include <string>

#include "core/scheduler/cluster.h"

namespace drasim::scheduler {

/// defaultSchedulingTimeoutSeconds of the 1.35 workload manager: how long a gang's members wait at
/// Permit for their quorum.
inline constexpr int64_t kGangPermitTimeoutSeconds = 300;

/// The GangScheduling plugin's Wait status at Permit (v1.35).
inline constexpr const char* kGangPermitWaitMessage
    = "waiting for minCount pods from a gang to be waiting on permit";

/// A Go time.Duration as %v prints it ("5m0s", "3m20s", "45s", "1.5s"), from milliseconds.
std::string goDuration(int64_t milliseconds);

/// The status a waiting pod gets when its timer fires (framework/runtime waiting_pods_map.go):
/// "rejected due to timeout after waiting 5m0s at plugin GangScheduling". `waitedMilliseconds`
/// is the pod's own timeout: the group's deadline less the time the pod started waiting.
std::string gangPermitTimeoutMessage(int64_t waitedMilliseconds);

/// Unreserve of a pod that waited at Permit and was rejected: the scheduler cache forgets the
/// assumed pod (its cpu, memory and pod slot are free again) and DynamicResources' Unreserve takes
/// it out of its claims' reservedFor and deallocates the claims nobody else reserves. The claims
/// generated from its templates stay, as the ResourceClaim controller made them for the pod, and
/// its next cycle uses them again. False for a pod that is not bound or assumed.
bool unreservePod(Cluster& cluster, const std::string& podKey);

} // namespace drasim::scheduler

// SPDX-License-Identifier: Apache-2.0
#pragma once

// "Why is this pod pending?": a structured account of what each node and each device request
// rejected. Built only when asked for (Cluster::schedule(pod, explain = true)), never on the hot path.

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "core/allocator/reject_reason.h"
#include "core/common/data_value.h"

namespace drasim::scheduler {

/// The allocator's reasons, under the names the scheduler's users know them by.
using allocator::DeviceRejectReason;
using allocator::deviceRejectReasonName;
using allocator::kDeviceRejectReasonCount;

struct RequestDiagnosis
{
    std::string request; ///< "req" or "req/sub"
    std::string deviceClass; ///< class name as requested
    std::string mode; ///< ExactCount or All
    int64_t wanted = 0; ///< devices needed (All: devices listed)
    uint32_t visible = 0; ///< devices of the node's pools that were examined
    uint32_t eligible = 0; ///< devices that passed every per-device check on their own
    allocator::RejectCounts rejected {};
    std::string firstError; ///< first CEL runtime error met, if any
    /// First device turned away by a DeviceTaintRule's taint ("DeviceTaintRule NAME: ..."), if any
    std::string firstRuleTaint;
};

struct ClaimDiagnosis
{
    std::string claim; ///< namespace/name
    bool allocated = false; ///< allocated before this attempt: only its node selector matters
    std::string note; ///< e.g. "not available on the node", "constraint would not be satisfied"
    std::vector<RequestDiagnosis> requests;
};

struct NodeDiagnosis
{
    std::string node;
    /// Node-level filter reasons in kube-scheduler wording ("Insufficient cpu", ...). Empty when
    /// the node passed every node filter and only DRA decided.
    std::vector<std::string> nodeReasons;
    std::string draStatus; ///< "" (fits), or the DynamicResources filter message for this node
    std::vector<ClaimDiagnosis> claims;
    /// False for a node the cycle never filtered: it had found the feasible nodes it looks for
    /// (PodDiagnosis::search) before reaching this one.
    bool examined = true;
    /// What DefaultPreemption's dry run found on this node, when it reached it: the victims it
    /// would pick here, or why none helps. "" when preemption was never a possibility.
    std::string preemption;
};

struct PodDiagnosis
{
    std::string pod; ///< namespace/name
    bool scheduled = false;
    std::string nodeName;
    std::string message; ///< PodScheduled message (empty when scheduled)
    /// A member of a PodGroup: the group's state, which decides before this pod's own fit
    /// ("pod group default/train (gang, minCount 4): 3 of minCount 4 pods exist; ..."); "" otherwise.
    std::string group;
    /// DefaultPreemption's outcome, one statement per line: the nominated node and its victims,
    /// or why preemption does not help. "" when no running pod has a lower priority.
    std::string preemption;
    /// How far the search went when it stopped before the last candidate node (clusters of more
    /// than 100 nodes, SchedulerOptions::percentageOfNodesToScore): "examined 497 of 1213 nodes,
    /// ..."; "" when every node was examined.
    std::string search;
    std::vector<NodeDiagnosis> nodes; ///< sorted by node name
};

/// Human-readable report (deterministic, sorted by node name).
std::string formatText(const PodDiagnosis& diagnosis);
/// The same report as a document for JSON/YAML printing.
DataValue toData(const PodDiagnosis& diagnosis);

} // namespace drasim::scheduler

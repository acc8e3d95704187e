// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/sim/held_device.h"
#include "core/sim/sim_time.h"

namespace drasim::sim {

struct RunSummary;

/// Static facts about a run, announced once before the first event.
struct RunInfo
{
    std::string scenario; ///< metadata.name of the scenario
    std::string scenarioFile;
    std::string scenarioHash; ///< content hash of the scenario document ("" when not known)
    uint64_t seed = 0;
    SimTime duration = 0;
    SimTime metricInterval = 0;
    int64_t nodes = 0; ///< nodes at start
    int64_t devices = 0; ///< devices at start
};

/// One value of a time series. Series are "long" (metric, key, value) rather than one column per
/// key, because keys appear during a run (a node pool added at noon, a new unschedulable reason).
struct SeriesPoint
{
    std::string metric; ///< e.g. "utilization.model", "pending_pods", "unschedulable.reason"
    std::string key; ///< e.g. "A100", "" for unlabelled metrics
    double value = 0;
};

/// All series values at one sample time, in a fixed order (metric, then key).
struct MetricSample
{
    SimTime time = 0;
    std::vector<SeriesPoint> points;
};

/// A PodGroup as its members' events name it, for views that show a group as one.
struct PodEventGroup
{
    std::string key; ///< namespace/name of the PodGroup
    int32_t minCount = 0; ///< the gang's minCount; 0 for a basic policy
    /// The topology key that confines it ("" when it has none or TopologyAwareWorkloadScheduling
    /// is off).
    std::string topologyKey;
    /// The domain its last scheduled cycle kept ("topology.kubernetes.io/rack=rack-0",
    /// GroupOutcome::domain); "" before one, or without a topology key.
    std::string domain;
};

/// Life-cycle events of pods, for stores and timelines.
/// Preempted: the pod was chosen as a preemption victim (DisruptionTarget); it ends (Evicted) when
/// its grace period is over.
enum class PodEventType { Created, Scheduled, Unschedulable, Succeeded, Failed, Evicted, Preempted };
const char* podEventTypeName(PodEventType t);

struct PodEvent
{
    SimTime time = 0;
    PodEventType type = PodEventType::Created;
    std::string pod; ///< namespace/name
    /// The pod's number within the run: unique per pod ever created, never 0 (recorders that
    /// keep per-pod state index it by this, not by name).
    uint64_t serial = 0;
    std::string job; ///< job name
    std::string workload; ///< scenario workload name
    std::string priorityClass; ///< Created: the pod's priorityClassName ("" when none)
    std::string node; ///< Scheduled/Succeeded/Failed/Evicted: the node
    std::string message; ///< Unschedulable/Failed/Evicted: why
    /// Scheduled: the devices this binding allocated, in claim order (a claim shared with pods
    /// bound earlier is already allocated and adds none).
    std::vector<HeldDevice> devices;
    /// Scheduled: the topology distance class of each newly allocated multi-device claim ("NV",
    /// "PIX", "SYS", ...), when the topology is known.
    std::vector<std::string> placements;
    /// Created and Scheduled, for a member of a PodGroup (SimOptions::podGroups): its group, shared
    /// by the events of every member (an event of another pod carries none: a pointer, not four
    /// fields, in the hundreds of thousands of events a desktop keeps).
    std::shared_ptr<const PodEventGroup> group;
};

/// Something the scenario does to the cluster (an injected event), announced when the engine
/// applies it, before the pod events it causes.
struct ClusterEvent
{
    SimTime time = 0;
    std::string kind; ///< the scenario's event type: "NodeFailure", "DeviceTaintRule", ...
    std::string subject; ///< the node, node pool, DeviceTaintRule or workload it acts on
    std::string detail; ///< the rest, as `key=value` words ("taint=xid-79:NoExecute"), or ""
};

/// Observer of a simulation run. The engine calls these in simulated-time order on the thread that
/// runs the simulation; implementations must not call back into the engine. A store (SQLite), the
/// GUI or a test can subscribe; every method has an empty default so observers pick what they need.
class RunRecorder
{
public:
    virtual ~RunRecorder() = default;
    virtual void onRunStarted(const RunInfo& /*info*/) { }
    virtual void onSample(const MetricSample& /*sample*/) { }
    virtual void onPodEvent(const PodEvent& /*event*/) { }
    /// False for an observer that reads only an event's time, type, pod, workload and
    /// priorityClass: when no observer wants more, the engine leaves the rest (job, node, message,
    /// devices, placements, group) empty instead of copying them into every event.
    virtual bool wantsPodEventDetails() const { return true; }
    virtual void onClusterEvent(const ClusterEvent& /*event*/) { }
    virtual void onRunFinished(const RunSummary& /*summary*/) { }
};

} // namespace drasim::sim

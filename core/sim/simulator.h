// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/api/core_v1.h"
#include "core/api/resource_v1.h"
#include "core/common/progress.h"
#include "core/sim/cluster_port.h"
#include "core/sim/failure_spec.h"
#include "core/sim/run_recorder.h"
#include "core/sim/run_summary.h"
#include "core/sim/sim_time.h"
#include "core/workload/workload.h"

namespace drasim::sim {

struct SimOptions
{
    std::string scenarioName;
    std::string scenarioFile;
    std::string scenarioHash; ///< content hash of the scenario (PreparedScenario::contentHash)
    uint64_t seed = 0;
    SimTime duration = kDay;
    SimTime metricInterval = 5 * kMinute;
    /// kube-scheduler's pod backoff: initial * 2^(attempts-1), capped (defaults 1 s and 10 s).
    SimTime podInitialBackoff = 1 * kSecond;
    SimTime podMaxBackoff = 10 * kSecond;
    /// Feature gate SchedulerPopFromBackoffQ (KEP-5142; beta and on by default since Kubernetes
    /// 1.33). On: backoff expiry times are truncated to whole seconds (a pod completes backoff at
    /// the first whole-second flush after that window), backoffQ is ordered by that window and
    /// then by queue order, and when activeQ is empty the scheduler takes the next pod from
    /// backoffQ before its backoff is over. Off: a pod waits out its full backoff.
    bool popFromBackoffQ = true;
    /// kube-scheduler's queueing hints (KEP-4247; GA and locked on since Kubernetes 1.34): an
    /// unschedulable pod goes back to the queue only on a change that a plugin which rejected it
    /// registers and says may help (queueing_hints.h), or after 5 minutes in the unschedulable
    /// set (the flush every 30 s). Off: every change that may free capacity retries every
    /// unschedulable pod, and there is no flush (drasim before it modelled the hints).
    bool queueingHints = true;
    /// Job controller's delay before replacing failed pods: base * 2^(failures-1), capped, where
    /// failures counts the pods failed since the job's last success (the controller's
    /// DefaultJobPodFailureBackOff and MaxJobPodFailureBackOff: 10 s and 10 min).
    SimTime jobBackoffBase = 10 * kSecond;
    SimTime jobBackoffMax = 10 * kMinute;
    /// Jobs whose spec has a PodGroup (workload::GroupSpec) are scheduled by the PodGroup cycle of
    /// Kubernetes 1.37: gates GenericWorkload and, for Jobs, WorkloadWithJob. Off: their pods are
    /// plain pods, as a cluster without those gates runs them.
    bool podGroups = false;
    /// Kubernetes 1.35 with GenericWorkload and GangScheduling: a job whose spec has a gang
    /// (workload::GroupSpec) stands for a v1alpha1 Workload's gang podGroup that its pods name in
    /// spec.workloadRef (one replica key per job). Its pods are scheduled one at a time and wait at
    /// Permit, holding what Reserve gave them, until minCount are assumed or bound; a gang that
    /// does not get there within 5 minutes gives everything back (scheduling_loop_permit.h).
    bool permitGangs = false;
    /// Gate TopologyAwareWorkloadScheduling: a group's topology key confines it to one domain.
    bool topologyAwareGroups = false;
    /// Workload-aware preemption (api::workloadAwarePreemptionEnabled): a PodGroup that cannot be
    /// placed preempts lower-priority pods and groups as units, cluster-wide.
    bool workloadAwarePreemption = false;
    /// Emit onPodEvent for every pod transition (a store wants them; benchmarks may not).
    bool podEvents = true;
    /// Classify free devices that pending pods cannot use at each sample (see fragmentation.h).
    bool fragmentation = true;
    /// Sample the FGD paper's GPU fragmentation, and its measure on whole DRA devices, when the
    /// cluster can say them (ClusterPort::gpuShareFragmentation, claimFragmentation).
    bool gpuShareFragmentation = true;
};

/// A node with the slices that publish its devices.
struct NodeSpec
{
    api::Node node;
    std::vector<api::ResourceSlice> slices;
};

/// A named group of nodes (a shape × count from the catalog, or the nodes of a manifest dump).
struct NodePool
{
    std::string name;
    double pricePerHour = 0; ///< per node
    std::vector<NodeSpec> nodes;
    /// The nodes were given to the cluster when it was built (manifest dumps with bound pods):
    /// only the metrics learn about them.
    bool preloaded = false;
    /// Failure processes of its nodes (failure_draws.h draws them per run seed).
    PoolFailures failures;
};

/// Something the scenario does to the cluster at a given time.
struct InjectedEvent
{
    enum class Type {
        NodeFailure,
        NodeReturn,
        DeviceTaint,
        DeviceUntaint,
        AddNodePool,
        RemoveNodePool,
        DeviceTaintRule, ///< create (or replace) a DeviceTaintRule: name, selector, taint
        DeviceTaintRuleDelete, ///< delete the DeviceTaintRule called name
        NodeTaint, ///< add (or replace, same key and effect) a taint on node: taint key, value, effect
        NodeUntaint, ///< remove the node's taints with taint.key
        /// A workload's Jobs change their gang's minCount (1.37: the one mutable field of a Job's
        /// spec.scheduling): workload, minCount
        PodGroupMinCount,
    };
    /// Written in the scenario, or drawn from a pool's failure process or spot reclaims
    /// (failure_draws.h; counted in the run's failure figures).
    enum class Origin : uint8_t { Scenario, FailureProcess, SpotReclaim };
    SimTime at = 0;
    Type type = Type::NodeFailure;
    std::string node; ///< NodeFailure, NodeReturn, taints
    std::string driver; ///< taints: "" = every driver on the node
    std::string device; ///< taints: "" = every device of the driver(s) on the node
    api::DeviceTaint taint; ///< DeviceTaint, NodeTaint (the Untaint events use taint.key)
    std::string pool; ///< RemoveNodePool; DeviceTaintRule(Delete): the rule's name
    std::optional<api::DeviceTaintSelector> selector; ///< DeviceTaintRule
    std::shared_ptr<const NodePool> newPool; ///< AddNodePool
    std::string workload; ///< PodGroupMinCount: the scenario workload whose Jobs change
    int32_t minCount = 0; ///< PodGroupMinCount
    Origin origin = Origin::Scenario;
};

/// The scenario's spelling of an event type ("NodeFailure", "DeviceTaintRule", ...).
const char* injectedEventTypeName(InjectedEvent::Type type);
/// The event type a scenario spells `name`, or nullopt.
std::optional<InjectedEvent::Type> parseInjectedEventType(std::string_view name);
/// Every type's spelling, in declaration order (the supported values of a scenario's `type`).
std::vector<std::string> injectedEventTypeNames();
/// The event as run recorders are told of it when it is applied at `time`.
ClusterEvent clusterEventOf(const InjectedEvent& event, SimTime time);

/// The discrete-event simulation of one scenario: arrivals from a workload stream, the kube-
/// scheduler queue, binding through a ClusterPort, completions, the Job/pipeline controllers,
/// injected failures, and metrics. Single-threaded; deterministic for a given input.
class Simulator
{
public:
    Simulator(ClusterPort& cluster, SimOptions options);
    ~Simulator();
    Simulator(const Simulator&) = delete;
    Simulator& operator=(const Simulator&) = delete;

    /// Node pools present at time 0 (their nodes are added to the cluster port here).
    void addNodePool(const NodePool& pool);
    /// The same, sharing the pool's node specs instead of copying them.
    void addNodePool(std::shared_ptr<const NodePool> pool);
    void setArrivals(std::unique_ptr<workload::ArrivalSource> arrivals);
    void addEvent(InjectedEvent event);
    void addRecorder(RunRecorder* recorder);

    /// Runs to the scenario duration (or until cancelled). Call once.
    RunSummary run(ProgressSink* progress = nullptr, const CancelToken* cancel = nullptr);
    /// Instead of run(): processes every event at or before `t` (and the scheduling they cause)
    /// and none after, leaving the cluster port as the run has it at time t. Call once.
    void runUntil(SimTime t, const CancelToken* cancel = nullptr);

    /// One pod as the simulation has it now (after runUntil).
    struct PodAt
    {
        enum class State { Absent, Pending, Running };
        State state = State::Absent; ///< Absent: not created yet, or already ended
        std::string node; ///< Running: where it is bound; Pending: where it waits at Permit (1.35 gangs)
        api::Pod pod; ///< the pod object the scheduler is given (Pending, Running)
        /// Pending member of a PodGroup: the group's state in the scheduler's words, "" otherwise.
        std::string group;
        /// Running and working under a speed table: its pace (1 otherwise), the model that sets
        /// it, the table's reference and the work its duration asks for, in seconds.
        double pace = 1;
        std::string paceModel;
        std::string reference;
        double workSeconds = 0;
    };
    PodAt podAt(const std::string& key) const;

private:
    struct Impl;
    std::unique_ptr<Impl> m_impl;
};

} // namespace drasim::sim

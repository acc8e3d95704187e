// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/common/data_value.h"
#include "core/sim/gang_tracker.h"
#include "core/sim/percentiles.h"
#include "core/sim/run_recorder.h"

namespace drasim::sim {

struct WorkloadSummary
{
    std::string name;
    int64_t jobsArrived = 0;
    int64_t jobsSucceeded = 0;
    int64_t jobsFailed = 0;
    int64_t jobsUnfinished = 0; ///< still running or pending when the run ended
    int64_t podsCreated = 0;
    int64_t podsScheduled = 0;
    int64_t podsSucceeded = 0;
    int64_t podsFailed = 0; ///< node failures, evictions (included), job deletions
    int64_t podsEvicted = 0; ///< NoExecute device taints
    int64_t podsPendingAtEnd = 0;
    /// Creation to binding, per pod created: a pod never bound (deleted while pending, or pending
    /// at the end) counts its wait so far as a censored value.
    DistributionSummary waitSeconds;
    DistributionSummary jobCompletionSeconds; ///< arrival to success, per succeeded job
    DistributionSummary pipelineCompletionSeconds; ///< the same for kind pipeline-run only
};

/// Device utilization of one key of one dimension (driver, class, model, pool).
struct UtilizationSummary
{
    std::string dimension; ///< "driver", "class", "model", "pool"
    std::string key;
    int64_t devicesAtEnd = 0; ///< devices on nodes that are up at the end ("class": allocated only)
    int64_t devicesInstalled = 0; ///< every device the run had, on failed nodes too
    double meanDevicesUp = 0; ///< mean of the sampled devices up
    double mean = 0; ///< sampled allocated devices over sampled devices up (device-time)
    double peak = 0;
    double meanAllocated = 0; ///< mean of the sampled allocated device counts
};

/// What preemption did: preemptions (a preemptor deleting victims), their victims, and the work
/// the victims lost (devices x the time since their last checkpoint).
struct PreemptionSummary
{
    int64_t preemptions = 0;
    int64_t victims = 0;
    int64_t maxVictimsPerPreemptor = 0;
    double lostDeviceHours = 0;
};

/// What the node pools' failure processes and spot reclaims did (failure_metrics.h).
struct FailureSummary
{
    int64_t failures = 0; ///< hardware failures drawn from the pools' MTBF
    int64_t reclaims = 0; ///< spot reclaims
    double nodeHoursDown = 0; ///< from each failure (or the end of a reclaim's notice) to the return
    int64_t podsEnded = 0; ///< pods running on a node when it failed or went away
    double lostDeviceHours = 0; ///< their work since the last checkpoint (devices x time)
};

/// The waits of the pods of one priority class ("" = pods without one).
struct PriorityClassSummary
{
    std::string name;
    int32_t value = 0;
    DistributionSummary waitSeconds; ///< as WorkloadSummary::waitSeconds
};

/// What a workload's speed table did to its run times (shown when some pace was not 1).
struct SpeedSummary
{
    struct Model
    {
        std::string model; ///< "" = pods none of whose devices the table lists
        double factor = 1; ///< its speed over the reference's
        int64_t pods = 0; ///< pods that started working at its pace
        double podHours = 0; ///< run time spent at its pace
    };
    std::string workload;
    std::string reference;
    std::vector<Model> models; ///< by model name
    /// Run time the paces saved against the reference's (pod-hours; negative when they cost).
    double savedPodHours = 0;
};

struct KeyedValue
{
    std::string key;
    double value = 0;
};

/// The FGD paper's GPU fragmentation over the samples of a run (ClusterPort::gpuShareFragmentation).
struct GpuShareFragmentationSummary
{
    double meanPercentOfCapacity = 0; ///< the paper's "Frag/Total"
    double peakPercentOfCapacity = 0;
    double meanPercentOfFree = 0; ///< its "Frag Rate": of the GPU milli free at the sample
};

/// The FGD measure on whole DRA devices over the samples of a run, for one DeviceClass
/// (ClusterPort::claimFragmentation).
struct ClaimFragmentationSummary
{
    std::string deviceClass;
    uint64_t samples = 0; ///< samples that measured the class
    double meanDevices = 0; ///< the fragment: free devices the typical claims cannot use
    double peakDevices = 0;
    double meanFreeDevices = 0;
    double meanPercentOfFree = 0; ///< the paper's "Frag Rate", the mean over the samples
};

struct RunSummary
{
    RunInfo info;
    bool cancelled = false;
    SimTime simulatedTime = 0; ///< time reached (== duration unless cancelled)
    uint64_t events = 0; ///< events processed
    uint64_t schedulingAttempts = 0; ///< scheduler cycles actually run
    uint64_t samples = 0;
    int64_t podsCreated = 0;
    int64_t podsScheduled = 0;
    int64_t podsSucceeded = 0;
    int64_t podsFailed = 0;
    int64_t podsEvicted = 0;
    int64_t podsPendingAtEnd = 0;
    int64_t podsRunningAtEnd = 0;
    int64_t peakPendingPods = 0; ///< after each event, not only at samples
    DistributionSummary waitSeconds; ///< every workload, censored values included
    std::vector<WorkloadSummary> workloads; ///< sorted by name
    std::vector<UtilizationSummary> utilization; ///< by dimension, then key
    /// Pending pod-hours by (primary) unschedulable reason, integrated over the samples.
    std::vector<KeyedValue> unschedulablePodHours;
    /// Mean number of free devices that no pending pod can use, by reason (see fragmentation.h).
    std::vector<KeyedValue> fragmentation;
    /// GPU-sharing clusters with typical pods to measure against only.
    std::optional<GpuShareFragmentationSummary> gpuShareFragmentation;
    /// Runs whose workload has claims on DRA devices, by class.
    std::vector<ClaimFragmentationSummary> claimFragmentation;
    /// The general measure (device_fragmentation.h: MIG profiles, consumable capacity,
    /// alignment), in shares of devices; else whole devices.
    bool claimFragmentationOnShares = false;
    /// Newly allocated multi-device claims by topology distance class.
    std::vector<KeyedValue> placement;
    double costUsd = 0;
    std::vector<KeyedValue> costByPool;
    /// Distributed jobs (a workload's `scheduling:` with a gang policy); jobs == 0 when none.
    GangSummary gangs;
    PreemptionSummary preemption; ///< shown when something was preempted
    /// Waits by priority class, most important first; empty unless the run saw more than one.
    std::vector<PriorityClassSummary> priorityClasses;
    /// Workloads whose speed table made some pod work at a pace other than the reference's.
    std::vector<SpeedSummary> speed;
    /// Set when some node pool has failure settings (then shown, even when nothing failed).
    std::optional<FailureSummary> failures;
};

/// The summary as a JSON-ready document (keys in a fixed order; durations in seconds).
DataValue toData(const RunSummary& summary);
/// Short human report for `-o text`.
std::string formatText(const RunSummary& summary);

} // namespace drasim::sim

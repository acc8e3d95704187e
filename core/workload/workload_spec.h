// SPDX-License-Identifier: Apache-2.0
#pragma once

// The workload part of a scenario file, as plain data. One entry of the scenario's `workloads:`
// list looks like this (times accept "90s", "15m", "2h", "1d", "1h30m", "250ms" or a plain
// number of seconds; rates are "<number>/s|m|h|d"):
//
//   - name: training                # required, DNS label; metrics group and job-name prefix
//     namespace: default            # optional
//     seed: 7                       # optional; default: derived from the scenario seed and index
//     # exactly one of the three sources:
//     manifests: [jobs/train.yaml]  # Pods/Jobs/Deployments/ReplicaSets/StatefulSets + templates
//     trace:                        # Alibaba 2023 pod list or the generic CSV (csv_trace.h)
//       path: openb_pod_list_default.csv
//       format: alibaba-2023        # or csv
//       limit: 1000                 # first N rows only
//       timeScale: 1.0              # multiplies trace times (0.01 = 100x faster)
//       useTraceTimes: true         # false: rows arrive by `arrival:` instead (5-column files)
//       gpuSpec: selector           # or firstAvailable (gpu_spec → CEL `in` list / one subrequest per model)
//       sharing: capacity           # or partitions (see trace_mapping.h)
//       partitionsPerGpu: 10
//       deviceClass: gpu.nvidia.com # alibaba-2023: whole devices of this class instead (see below)
//     pipeline:                     # a compiled Kubeflow pipeline (IR YAML), one run per arrival
//       path: pipelines/train.yaml
//       arguments: {epochs: 3, resource_claim: {resourceClaimTemplateName: gpu}}
//       taskDurations: {train-model: 2h, default: 5m}   # per task name; `default` for the rest
//     # optional for every source:
//     arrival: {process: poisson, rate: 12/h, start: 0s, until: 24h, count: 1000}
//     duration: {distribution: lognormal, median: 20m, sigma: 0.8}
//     mix: {train-small: 3, train-large: 1}   # manifests only: weights per object name
//     checkpointInterval: 30m       # drasim's knob: a replaced pod resumes from its last checkpoint
//     speed:                        # drasim's knob: run time by device model (speed_table.h)
//       reference: NVIDIA A100-SXM4-80GB   # the model the durations were measured on
//       attribute: productName      # optional; default: the model utilisation is reported by
//       models: {NVIDIA H200: 1150} # optional; relative throughput over the catalog's defaults
//     scheduling:                   # each job's pods form a PodGroup, as a 1.37 Job's spec.scheduling
//       schedulingPolicy: {gang: {minCount: 8}}       # or {basic: {}}; minCount defaults to parallelism
//       schedulingConstraints: {topology: [{key: topology.kubernetes.io/rack}]}
//
// trace.deviceClass (alibaba-2023) replays the trace on other hardware (catalog node pools): each pod
// asks for num_gpu whole devices of that DeviceClass; a share of one GPU (gpu_milli < 1000) takes a
// whole device, since catalog GPUs are not shareable; gpu_spec model codes are dropped (catalog
// devices do not carry them); sharing, gpuSpec and partitionsPerGpu do not apply.
// arrival.process: once (every object/row/run once at `start`; the default), poisson (`rate`),
// diurnal (`rate` = mean, `amplitude` 0..1, `peak` time of day, `period` default 24h), bursts
// (`rate` or `every` between bursts, `size` jobs per burst, `spacing` between them), schedule
// (`times: [...]` and/or `every`). `until` (no arrival at or after it) and `count` bound every
// process; poisson, diurnal, bursts and periodic schedules need one of them. On a trace that keeps
// its own times they cut the trace the same way.
// duration: a time ("2h", "forever"), the annotation shorthand ("exponential(30m)",
// "lognormal(20m, 0.8)", "uniform(10m, 1h)"), or {distribution: fixed (value) | exponential
// (mean) | lognormal (median, sigma) | uniform (low, high) | empirical (file)} with optional `min`
// and `max` clamps. An empirical file holds one time per line (# comments allowed); sampling picks
// one of them uniformly.

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/api/feature_gates.h"
#include "core/api/scheduling_v1.h"
#include "core/common/data_value.h"
#include "core/common/diagnostic.h"
#include "core/workload/workload.h"

namespace drasim::workload {

struct DurationSpec
{
    enum class Distribution { Fixed, Exponential, Lognormal, Uniform, Empirical };
    Distribution distribution = Distribution::Fixed;
    double value = 0; ///< Fixed (kForever allowed)
    double mean = 0; ///< Exponential
    double median = 0; ///< Lognormal: exp(mu)
    double sigma = 0; ///< Lognormal: standard deviation of ln(x)
    double low = 0; ///< Uniform
    double high = 0; ///< Uniform
    std::string file; ///< Empirical: resolved path
    std::shared_ptr<const std::vector<double>> samples; ///< Empirical, loaded when parsed
    std::optional<double> clampMin;
    std::optional<double> clampMax;
    SourcePos pos;
};

struct ArrivalSpec
{
    enum class Process { Once, Poisson, Diurnal, Bursts, Schedule };
    Process process = Process::Once;
    double start = 0;
    std::optional<double> until; ///< no arrival at or after this time
    std::optional<uint64_t> count; ///< at most this many arrivals
    double ratePerSecond = 0; ///< Poisson, Diurnal (mean), Bursts (burst rate, if no `every`)
    double amplitude = 0; ///< Diurnal: rate(t) = mean * (1 + amplitude*cos(2π(t-peak)/period))
    double peakSeconds = 14 * 3600.0;
    double periodSeconds = 24 * 3600.0;
    std::optional<double> every; ///< Bursts / Schedule: fixed interval
    uint32_t burstSize = 1; ///< Bursts
    double burstSpacing = 0; ///< Bursts: seconds between jobs of one burst
    std::vector<double> times; ///< Schedule: explicit times (sorted when parsed)
    SourcePos pos;
};

enum class GpuSpecMode { Selector, FirstAvailable };
enum class GpuSharing { Capacity, Partitions };

struct TraceSpec
{
    enum class Format { Alibaba2023, Csv };
    Format format = Format::Alibaba2023;
    std::string path; ///< resolved
    std::optional<uint64_t> limit;
    double timeScale = 1.0;
    bool useTraceTimes = true;
    GpuSpecMode gpuSpec = GpuSpecMode::Selector;
    GpuSharing sharing = GpuSharing::Capacity;
    int32_t partitionsPerGpu = 10;
    std::string deviceClass; ///< alibaba-2023: whole devices of this class (empty = the trace driver)
    SourcePos pos;
};

struct PipelineRunSpec
{
    std::string path; ///< resolved path of the compiled IR YAML
    /// Run arguments by pipeline parameter name (overriding the IR defaults).
    std::map<std::string, DataValue> arguments;
    std::map<std::string, DurationSpec> taskDurations; ///< by task name; key "default" = the rest
    SourcePos pos;
};

struct WorkloadSpec
{
    enum class Source { Manifests, Trace, Pipeline };
    std::string name;
    std::string namespace_ = "default";
    std::optional<uint64_t> seed;
    Source source = Source::Manifests;
    std::vector<std::string> manifests; ///< resolved paths
    std::optional<TraceSpec> trace;
    std::optional<PipelineRunSpec> pipeline;
    std::optional<ArrivalSpec> arrival; ///< absent = once at time 0
    std::optional<DurationSpec> duration; ///< absent = annotation, else source default
    std::map<std::string, double> mix; ///< object name → weight (manifests)
    std::optional<GroupSpec> scheduling; ///< given to every job of the workload
    /// drasim's knob, not Kubernetes': the work a failed or preempted pod keeps is what it had
    /// done at its last checkpoint, one every this many seconds of work (JobSpec::checkpointSeconds).
    std::optional<double> checkpointInterval;
    /// drasim's knob: how fast the jobs run on each device model (speed_table.h); absent: the
    /// durations hold on every device.
    std::shared_ptr<const SpeedTable> speed;
    /// drasim's knob, set by a study whose growth adds jobs (never read from a scenario): on
    /// average this many copies of each job, between it and the next (AddedJobsSource).
    double addedJobs = 0;
    SourcePos pos;
};

/// The cluster side of the Alibaba trace: a scenario's `cluster:` may ask for the node list,
///   trace: {nodes: openb_node_list_gpu_node.csv, sharing: capacity, partitionsPerGpu: 10}
struct TraceClusterSpec
{
    std::string nodesPath; ///< resolved
    GpuSharing sharing = GpuSharing::Capacity;
    int32_t partitionsPerGpu = 10;
    SourcePos pos;
};

/// The seed a workload uses: its own `seed:` if given, else a mix of the scenario seed and its
/// position in the list (so adding a workload at the end does not change the others).
uint64_t workloadSeed(const WorkloadSpec& spec, uint64_t scenarioSeed, size_t index);

/// Builds the arrival stream of one workload: loads its files, validates, and returns nullptr
/// with diagnostics on error. Later streaming errors also go to `diags`, which must outlive the
/// source. Manifests are read as the API server of the scenario's Kubernetes version with its
/// feature gates reads them (`gates`: spec.scheduler). Their pods resolve priorityClassName
/// against their own PriorityClasses and `priorityClasses`, the cluster's (Priority admission).
std::unique_ptr<ArrivalSource> makeSource(const WorkloadSpec& spec, uint64_t seed,
    const api::FeatureGates& gates, Diagnostics& diags,
    const std::vector<api::PriorityClass>& priorityClasses = {});

/// Convenience: one source per workload (seeds from workloadSeed), merged in list order.
/// nullptr if any workload failed.
std::unique_ptr<ArrivalSource> makeScenarioSource(const std::vector<WorkloadSpec>& specs,
    uint64_t scenarioSeed, const api::FeatureGates& gates, Diagnostics& diags,
    const std::vector<api::PriorityClass>& priorityClasses = {});

} // namespace drasim::workload

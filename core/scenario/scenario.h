// SPDX-License-Identifier: Apache-2.0
#pragma once

// The Scenario document (apiVersion drasim.dev/v1alpha1, kind Scenario): what `drasim simulate`
// and the GUI's simulation page run. Paths are kept as written; they are relative to the
// directory of the scenario file (resolvedPath()), so a scenario folder can be moved as a whole,
// shipped scenarios reach the DeviceClasses and traces under resources/ with "../" paths (see
// scenarios/sim/README.md), and a scenario can be written back without turning its paths into
// machine-specific ones.
//
//   apiVersion: drasim.dev/v1alpha1
//   kind: Scenario
//   metadata: {name: default}
//   spec:
//     seed: 42                  # default 1; `drasim simulate --seed` overrides it
//     duration: 1d              # simulated time (default 1d)
//     metricInterval: 5m        # time-series resolution (default 5m; 0 = no series)
//     cluster:
//       catalog: ../hardware    # optional NodeShape folder (default: the built-in catalog)
//       shapes: [my-shape.yaml] # optional extra NodeShape files
//       nodePools:              # shape × count from the hardware catalog
//         - {name: a100, shape: dgx-a100, count: 4, namePrefix: a100, pricePerHour: 32.0}
//         - {name: h100, shape: dgx-h100, count: 16, layout: {nodesPerRack: 4, racksPerBlock: 2}}
//         - name: a100-spot      # failure processes: each node's failures, drawn from the run's
//           shape: dgx-a100      # seed (its own stream per node), become NodeFailure/NodeReturn
//           count: 8             # events (pool_failures_yaml.h, sim/failure_draws.h)
//           failures: {mtbf: 2000h, weibull: {shape: 0.8},
//                      repair: {mean: 4h, distribution: exponential}}   # or fixed, lognormal
//           spot: {reclaimRate: 0.02/h, notice: 2m,   # cordoned at the notice, gone at its end,
//                  replacement: {mean: 10m, distribution: fixed}}   # back after the replacement
//       failures:               # by device model: every pool whose nodes carry the model, unless
//         byDeviceModel:        # the pool has failures: of its own (device_model_failures.h)
//           H100-SXM5-80GB: {mtbf: 6300h, repair: {mean: 48h, distribution: lognormal}}
//       manifests: [dump.yaml]  # Nodes, ResourceSlices, DeviceClasses, claims, templates
//       trace: {nodes: .../openb_node_list_gpu_node.csv}   # Alibaba node list (workload_spec.h)
//     resources: [classes.yaml] # DeviceClasses and ResourceClaimTemplates
//     workloads: [...]          # workload_spec.h
//     scheduler: {scoring: default, podInitialBackoff: 1s, podMaxBackoff: 10s,
//                 tieBreak: node-name,          # or seeded-order (scoring_profile.h TieBreak)
//                 percentageOfNodesToScore: 0,  # 0 = kube-scheduler's adaptive default; 100 = all
//                 kubernetesVersion: "1.37",    # 1.35, 1.36 or 1.37 (the default)
//                 featureGates: {SchedulerPopFromBackoffQ: true, GenericWorkload: true},
//                 queueingHints: true,          # false: drasim's earlier retry model, no hints
//                 whatIf: {draPreemption: true}}   # NOT UPSTREAM: KEP-5690's DRA preemption
//     # or, as kube-scheduler's --config has it (then without scoring, percentageOfNodesToScore and
//     # the backoffs above): scheduler: {configFile: sched.yaml} or {config: {apiVersion: ...}}
//     events:
//       - {at: 6h, type: NodeFailure, node: a100-0}
//       - {at: 8h, type: NodeReturn, node: a100-0}
//       - {at: 9h, type: DeviceTaint, node: a100-1, driver: gpu.nvidia.com, device: gpu-0,
//          key: ecc, value: "", effect: NoExecute}
//       - {at: 10h, type: DeviceUntaint, node: a100-1, key: ecc}
//       - {at: 12h, type: AddNodePool, pool: {name: burst, shape: dgx-h100, count: 2}}
//       - {at: 20h, type: RemoveNodePool, name: burst}
//       - {at: 21h, type: DeviceTaintRule, name: drain-h100, selector: {driver: gpu.nvidia.com,
//          pool: h100-0}, key: maintenance, effect: NoExecute}   # a DeviceTaintRule object
//       - {at: 22h, type: DeviceTaintRuleDelete, name: drain-h100}
//       - {at: 23h, type: PodGroupMinCount, workload: training, minCount: 4}   # the workload's Jobs
//          (and those it creates later) change spec.scheduling's gang minCount

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/api/feature_gates.h"
#include "core/common/data_value.h"
#include "core/common/diagnostic.h"
#include "core/scenario/device_model_failures.h"
#include "core/scheduler/scheduler_config.h"
#include "core/scheduler/scoring_profile.h"
#include "core/sim/failure_spec.h"
#include "core/sim/sim_time.h"
#include "core/sim/simulator.h"
#include "core/topology/rack_layout.h"
#include "core/workload/workload_spec.h"

namespace drasim::scenario {

using sim::SimTime;

constexpr const char* kScenarioApiVersion = "drasim.dev/v1alpha1";

struct NodePoolSpec
{
    std::string name;
    std::string shape;
    int count = 0;
    std::string namePrefix; ///< default: the pool name
    std::optional<double> pricePerHour; ///< default: the shape's price
    topology::RackLayout layout; ///< `layout:` racks and blocks (default: the shape's NVLink domain)
    sim::PoolFailures failures; ///< `failures:` and `spot:` (pool_failures_yaml.h)
    SourcePos pos;
    std::string path; ///< field path for messages ("spec.cluster.nodePools[0]")
};

struct ScenarioEvent
{
    SimTime at = 0;
    sim::InjectedEvent::Type type = sim::InjectedEvent::Type::NodeFailure;
    std::string node;
    std::string driver;
    std::string device;
    api::DeviceTaint taint;
    std::string poolName; ///< RemoveNodePool; DeviceTaintRule(Delete): the rule's name
    std::optional<api::DeviceTaintSelector> selector; ///< DeviceTaintRule
    NodePoolSpec newPool; ///< AddNodePool
    std::string workload; ///< PodGroupMinCount: a name in spec.workloads
    int32_t minCount = 0; ///< PodGroupMinCount
    SourcePos pos;
    std::string path; ///< field path for messages ("spec.events[2]")
};

struct Scenario
{
    std::string name;
    std::string file; ///< as given
    std::string baseDir; ///< directory of the file ("." for a bare name)
    SourcePos pos;
    uint64_t seed = 1;
    SimTime duration = sim::kDay;
    SimTime metricInterval = 5 * sim::kMinute;
    std::string catalog; ///< as written; empty = built-in catalog
    std::vector<std::string> shapeFiles; ///< as written
    std::vector<NodePoolSpec> nodePools;
    /// spec.cluster.failures.byDeviceModel, in document order (device_model_failures.h).
    std::vector<DeviceModelFailures> failuresByDeviceModel;
    std::vector<std::string> manifests; ///< as written
    std::optional<workload::TraceClusterSpec> traceCluster; ///< nodesPath as written
    std::vector<std::string> resources; ///< as written
    /// The `workloads:` list as written (what the writer saves), and the same list parsed with
    /// its paths resolved (what preparation uses; empirical duration files are already loaded).
    DataValue workloadsDocument;
    std::vector<workload::WorkloadSpec> workloads;
    std::string scoring = "default";
    /// spec.scheduler.tieBreak: "seeded-order" picks among the best nodes in an order drawn from
    /// the run's seed (the FGD paper's scheduler) instead of by name.
    scheduler::TieBreak tieBreak = scheduler::TieBreak::NodeName;
    /// spec.scheduler.percentageOfNodesToScore (KubeSchedulerConfiguration's field, 0-100): how
    /// many feasible nodes end a cycle's search on clusters of more than 100 nodes. Unset: 0, the
    /// adaptive default (scheduler::SchedulerOptions).
    std::optional<int32_t> percentageOfNodesToScore;
    SimTime podInitialBackoff = sim::kSecond;
    SimTime podMaxBackoff = 10 * sim::kSecond;
    /// A KubeSchedulerConfiguration: spec.scheduler.configFile (a path, as written) or
    /// spec.scheduler.config (the document inline, kept as written for the writer). It sets the
    /// profiles, percentageOfNodesToScore and the backoffs (copied into the fields above when
    /// read), so spec.scheduler.scoring and those fields may not be written beside it.
    std::string schedulerConfigFile;
    DataValue schedulerConfigDocument;
    std::shared_ptr<const scheduler::SchedulerConfiguration> schedulerConfig;
    /// spec.scheduler.kubernetesVersion ("1.35", "1.36", "1.37"; 1.37 when absent) and
    /// spec.scheduler.featureGates over that version's defaults. SchedulerPopFromBackoffQ (on by
    /// default since 1.33): an idle scheduler retries pods still in backoffQ.
    api::FeatureGates featureGates;
    /// Whether spec.scheduler.kubernetesVersion was written (so it is written back).
    bool kubernetesVersionSet = false;
    /// spec.scheduler.whatIf.draPreemption: NOT UPSTREAM. A what-if of KEP-5690, in which
    /// preemption may free DRA devices (Kubernetes up to 1.37 never does). Off by default.
    bool whatIfDraPreemption = false;
    /// spec.scheduler.queueingHints (sim::SimOptions::queueingHints). Kubernetes 1.34 and later
    /// always use the hints; false keeps drasim's earlier model, to compare with runs made by it.
    bool queueingHints = true;
    std::vector<ScenarioEvent> events; ///< sorted by time (stable)
    /// Where each path field is written (named_files_check.h), for errors about the file it names.
    std::map<std::string, SourcePos> pathPositions;

    /// A path of this document resolved against its directory (absolute paths are kept).
    std::string resolvedPath(const std::string& path) const;
};

/// Parses a scenario document. Errors are `file:line:column: Scenario <name>: field.path: message`;
/// returns nullopt when there is any.
std::optional<Scenario> parseScenario(std::string_view text, const std::string& file, Diagnostics& diags);
/// Reads and parses a scenario file.
std::optional<Scenario> loadScenario(const std::string& path, Diagnostics& diags);
/// Joins a relative path onto the scenario directory (absolute paths are kept).
std::string resolvePath(const std::string& baseDir, const std::string& path);

} // namespace drasim::scenario

// SPDX-License-Identifier: Apache-2.0
#pragma once

// Kubeflow Pipelines v2 compiled pipelines (the IR YAML `kfp.compiler` writes) as simulator jobs.
// Read: document 1 = PipelineSpec (components, deploymentSpec.executors, pipelineInfo, root DAG,
// root.inputDefinitions.parameters), document 2 = PlatformSpec (platforms.kubernetes.
// deploymentSpec.executors.<label>: podResourceClaims, nodeSelector, tolerations). The
// kubernetes_manifest_format variant (pipelines.kubeflow.org/v2beta1 PipelineVersion with
// spec.pipelineSpec / spec.platformSpec) is accepted too.
//
// One run = one JobSpec of kind "pipeline-run" with one task per root DAG task, in topological
// order. Each task's pod is created once its dependentTasks (plus producers of its inputs) have
// succeeded. Claims follow the KFP driver: every podResourceClaims entry becomes a pod claim named
// after its template (resourceClaimTemplateName, or the resourceClaimJson value: one
// {resourceClaimTemplateName} object or a list of them, from a pipeline parameter, a constant
// ResourceClaimConfig, or — decision — a run argument keyed "<producerTask>.<outputKey>" for
// taskOutputParameter, since the simulator runs no code), referenced by the `main` container only.
// A template that does not exist is not an error here: the pod is emitted and the scheduler keeps
// it pending with the reason, as on a real cluster.
// A component with a KUBERNETES_RESOURCE_CLAIMS taskConfigPassthrough keeps the claims off its pod
// unless applyToTask is set (they are listed in the drasim.dev/kfp-passthrough-claims annotation).
// Nested DAG components (sub-pipelines, exit handlers, dsl.ParallelFor over literal items) are
// flattened: inner tasks are named "<dagTask>-<task>" ("<dagTask>-<i>-<task>" per loop item),
// inherit the DAG task's dependencies, and tasks depending on the DAG task wait for all of them.
// Not supported (clear error): loops over run-time lists or artifacts, dsl.If conditions.

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/common/data_value.h"
#include "core/common/diagnostic.h"
#include "core/workload/workload_spec.h"

namespace drasim::workload {

struct KfpParameter
{
    std::string type; ///< STRING, NUMBER_INTEGER, NUMBER_DOUBLE, BOOLEAN, LIST, STRUCT, ...
    std::optional<DataValue> defaultValue;
    bool optional = false;
    SourcePos pos;
};

/// Where a task input or a claim JSON comes from.
struct KfpValueRef
{
    enum class Kind { Constant, PipelineParameter, TaskOutput };
    Kind kind = Kind::Constant;
    DataValue constant; ///< Constant
    std::string parameter; ///< PipelineParameter
    std::string producerTask; ///< TaskOutput
    std::string outputKey; ///< TaskOutput
    SourcePos pos;
};

struct KfpClaim
{
    std::optional<std::string> templateName; ///< resourceClaimTemplateName
    std::optional<KfpValueRef> json; ///< resourceClaimJson (takes precedence)
    SourcePos pos;
};

struct KfpTask
{
    std::string name; ///< key in root.dag.tasks; "<dagTask>-[<i>-]<task>" inside nested DAGs
    std::string baseName; ///< the task's key in its own DAG (== name at the root)
    std::string displayName; ///< taskInfo.name
    std::string component; ///< componentRef.name
    std::string executor; ///< executorLabel
    std::vector<std::string> dependsOn; ///< dependentTasks ∪ producers of inputs, sorted, unique
    std::map<std::string, KfpValueRef> inputs; ///< parameter inputs
    std::map<std::string, DataValue> componentDefaults; ///< component inputDefinitions defaults
    // Executor container.
    std::string image;
    std::vector<std::string> command;
    std::vector<std::string> args;
    std::map<std::string, std::string> requests; ///< resource name → quantity text (maybe a placeholder)
    std::map<std::string, std::string> limits;
    // Platform config.
    std::vector<KfpClaim> claims;
    /// False when the component declares a KUBERNETES_RESOURCE_CLAIMS task-config passthrough
    /// without applyToTask: the claims then go to the TaskConfig input for an external workload
    /// the component launches, not to this task's pod (KFP driver behaviour).
    bool claimsToPod = true;
    std::map<std::string, std::string> nodeSelector;
    std::vector<api::Toleration> tolerations;
    SourcePos pos;
};

struct KfpPipeline
{
    std::string name; ///< pipelineInfo.name
    std::string file;
    std::string sdkVersion;
    std::string schemaVersion;
    std::map<std::string, KfpParameter> parameters; ///< root.inputDefinitions.parameters
    std::vector<KfpTask> tasks; ///< topological order, ties by task name
};

/// Parses IR text (all documents). nullopt with diagnostics on malformed input, an unknown
/// component/executor reference, a dependency on an unknown task, or a cycle (the message lists it).
std::optional<KfpPipeline> parseKfpPipeline(
    const std::string& text, const std::string& fileName, Diagnostics& diags);
std::optional<KfpPipeline> loadKfpPipeline(const std::string& path, Diagnostics& diags);

/// The values of all pipeline parameters for a run: defaults overridden by `arguments`. Unknown
/// arguments, missing required parameters and type mismatches are errors (reported at `at`).
std::optional<std::map<std::string, DataValue>> resolveKfpArguments(const KfpPipeline& pipeline,
    const std::map<std::string, DataValue>& arguments, const SourcePos& at, Diagnostics& diags);

/// Everything a run needs except durations and the arrival: pod templates per task with claims
/// and substituted args. Computed once per workload and shared by every run.
struct KfpRunTemplate
{
    std::string pipeline;
    std::vector<std::string> taskNames;
    std::vector<std::string> baseNames; ///< KfpTask::baseName, parallel to taskNames
    std::vector<std::vector<std::string>> dependsOn;
    std::vector<std::shared_ptr<const api::PodTemplateSpec>> pods;
};

std::optional<KfpRunTemplate> buildKfpRunTemplate(const KfpPipeline& pipeline,
    const std::map<std::string, DataValue>& values, const std::map<std::string, DataValue>& arguments,
    const std::string& namespace_, const SourcePos& at, Diagnostics& diags);

/// The stream of a `pipeline:` workload: one run per arrival (once = one run), named
/// "<workload>-<n>", task durations from taskDurations[task name], else [the task's name in its own
/// DAG] (so `train` covers every ParallelFor copy of it), else taskDurations.default, else the
/// workload's `duration:`; a task with none of these is an error.
std::unique_ptr<ArrivalSource> makePipelineSource(
    const WorkloadSpec& spec, uint64_t seed, Diagnostics& diags);

/// Replaces {{$.inputs.parameters['name']}} placeholders using `values` (strings verbatim,
/// other values as compact JSON). Unknown names are left as written.
std::string substituteKfpPlaceholders(
    const std::string& text, const std::map<std::string, DataValue>& values);

} // namespace drasim::workload

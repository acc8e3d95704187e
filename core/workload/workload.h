// SPDX-License-Identifier: Apache-2.0
#pragma once

// The stable interface between workload sources (manifests, generators, traces, Kubeflow
// pipelines) and the simulator. A source is a stream of JobSpecs ordered by arrival time, so a
// run with a million arrivals never holds them all in memory. Everything here is deterministic:
// the same spec and seed give the same stream, bit for bit.
//
// Contract with the simulator (core/sim):
//  * JobSpec::name is unique within one source; the merged stream keeps it unique as long as the
//    workloads have distinct names (every generated name starts with the workload name or comes
//    from the input file, see each source).
//  * Pod names are the simulator's choice; the suggested rule is "<job>-<index>" for kind "job"
//    and "service", and "<job>-<task>" for "pipeline-run".
//  * claimTemplates are "ensure it exists" objects: create each (namespace/name) the first time it
//    is seen, ignore later copies (they are identical by construction).
//  * TaskSpec::pod is shared between many jobs (one template per job type); never mutate it.

#include <cstdint>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/api/core_v1.h"
#include "core/api/label_selector.h"
#include "core/api/pod_failure_policy.h"
#include "core/api/resource_v1.h"
#include "core/api/scheduling_v1.h"
#include "core/workload/speed_table.h"

namespace drasim::workload {

/// A duration that never ends (services, Deployments without a duration annotation).
inline constexpr double kForever = std::numeric_limits<double>::infinity();

/// Job kinds, as strings so metrics can print them directly.
inline constexpr const char* kKindJob = "job"; ///< run-to-completion (Pod, Job, trace row)
inline constexpr const char* kKindService = "service"; ///< long-running replicas (Deployment, ...)
inline constexpr const char* kKindPipelineRun = "pipeline-run"; ///< DAG of tasks (Kubeflow pipeline run)

/// One kind of pod inside a job. A simple job has one task; a pipeline run has one per DAG node.
struct TaskSpec
{
    std::string name; ///< unique inside the job (pipeline task name, or the workload object name)
    std::shared_ptr<const api::PodTemplateSpec> pod; ///< shared by all jobs of the same type
    double durationSeconds = 0; ///< run time of each pod once bound; kForever = until the run ends
    /// Names of tasks of the same job that must have succeeded before this task's pod is created.
    /// Listed in the order the input gives; the job's tasks vector is already in a topological
    /// order (dependencies before dependents, ties by task name).
    std::vector<std::string> dependsOn;
    int32_t priority = 0; ///< pod priority (spec.priority; 0 when absent)
};

/// The PodGroup a job's pods form: what Kubernetes 1.37's Job controller makes from a Job's
/// `spec.scheduling` (gate WorkloadWithJob) and the scheduler's group cycle reads.
struct GroupSpec
{
    bool gang = false; ///< schedulingPolicy.gang (all-or-nothing from minCount); basic otherwise
    int32_t minCount = 0; ///< gang.minCount; 0 = the job's parallelism, as the controller defaults it
    std::string topologyKey; ///< schedulingConstraints.topology[0].key; "" = anywhere
    /// disruptionMode all: workload-aware preemption evicts the group as one unit, never member by
    /// member; single (the default) lets it take members one at a time.
    bool disruptAll = false;
    /// resourceClaims (at most 4): claims the PodGroup's members share (gate
    /// DRAWorkloadResourceClaims, scheduler/group_claims.h); a member uses one through an entry of
    /// its own spec.resourceClaims equal to it field by field.
    std::vector<api::PodGroupResourceClaim> resourceClaims {};
};

/// The CompositePodGroups and PodGroups of a workload's manifests, as a workload controller
/// (JobSet, LeaderWorkerSet) would create them from a Workload's compositePodGroupTemplates
/// (KEP-6012). Shared by the jobs whose pods name a PodGroup of a hierarchy among them.
struct ManifestGroups
{
    std::vector<api::CompositePodGroup> composites;
    std::vector<api::PodGroup> groups;
};

/// One arrival: a unit of work submitted at arrivalSeconds.
struct JobSpec
{
    std::string name; ///< unique (see contract above)
    std::string namespace_ = "default";
    std::string workload; ///< group name for metrics (the scenario's workload name)
    std::string kind = kKindJob; ///< kKindJob, kKindService or kKindPipelineRun
    double arrivalSeconds = 0;
    /// kind "job": at most `parallelism` pods at once until `completions` pods have succeeded;
    /// a failed pod is replaced until `backoffLimit` failures (Kubernetes Job semantics).
    /// kind "service": `parallelism` replicas, each running `durationSeconds` (kForever usually);
    /// completions == parallelism. kind "pipeline-run": one pod per task, these three are 1/1/0.
    int32_t parallelism = 1;
    int32_t completions = 1;
    int32_t backoffLimit = 0;
    /// kind "job": what the Job controller does with a failed pod. Every pod the simulation fails
    /// carries DisruptionTarget, so one podFailurePolicy decision holds for all of them
    /// (api/pod_failure_policy.h): count it against backoffLimit, ignore it, or fail the Job.
    api::DisruptionAction onDisruption = api::DisruptionAction::Count;
    /// kind "job" and "service": a deleted pod is a failure, and replaced, only once it is Failed
    /// (after its grace period), not already while it terminates: a Job with a podFailurePolicy or
    /// podReplacementPolicy Failed, a StatefulSet (a ReplicaSet replaces terminating pods).
    bool replaceFailedOnly = false;
    /// drasim's checkpointInterval (not a Kubernetes field), in seconds; 0 = none. A pod saves its
    /// progress every this much work; a replacement of a failed or preempted pod runs only the work
    /// after the last checkpoint, and the work since then is lost. None: it restarts from zero.
    double checkpointSeconds = 0;
    /// drasim's speed table (a workload's `speed:`, not a Kubernetes field): each pod works its
    /// duration x (reference speed / its devices' speed). Null: every pod at the reference pace.
    std::shared_ptr<const SpeedTable> speed;
    /// kind "service": create the pods one at a time, each once the previous one runs (a
    /// StatefulSet's OrderedReady pod management; readiness is taken as reached on binding).
    bool orderedStart = false;
    std::vector<TaskSpec> tasks; ///< exactly one for "job"/"service"; the DAG for "pipeline-run"
    /// ResourceClaimTemplates the pods reference that the cluster may not have yet.
    std::vector<api::ResourceClaimTemplate> claimTemplates;
    /// Pre-created ResourceClaims the pods reference by resourceClaimName (shared claims from the
    /// manifests), same "ensure it exists" rule as claimTemplates.
    std::vector<api::ResourceClaim> claims;
    /// Its pods are the members of one PodGroup (scheduled by the group cycle when the scenario's
    /// feature gates allow); absent: plain pods, one cycle each.
    std::optional<GroupSpec> group;
    /// The Deployment, ReplicaSet or StatefulSet whose pods these are (name, namespace, selector
    /// only); null for Jobs, bare pods and trace jobs. Its pods name it as their controller owner
    /// (a Deployment's through a ReplicaSet of its name), which gives them PodTopologySpread's
    /// system default constraints over its selector.
    std::shared_ptr<const api::PodController> owner;
    /// The Services of the manifests the job came from (shared by all their jobs): the cluster
    /// learns them when such a job arrives, and their selectors give the pods they select
    /// PodTopologySpread's system default constraints. Null when there are none.
    std::shared_ptr<const std::vector<api::Service>> services;
    /// Extra labels for every pod of this job (e.g. drasim.dev/qos from the trace); null for none.
    /// Shared by the jobs that carry the same ones (a trace's rows of one qos and phase, a job
    /// type's jobs), like TaskSpec::pod: never mutate it. A map of its own per job cost every
    /// arrival its nodes and strings.
    std::shared_ptr<const api::Labels> labels;
    /// Its pods name (spec.schedulingGroup) a PodGroup of a CompositePodGroup hierarchy of these
    /// groups: the hierarchy's root is their queue entity (`group` is then absent).
    std::shared_ptr<const ManifestGroups> hierarchy {};
};

/// A stream of jobs in non-decreasing arrivalSeconds. next() returns nullopt when exhausted and
/// keeps returning nullopt afterwards. Errors found while streaming (e.g. a malformed trace row)
/// are reported through the Diagnostics the source was created with; the row is skipped.
class ArrivalSource
{
public:
    virtual ~ArrivalSource() = default;
    virtual std::optional<JobSpec> next() = 0;
};

/// Merges several sources into one stream ordered by (arrivalSeconds, source index): at equal
/// times the source listed first wins, and within a source the source's own order is kept.
/// Holds one pending job per source, never more (none when there is only one source).
class MergedSource final : public ArrivalSource
{
public:
    explicit MergedSource(std::vector<std::unique_ptr<ArrivalSource>> sources);
    std::optional<JobSpec> next() override;

private:
    std::vector<std::unique_ptr<ArrivalSource>> m_sources;
    std::vector<std::optional<JobSpec>> m_heads; ///< next job of each source, if any
    bool m_primed = false;
};

/// A source over jobs already in memory (tests, small manifests). Sorts them stably by arrival.
class VectorSource final : public ArrivalSource
{
public:
    explicit VectorSource(std::vector<JobSpec> jobs);
    std::optional<JobSpec> next() override;

private:
    std::vector<JobSpec> m_jobs;
    size_t m_next = 0;
};

} // namespace drasim::workload

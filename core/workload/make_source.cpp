// SPDX-License-Identifier: Apache-2.0
#include <cmath>

#include "core/workload/added_jobs_source.h"
#include "core/workload/alibaba_trace.h"
#include "core/workload/csv_trace.h"
#include "core/workload/kfp_pipeline.h"
#include "core/workload/manifest_source.h"
#include "core/workload/rng.h"
#include "core/workload/workload_spec.h"
#include "core/yamlio/loader.h"

namespace drasim::workload {

uint64_t workloadSeed(const WorkloadSpec& spec, uint64_t scenarioSeed, size_t index)
{
    if (spec.seed)
        return *spec.seed;
    return mixSeed(scenarioSeed, uint64_t(index) + 1);
}

namespace {

std::unique_ptr<ArrivalSource> makeManifests(const WorkloadSpec& spec, uint64_t seed,
    const api::FeatureGates& gates, const std::vector<api::PriorityClass>& priorityClasses,
    Diagnostics& diags)
{
    yamlio::LoadOptions options;
    options.gates = gates;
    options.priorityClasses = priorityClasses;
    yamlio::LoadResult loaded = yamlio::loadPaths(spec.manifests, options);
    diags.append(loaded.diagnostics);
    if (loaded.diagnostics.hasErrors())
        return nullptr;
    const size_t before = diags.errorCount();
    std::vector<JobType> types = jobTypesFromObjects(
        loaded.objects, spec.namespace_, diags, GroupRules { gates, spec.scheduling }, priorityClasses);
    if (diags.errorCount() > before)
        return nullptr;
    return makeManifestSource(spec, std::move(types), seed, diags);
}

} // namespace

namespace {

/// Gives every job of a workload what the workload entry says for all of them: the PodGroup its
/// `scheduling:` describes (not to a pipeline run, a DAG of single pods, nor to manifests, which
/// resolve it per object), its `checkpointInterval` and its `speed` table.
class WorkloadSettingsSource final : public ArrivalSource
{
public:
    WorkloadSettingsSource(std::unique_ptr<ArrivalSource> inner, std::optional<GroupSpec> group,
        double checkpoint, std::shared_ptr<const SpeedTable> speed)
        : m_inner(std::move(inner))
        , m_group(std::move(group))
        , m_checkpoint(checkpoint)
        , m_speed(std::move(speed))
    { }
    std::optional<JobSpec> next() override
    {
        auto job = m_inner->next();
        if (!job)
            return job;
        if (m_group && job->kind != kKindPipelineRun)
            job->group = m_group;
        job->checkpointSeconds = m_checkpoint;
        job->speed = m_speed;
        return job;
    }

private:
    std::unique_ptr<ArrivalSource> m_inner;
    std::optional<GroupSpec> m_group;
    double m_checkpoint = 0;
    std::shared_ptr<const SpeedTable> m_speed;
};

std::unique_ptr<ArrivalSource> makeUngroupedSource(const WorkloadSpec& spec, uint64_t seed,
    const api::FeatureGates& gates, const std::vector<api::PriorityClass>& priorityClasses,
    Diagnostics& diags);

} // namespace

std::unique_ptr<ArrivalSource> makeSource(const WorkloadSpec& spec, uint64_t seed,
    const api::FeatureGates& gates, Diagnostics& diags,
    const std::vector<api::PriorityClass>& priorityClasses)
{
    auto source = makeUngroupedSource(spec, seed, gates, priorityClasses, diags);
    // Manifests resolve `scheduling:` per object (GroupRules), against the objects' own.
    std::optional<GroupSpec> group;
    if (spec.source != WorkloadSpec::Source::Manifests)
        group = spec.scheduling;
    if (source && (group || spec.checkpointInterval || spec.speed))
        source = std::make_unique<WorkloadSettingsSource>(
            std::move(source), std::move(group), spec.checkpointInterval.value_or(0), spec.speed);
    if (source && spec.addedJobs > 0)
        return std::make_unique<AddedJobsSource>(std::move(source), spec.addedJobs, seed);
    return source;
}

namespace {

std::unique_ptr<ArrivalSource> makeUngroupedSource(const WorkloadSpec& spec, uint64_t seed,
    const api::FeatureGates& gates, const std::vector<api::PriorityClass>& priorityClasses,
    Diagnostics& diags)
{
    switch (spec.source) {
    case WorkloadSpec::Source::Manifests:
        return makeManifests(spec, seed, gates, priorityClasses, diags);
    case WorkloadSpec::Source::Trace:
        if (!spec.trace)
            return nullptr;
        return spec.trace->format == TraceSpec::Format::Alibaba2023 ? makeAlibabaSource(spec, seed, diags)
                                                                    : makeCsvTraceSource(spec, seed, diags);
    case WorkloadSpec::Source::Pipeline:
        if (!spec.pipeline)
            return nullptr;
        return makePipelineSource(spec, seed, diags);
    }
    return nullptr;
}

} // namespace

std::unique_ptr<ArrivalSource> makeScenarioSource(const std::vector<WorkloadSpec>& specs,
    uint64_t scenarioSeed, const api::FeatureGates& gates, Diagnostics& diags,
    const std::vector<api::PriorityClass>& priorityClasses)
{
    std::vector<std::unique_ptr<ArrivalSource>> sources;
    bool ok = true;
    for (size_t i = 0; i < specs.size(); ++i) {
        auto s = makeSource(specs[i], workloadSeed(specs[i], scenarioSeed, i), gates, diags, priorityClasses);
        if (!s)
            ok = false;
        sources.push_back(std::move(s));
    }
    if (!ok)
        return nullptr;
    return std::make_unique<MergedSource>(std::move(sources));
}

} // namespace drasim::workload

// SPDX-License-Identifier: Apache-2.0
#include "core/workload/manifest_source.h"

#include <algorithm>
#include <cmath>
#include <map>

#include "core/api/priority_admission.h"
#include "core/workload/arrival_process.h"
#include "core/workload/duration_sampler.h"
#include "core/workload/job_group.h"
#include "core/workload/time_text.h"

namespace drasim::workload {

namespace {

const char* kindOf(const api::PodController& w)
{
    return w.kind == api::PodController::Kind::Job ? kKindJob : kKindService;
}

const std::string* annotation(const api::ObjectMeta& meta, const char* key)
{
    auto it = meta.annotations.find(key);
    return it == meta.annotations.end() ? nullptr : &it->second;
}

bool hasController(const api::ObjectMeta& meta)
{
    return std::any_of(meta.ownerReferences.begin(), meta.ownerReferences.end(),
        [](const api::OwnerReference& r) { return r.controller; });
}

// Reads drasim.dev/duration and drasim.dev/arrival from the object, falling back to the pod
// template for the duration (people annotate either).
void readAnnotations(JobType& type, const api::ObjectMeta& objectMeta, const api::ObjectMeta* templateMeta,
    const char* objectKind, Diagnostics& diags)
{
    const std::string* d = annotation(objectMeta, kDurationAnnotation);
    std::string field = std::string("metadata.annotations.") + kDurationAnnotation;
    if (!d && templateMeta) {
        d = annotation(*templateMeta, kDurationAnnotation);
        field = std::string("spec.template.metadata.annotations.") + kDurationAnnotation;
    }
    if (d) {
        std::string err;
        type.duration = parseDurationShorthand(*d, &err);
        if (!type.duration)
            diags.error(objectMeta.pos, objectKind, objectMeta.key(), field, err);
    }
    if (const std::string* a = annotation(objectMeta, kArrivalAnnotation)) {
        std::string err;
        auto t = parseDurationSeconds(*a, &err, Forever::Rejected);
        if (!t)
            diags.error(objectMeta.pos, objectKind, objectMeta.key(),
                std::string("metadata.annotations.") + kArrivalAnnotation, err);
        else
            type.arrivalOffset = *t;
    }
}

// Copies the templates and claims the pod spec references. A missing one is not an error here:
// the pod is emitted anyway and the scheduler reports it pending, as a real cluster would.
void attachClaims(JobType& type, const api::ObjectSet& objects)
{
    for (const api::PodResourceClaim& prc : type.pod->spec.resourceClaims) {
        if (prc.resourceClaimTemplateName) {
            for (const auto& t : objects.resourceClaimTemplates) {
                const std::string ns = t.meta.namespace_.empty() ? type.namespace_ : t.meta.namespace_;
                if (t.meta.name == *prc.resourceClaimTemplateName && ns == type.namespace_) {
                    api::ResourceClaimTemplate copy = t;
                    copy.meta.namespace_ = ns;
                    type.claimTemplates.push_back(std::move(copy));
                    break;
                }
            }
        } else if (prc.resourceClaimName) {
            for (const auto& c : objects.resourceClaims) {
                const std::string ns = c.meta.namespace_.empty() ? type.namespace_ : c.meta.namespace_;
                if (c.meta.name == *prc.resourceClaimName && ns == type.namespace_) {
                    api::ResourceClaim copy = c;
                    copy.meta.namespace_ = ns;
                    type.claims.push_back(std::move(copy));
                    break;
                }
            }
        }
    }
}

/// The controller's PodGroup: the Job controller's, unless the workload's `scheduling:` stands
/// in for a spec.scheduling the Job does not have. A PodGroup a parent delegated comes from the
/// parent's template and stays. `why`: a delegation that cannot be served (job_group.h).
std::optional<GroupSpec> groupFor(const api::PodController& w, const GroupRules& rules,
    const std::vector<api::Workload>& workloads, const std::string& namespace_, std::string& why)
{
    std::optional<GroupSpec> own = jobControllerGroup(w, rules.gates, workloads, namespace_, why);
    const bool delegated = own && w.meta.annotations.count(kGroupTemplateNameAnnotation)
        && std::any_of(w.meta.ownerReferences.begin(), w.meta.ownerReferences.end(),
            [](const api::OwnerReference& r) { return r.controller; });
    if (own && (w.scheduling || delegated))
        return own;
    return rules.scheduling ? rules.scheduling : own;
}

class ManifestSource final : public ArrivalSource
{
public:
    ManifestSource(
        const WorkloadSpec& spec, std::vector<JobType> types, std::vector<double> weights, uint64_t seed)
        : m_workload(spec.name)
        , m_types(std::move(types))
        , m_weights(std::move(weights))
        , m_arrivals(spec.arrival.value_or(ArrivalSpec {}), mixSeed(seed, 1))
        , m_pickRng(mixSeed(seed, 2))
        , m_durationRng(mixSeed(seed, 3))
        , m_once(!spec.arrival || spec.arrival->process == ArrivalSpec::Process::Once)
    {
        if (spec.duration)
            m_default.emplace(*spec.duration);
        for (const JobType& t : m_types) {
            m_samplers.push_back(t.duration ? std::optional<DurationSampler>(*t.duration) : std::nullopt);
            m_labels.push_back(
                std::make_shared<const api::Labels>(api::Labels { { "drasim.dev/job-type", t.name } }));
        }
        for (double w : m_weights)
            m_totalWeight += w;
        if (m_once) {
            // Submission order: by offset, then input order (stable).
            for (size_t i = 0; i < m_types.size(); ++i)
                m_onceOrder.push_back(i);
            std::stable_sort(m_onceOrder.begin(), m_onceOrder.end(),
                [this](size_t a, size_t b) { return m_types[a].arrivalOffset < m_types[b].arrivalOffset; });
        }
    }

    std::optional<JobSpec> next() override
    {
        if (m_once) {
            if (m_onceNext >= m_onceOrder.size())
                return std::nullopt;
            auto t = m_arrivals.next();
            if (!t)
                return std::nullopt;
            const size_t i = m_onceOrder[m_onceNext++];
            return makeJob(i, *t + m_types[i].arrivalOffset, m_types[i].name);
        }
        auto t = m_arrivals.next();
        if (!t)
            return std::nullopt;
        const size_t i = pick();
        return makeJob(i, *t, m_workload + "-" + std::to_string(m_seq++));
    }

private:
    size_t pick()
    {
        if (m_types.size() == 1)
            return 0;
        // Cumulative weights in input order; the last type absorbs rounding.
        double x = m_pickRng.uniform01() * m_totalWeight;
        for (size_t i = 0; i < m_weights.size(); ++i) {
            if (x < m_weights[i])
                return i;
            x -= m_weights[i];
        }
        for (size_t i = m_weights.size(); i-- > 0;)
            if (m_weights[i] > 0)
                return i;
        return 0;
    }

    JobSpec makeJob(size_t i, double at, std::string name)
    {
        const JobType& type = m_types[i];
        JobSpec job;
        job.name = std::move(name);
        job.namespace_ = type.namespace_;
        job.workload = m_workload;
        job.kind = type.kind;
        job.arrivalSeconds = at;
        job.parallelism = type.parallelism;
        job.completions = type.completions;
        job.backoffLimit = type.backoffLimit;
        job.onDisruption = type.onDisruption;
        job.replaceFailedOnly = type.replaceFailedOnly;
        job.orderedStart = type.orderedStart;
        job.claimTemplates = type.claimTemplates;
        job.claims = type.claims;
        job.group = type.group;
        job.owner = type.owner;
        job.services = type.services;
        job.hierarchy = type.hierarchy;
        job.labels = m_labels[i];
        TaskSpec task;
        task.name = type.name;
        task.pod = type.pod;
        task.priority = type.priority;
        // Always draw from the duration stream, even for fixed durations, so that one job type's
        // annotation does not shift the durations of the others.
        if (m_samplers[i])
            task.durationSeconds = m_samplers[i]->sample(m_durationRng);
        else if (m_default)
            task.durationSeconds = m_default->sample(m_durationRng);
        else
            task.durationSeconds = kForever;
        job.tasks.push_back(std::move(task));
        return job;
    }

    std::string m_workload;
    std::vector<JobType> m_types;
    std::vector<double> m_weights;
    double m_totalWeight = 0;
    std::vector<std::optional<DurationSampler>> m_samplers;
    std::vector<std::shared_ptr<const api::Labels>>
        m_labels; ///< each type's drasim.dev/job-type, shared by its jobs
    std::optional<DurationSampler> m_default;
    ArrivalProcess m_arrivals;
    Rng m_pickRng;
    Rng m_durationRng;
    bool m_once;
    std::vector<size_t> m_onceOrder;
    size_t m_onceNext = 0;
    uint64_t m_seq = 0;
};

/// The Priority admission plugin on the pods `w` creates, at prepare time: their name is the
/// generateName prefix the controller gives them (a StatefulSet names its first pod "-0").
bool admitTemplatePriority(const api::PodController& w, const std::string& namespace_,
    const api::PriorityClassIndex& classes, api::PodSpec& spec, Diagnostics& diags)
{
    const bool statefulSet = w.kind == api::PodController::Kind::StatefulSet;
    const std::string podName = w.meta.name + (statefulSet ? "-0" : "-");
    const auto error = api::admitPodPriority(classes, podName, spec);
    if (error)
        diags.error(w.meta.pos, api::podControllerKindName(w.kind), namespace_ + "/" + w.meta.name,
            "spec.template." + error->field, error->message);
    return !error;
}

/// A 1.35 pod (template) naming a Workload's gang in spec.workloadRef makes each job that gang;
/// false (an error located at the object) when the Workload or its podGroup is not there.
bool applyWorkloadRef(JobType& t, const api::PodSpec& spec, const api::ObjectSet& objects,
    const GroupRules& rules, const char* kind, const std::string& specPath, Diagnostics& diags)
{
    std::string missing;
    if (auto gang = workloadRefGang(spec, t.namespace_, objects.workloads, rules.gates, missing)) {
        t.group = gang;
        return true;
    }
    if (missing.empty())
        return true;
    diags.error(t.pos, kind, t.namespace_ + "/" + t.name, specPath + ".workloadRef", missing);
    return false;
}

/// The manifests' groups for the jobs whose pods name a PodGroup of a CompositePodGroup
/// hierarchy: made once, namespaces filled in, and shared by all of them.
class HierarchyGroups
{
public:
    HierarchyGroups(const api::ObjectSet& objects, const std::string& defaultNamespace)
        : m_objects(objects)
        , m_namespace(defaultNamespace)
    { }

    /// Sets `t.hierarchy` (and drops any other group) when its pods name such a PodGroup.
    void attach(JobType& t, const api::PodSpec& spec)
    {
        if (!hierarchyLeaf(spec, t.namespace_, m_objects.podGroups))
            return;
        if (!m_shared) {
            auto groups = std::make_shared<ManifestGroups>();
            groups->composites = m_objects.compositePodGroups;
            groups->groups = m_objects.podGroups;
            for (auto& c : groups->composites)
                if (c.meta.namespace_.empty())
                    c.meta.namespace_ = m_namespace;
            for (auto& g : groups->groups)
                if (g.meta.namespace_.empty())
                    g.meta.namespace_ = m_namespace;
            m_shared = std::move(groups);
        }
        t.hierarchy = m_shared;
        t.group.reset(); // the hierarchy's root is the queue entity, not a PodGroup of the job
    }

private:
    const api::ObjectSet& m_objects;
    std::string m_namespace;
    std::shared_ptr<const ManifestGroups> m_shared;
};

} // namespace

std::vector<JobType> jobTypesFromObjects(const api::ObjectSet& objects, const std::string& defaultNamespace,
    Diagnostics& diags, const GroupRules& rules, const std::vector<api::PriorityClass>& priorityClasses)
{
    const api::PriorityClassIndex classes(objects.priorityClasses, priorityClasses);
    std::vector<JobType> types;
    HierarchyGroups hierarchies(objects, defaultNamespace);
    for (const api::Pod& pod : objects.pods) {
        if (hasController(pod.meta)) {
            diags.warning(pod.meta.pos, "Pod", pod.meta.key(), "metadata.ownerReferences",
                "pod has a controller; ignored as a workload (its controller creates it)");
            continue;
        }
        JobType t;
        t.name = pod.meta.name;
        t.namespace_ = pod.meta.namespace_.empty() ? defaultNamespace : pod.meta.namespace_;
        t.pos = pod.meta.pos;
        t.objectKind = "Pod";
        auto tmpl = std::make_shared<api::PodTemplateSpec>();
        tmpl->meta = pod.meta;
        tmpl->meta.namespace_ = t.namespace_;
        tmpl->spec = pod.spec;
        t.priority = pod.spec.priority.value_or(0);
        t.pod = std::move(tmpl);
        t.group = rules.scheduling;
        if (const std::string note
            = ownPodGroupNote(pod.spec, t.namespace_, objects.podGroups, objects.compositePodGroups);
            !note.empty())
            diags.warning(t.pos, "Pod", t.namespace_ + "/" + t.name, "spec.schedulingGroup", note);
        if (!applyWorkloadRef(t, pod.spec, objects, rules, "Pod", "spec", diags))
            continue;
        hierarchies.attach(t, pod.spec);
        readAnnotations(t, pod.meta, nullptr, "Pod", diags);
        attachClaims(t, objects);
        types.push_back(std::move(t));
    }
    for (const api::PodController& w : objects.controllers) {
        JobType t;
        t.name = w.meta.name;
        t.namespace_ = w.meta.namespace_.empty() ? defaultNamespace : w.meta.namespace_;
        t.pos = w.meta.pos;
        t.objectKind = api::podControllerKindName(w.kind);
        t.kind = kindOf(w);
        if (w.kind == api::PodController::Kind::Job) {
            t.parallelism = w.parallelism;
            t.completions = w.completions;
            t.backoffLimit = w.backoffLimit;
            t.onDisruption = api::matchDisruption(w.podFailurePolicy).action;
            t.replaceFailedOnly = api::replacesOnlyFailedPods(w);
        } else {
            t.parallelism = w.replicas;
            t.completions = w.replicas;
            t.backoffLimit = 0;
            t.orderedStart = w.kind == api::PodController::Kind::StatefulSet && w.orderedReady;
            // A ReplicaSet no longer counts a terminating pod as a replica (IsPodActive,
            // pkg/controller/controller_utils.go) and replaces it at once; a StatefulSet
            // recreates a pod of the same name only once the old one is gone.
            t.replaceFailedOnly = w.kind == api::PodController::Kind::StatefulSet;
        }
        std::string undelegated;
        t.group = groupFor(w, rules, objects.workloads, t.namespace_, undelegated);
        if (!undelegated.empty())
            diags.warning(t.pos, t.objectKind, t.namespace_ + "/" + t.name,
                std::string("metadata.annotations[") + kGroupTemplateNameAnnotation + "]", undelegated);
        if (const std::string note = ownPodGroupNote(
                w.podTemplate.spec, t.namespace_, objects.podGroups, objects.compositePodGroups);
            !note.empty())
            diags.warning(
                t.pos, t.objectKind, t.namespace_ + "/" + t.name, "spec.template.spec.schedulingGroup", note);
        if (w.kind != api::PodController::Kind::Job && w.selector && !w.selector->empty()) {
            auto owner = std::make_shared<api::PodController>();
            owner->kind = w.kind;
            owner->meta.name = w.meta.name;
            owner->meta.namespace_ = t.namespace_;
            owner->selector = w.selector;
            t.owner = std::move(owner);
        }
        auto tmpl = std::make_shared<api::PodTemplateSpec>(w.podTemplate);
        tmpl->meta.namespace_ = t.namespace_;
        if (!admitTemplatePriority(w, t.namespace_, classes, tmpl->spec, diags))
            continue;
        t.priority = tmpl->spec.priority.value_or(0);
        t.pod = std::move(tmpl);
        if (!applyWorkloadRef(t, w.podTemplate.spec, objects, rules, api::podControllerKindName(w.kind),
                "spec.template.spec", diags))
            continue;
        hierarchies.attach(t, w.podTemplate.spec);
        readAnnotations(t, w.meta, &w.podTemplate.meta, api::podControllerKindName(w.kind), diags);
        attachClaims(t, objects);
        types.push_back(std::move(t));
    }
    if (!objects.services.empty()) {
        auto services = std::make_shared<std::vector<api::Service>>(objects.services);
        for (api::Service& s : *services)
            if (s.meta.namespace_.empty())
                s.meta.namespace_ = defaultNamespace;
        for (JobType& t : types)
            t.services = services;
    }
    // Pods first then controllers would reorder the input; restore input order by position so the
    // stream follows the files (the ObjectSet keeps per-kind lists).
    std::stable_sort(types.begin(), types.end(), [](const JobType& a, const JobType& b) {
        if (a.pos.file != b.pos.file)
            return a.pos.file < b.pos.file;
        return a.pos.line < b.pos.line;
    });
    return types;
}

std::unique_ptr<ArrivalSource> makeManifestSource(
    const WorkloadSpec& spec, std::vector<JobType> types, uint64_t seed, Diagnostics& diags)
{
    const bool once = !spec.arrival || spec.arrival->process == ArrivalSpec::Process::Once;
    if (types.empty()) {
        diags.error(spec.pos, "Workload", spec.name, "manifests",
            "no Pod, Job, Deployment, ReplicaSet or StatefulSet found in the manifests");
        return nullptr;
    }
    std::vector<double> weights(types.size(), spec.mix.empty() ? 1.0 : 0.0);
    if (!spec.mix.empty()) {
        if (once) {
            diags.error(spec.pos, "Workload", spec.name, "mix",
                "mix needs an arrival process other than once (once submits every object)");
            return nullptr;
        }
        for (const auto& [name, weight] : spec.mix) {
            auto it
                = std::find_if(types.begin(), types.end(), [&](const JobType& t) { return t.name == name; });
            if (it == types.end()) {
                std::string known;
                for (const JobType& t : types)
                    known += (known.empty() ? "" : ", ") + t.name;
                diags.error(spec.pos, "Workload", spec.name, "mix." + name,
                    "no object named \"" + name + "\" in the manifests (have: " + known + ")");
                return nullptr;
            }
            if (!(weight >= 0)) {
                diags.error(spec.pos, "Workload", spec.name, "mix." + name, "weight must not be negative");
                return nullptr;
            }
            weights[size_t(it - types.begin())] = weight;
        }
        double total = 0;
        for (double w : weights)
            total += w;
        if (!(total > 0)) {
            diags.error(spec.pos, "Workload", spec.name, "mix", "at least one weight must be positive");
            return nullptr;
        }
    }
    if (!spec.duration) {
        for (const JobType& t : types)
            if (!t.duration && t.kind == kKindJob)
                diags.warning(t.pos, t.objectKind, t.namespace_ + "/" + t.name,
                    std::string("metadata.annotations.") + kDurationAnnotation,
                    "no duration (annotation or workload duration): its pods run until the simulation "
                    "ends");
    }
    return std::make_unique<ManifestSource>(spec, std::move(types), std::move(weights), seed);
}

} // namespace drasim::workload

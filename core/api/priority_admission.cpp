// SPDX-License-Identifier: Apache-2.0
#include "core/api/priority_admission.h"

namespace drasim::api {

namespace {

PriorityClass systemPriorityClass(const char* name, int32_t value)
{
    PriorityClass pc;
    pc.meta.name = name;
    pc.value = value;
    return pc;
}

std::string priorityForbidden(std::string_view resource, const std::string& name, const std::string& why)
{
    // admission.NewForbidden: `<resource> "<name>" is forbidden: <why>`.
    return std::string(resource) + " \"" + name + "\" is forbidden: " + why;
}

/// The class an object resolves to: the named one, or the globalDefault for no name; nullptr
/// with an error for an unknown name, nullptr without one when no class is involved.
const PriorityClass* resolvePriorityClass(const PriorityClassIndex& classes, std::string_view resource,
    const std::string& name, const std::string& className, std::optional<PriorityAdmissionError>& error)
{
    if (className.empty())
        return classes.globalDefault();
    if (const PriorityClass* pc = classes.find(className))
        return pc;
    error = PriorityAdmissionError { "spec.priorityClassName",
        priorityForbidden(resource, name, "no PriorityClass with name " + className + " was found") };
    return nullptr;
}

} // namespace

PriorityClassIndex::PriorityClassIndex(const std::vector<PriorityClass>& classes)
    : PriorityClassIndex(classes, {})
{ }

PriorityClassIndex::PriorityClassIndex(
    const std::vector<PriorityClass>& classes, const std::vector<PriorityClass>& more)
{
    for (const PriorityClass& pc : classes)
        add(pc);
    for (const PriorityClass& pc : more)
        add(pc);
    // SystemPriorityClasses (pkg/apis/scheduling/helpers.go): created by the API server at start.
    add(systemPriorityClass("system-node-critical", kSystemNodeCriticalPriority));
    add(systemPriorityClass("system-cluster-critical", kSystemClusterCriticalPriority));
    finish();
}

void PriorityClassIndex::add(const PriorityClass& pc)
{
    if (!find(pc.meta.name))
        m_classes.push_back(pc);
}

void PriorityClassIndex::finish()
{
    // getDefaultPriorityClass: "In case more than one global default priority class is added as
    // a result of a race condition, we pick the one with the lowest priority value."
    for (size_t i = 0; i < m_classes.size(); ++i)
        if (m_classes[i].globalDefault && (!globalDefault() || m_classes[i].value < globalDefault()->value))
            m_default = i;
}

const PriorityClass* PriorityClassIndex::find(std::string_view name) const
{
    for (const PriorityClass& pc : m_classes)
        if (pc.meta.name == name)
            return &pc;
    return nullptr;
}

PreemptionPolicy classPreemptionPolicy(const PriorityClass& pc)
{
    return pc.preemptionPolicy == "Never" ? PreemptionPolicy::Never : PreemptionPolicy::PreemptLowerPriority;
}

std::optional<PriorityAdmissionError> admitPodPriority(
    const PriorityClassIndex& classes, const std::string& podName, PodSpec& spec)
{
    std::optional<PriorityAdmissionError> error;
    const PriorityClass* pc = resolvePriorityClass(classes, "pods", podName, spec.priorityClassName, error);
    if (!pc)
        return error; // an unknown name, or no class involved (see the header's decision)
    // admitPod: a priority or preemptionPolicy the client gave must equal the computed one.
    if (spec.priority && *spec.priority != pc->value)
        return PriorityAdmissionError { "spec.priority",
            priorityForbidden("pods", podName,
                "the integer value of priority (" + std::to_string(*spec.priority)
                    + ") must not be provided in pod spec; priority admission controller computed "
                    + std::to_string(pc->value) + " from the given PriorityClass name") };
    const PreemptionPolicy policy = classPreemptionPolicy(*pc);
    if (spec.preemptionPolicy != PreemptionPolicy::Unset && spec.preemptionPolicy != policy)
        return PriorityAdmissionError { "spec.preemptionPolicy",
            priorityForbidden("pods", podName,
                std::string("the string value of PreemptionPolicy (")
                    + preemptionPolicyName(spec.preemptionPolicy)
                    + ") must not be provided in pod spec; priority admission controller computed "
                    + preemptionPolicyName(policy) + " from the given PriorityClass name") };
    spec.priorityClassName = pc->meta.name;
    spec.priority = pc->value;
    spec.preemptionPolicy = policy;
    return std::nullopt;
}

std::optional<PriorityAdmissionError> admitGroupPriority(const PriorityClassIndex& classes,
    std::string_view resource, const std::string& name, GroupPolicy& policy, bool withPreemptionPolicy)
{
    std::optional<PriorityAdmissionError> error;
    const PriorityClass* pc = resolvePriorityClass(classes, resource, name, policy.priorityClassName, error);
    if (!pc)
        return error;
    policy.priorityClassName = pc->meta.name;
    policy.priority = pc->value;
    if (withPreemptionPolicy && policy.preemptionPolicy == GroupPreemptionPolicy::Unset)
        policy.preemptionPolicy = classPreemptionPolicy(*pc);
    return std::nullopt;
}

} // namespace drasim::api

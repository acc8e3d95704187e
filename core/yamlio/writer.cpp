// SPDX-License-Identifier: Apache-2.0
#include "core/yamlio/writer.h"

#include <algorithm>
#include <iterator>
#include <type_traits>

namespace drasim::yamlio {

namespace {

using Map = DataValue::Map;
using List = DataValue::List;

// Appends key: value unless the value is empty (omitempty).
void put(DataValue& m, const char* key, DataValue v)
{
    if (v.isNull())
        return;
    if (v.isString() && v.asString().empty())
        return;
    if (v.isList() && v.asList().empty())
        return;
    if (v.isMap() && v.asMap().empty())
        return;
    m.set(key, std::move(v));
}

void putAlways(DataValue& m, const char* key, DataValue v)
{
    m.set(key, std::move(v));
}

DataValue strings(const std::vector<std::string>& v)
{
    List l;
    for (const auto& s : v)
        l.emplace_back(s);
    return DataValue(std::move(l));
}

DataValue stringMap(const std::map<std::string, std::string>& m)
{
    DataValue out = DataValue::map();
    for (const auto& [k, v] : m)
        out.set(k, v);
    return out;
}

DataValue quantityMap(const std::map<std::string, Quantity>& m)
{
    DataValue out = DataValue::map();
    for (const auto& [k, v] : m)
        out.set(k, v.toString());
    return out;
}

template <typename T, typename F> DataValue listOf(const std::vector<T>& v, F&& f)
{
    List l;
    l.reserve(v.size());
    for (const auto& x : v)
        l.push_back(f(x));
    return DataValue(std::move(l));
}

DataValue deviceTaint(const api::DeviceTaint& t)
{
    DataValue tm = DataValue::map();
    tm.set("key", t.key);
    put(tm, "value", t.value);
    tm.set("effect", t.effect);
    put(tm, "timeAdded", t.timeAdded);
    return tm;
}

DataValue object(const char* apiVersion, const char* kind, const api::ObjectMeta& meta)
{
    DataValue m = DataValue::map();
    m.set("apiVersion", apiVersion);
    m.set("kind", kind);
    m.set("metadata", toData(meta));
    return m;
}

DataValue requirement(const api::NodeSelectorRequirement& r)
{
    DataValue m = DataValue::map();
    put(m, "key", r.key);
    put(m, "operator", r.op);
    put(m, "values", strings(r.values));
    return m;
}

DataValue term(const api::NodeSelectorTerm& t)
{
    DataValue m = DataValue::map();
    put(m, "matchExpressions", listOf(t.matchExpressions, requirement));
    put(m, "matchFields", listOf(t.matchFields, requirement));
    return m;
}

DataValue nodeSelector(const api::NodeSelector& s)
{
    DataValue m = DataValue::map();
    putAlways(m, "nodeSelectorTerms", listOf(s.terms, term));
    return m;
}

DataValue intOrString(const api::IntOrString& v)
{
    return v.isString ? DataValue(v.stringValue) : DataValue(int64_t(v.intValue));
}

/// metav1.LabelSelector: an empty one is written as {} (it selects everything, unlike none).
DataValue labelSelector(const api::LabelSelector& s)
{
    DataValue m = DataValue::map();
    put(m, "matchLabels", stringMap(s.matchLabels));
    put(m, "matchExpressions", listOf(s.matchExpressions, [](const api::LabelSelectorRequirement& r) {
        DataValue rm = DataValue::map();
        rm.set("key", r.key);
        rm.set("operator", r.op);
        put(rm, "values", strings(r.values));
        return rm;
    }));
    return m;
}

DataValue podAffinityTerm(const api::PodAffinityTerm& t)
{
    DataValue m = DataValue::map();
    if (t.labelSelector)
        m.set("labelSelector", labelSelector(*t.labelSelector));
    put(m, "namespaces", strings(t.namespaces));
    if (t.namespaceSelector)
        m.set("namespaceSelector", labelSelector(*t.namespaceSelector));
    m.set("topologyKey", t.topologyKey);
    put(m, "matchLabelKeys", strings(t.matchLabelKeys));
    put(m, "mismatchLabelKeys", strings(t.mismatchLabelKeys));
    return m;
}

DataValue podAffinityRules(const api::PodAffinityRules& r)
{
    DataValue m = DataValue::map();
    put(m, "requiredDuringSchedulingIgnoredDuringExecution", listOf(r.required, podAffinityTerm));
    put(m, "preferredDuringSchedulingIgnoredDuringExecution",
        listOf(r.preferred, [](const api::WeightedPodAffinityTerm& w) {
            DataValue p = DataValue::map();
            p.set("weight", int64_t(w.weight));
            p.set("podAffinityTerm", podAffinityTerm(w.term));
            return p;
        }));
    return m;
}

/// The two node inclusion policies are written only when they differ from what an absent field
/// means (the API server leaves them unset).
DataValue spreadConstraint(const api::TopologySpreadConstraint& c)
{
    DataValue m = DataValue::map();
    m.set("maxSkew", int64_t(c.maxSkew));
    m.set("topologyKey", c.topologyKey);
    m.set("whenUnsatisfiable", c.doNotSchedule ? "DoNotSchedule" : "ScheduleAnyway");
    if (c.labelSelector)
        m.set("labelSelector", labelSelector(*c.labelSelector));
    if (c.minDomains)
        m.set("minDomains", int64_t(*c.minDomains));
    if (!c.honorNodeAffinity)
        m.set("nodeAffinityPolicy", "Ignore");
    if (c.honorNodeTaints)
        m.set("nodeTaintsPolicy", "Honor");
    put(m, "matchLabelKeys", strings(c.matchLabelKeys));
    return m;
}

DataValue toleration(const api::Toleration& t)
{
    DataValue m = DataValue::map();
    put(m, "key", t.key);
    put(m, "operator", t.op);
    put(m, "value", t.value);
    put(m, "effect", t.effect);
    if (t.tolerationSeconds)
        m.set("tolerationSeconds", *t.tolerationSeconds);
    return m;
}

DataValue deviceToleration(const api::DeviceToleration& t)
{
    DataValue m = DataValue::map();
    put(m, "key", t.key);
    put(m, "operator", t.op);
    put(m, "value", t.value);
    put(m, "effect", t.effect);
    if (t.tolerationSeconds)
        m.set("tolerationSeconds", *t.tolerationSeconds);
    return m;
}

DataValue nodeAllocatableResources(const std::map<std::string, api::NodeAllocatableResource>& resources)
{
    DataValue out = DataValue::map();
    const auto optional = [](DataValue& m, const char* key, const std::optional<Quantity>& q) {
        if (q)
            m.set(key, q->toString());
    };
    for (const auto& [name, r] : resources) {
        DataValue e = DataValue::map();
        if (const auto& mp = r.mapping) {
            DataValue mm = DataValue::map();
            if (mp->capacityKey)
                mm.set("capacityKey", *mp->capacityKey);
            optional(mm, "capacityMultiplier", mp->capacityMultiplier);
            optional(mm, "deviceMultiplier", mp->deviceMultiplier);
            e.set("mapping", std::move(mm));
        }
        if (const auto& o = r.overhead) {
            DataValue om = DataValue::map();
            optional(om, "perContainer", o->perContainer);
            optional(om, "perPod", o->perPod);
            e.set("overhead", std::move(om));
        }
        out.set(name, std::move(e));
    }
    return out;
}

DataValue nodeAllocatableClaimStatus(const api::NodeAllocatableResourceClaimStatus& st)
{
    DataValue m = DataValue::map();
    put(m, "containers", strings(st.containers));
    put(m, "mapping", listOf(st.mapping, [](const api::NodeAllocatableMappedResource& r) {
        DataValue rm = DataValue::map();
        rm.set("name", r.name);
        rm.set("quantity", r.quantity.toString());
        return rm;
    }));
    put(m, "overhead", listOf(st.overhead, [](const api::NodeAllocatableOverheadResource& r) {
        DataValue rm = DataValue::map();
        rm.set("name", r.name);
        if (r.perContainer)
            rm.set("perContainer", r.perContainer->toString());
        if (r.perPod)
            rm.set("perPod", r.perPod->toString());
        return rm;
    }));
    m.set("resourceClaimName", st.resourceClaimName);
    return m;
}

DataValue container(const api::Container& c)
{
    DataValue m = DataValue::map();
    put(m, "name", c.name);
    put(m, "image", c.image);
    DataValue res = DataValue::map();
    put(res, "limits", quantityMap(c.resources.limits));
    put(res, "requests", quantityMap(c.resources.requests));
    List claims;
    for (size_t i = 0; i < c.resources.claims.size(); ++i) {
        DataValue cl = DataValue::map();
        cl.set("name", c.resources.claims[i]);
        if (i < c.resources.claimRequests.size())
            put(cl, "request", c.resources.claimRequests[i]);
        claims.push_back(std::move(cl));
    }
    put(res, "claims", DataValue(std::move(claims)));
    put(m, "resources", std::move(res));
    if (c.restartPolicy)
        m.set("restartPolicy", *c.restartPolicy);
    return m;
}

DataValue podSpec(const api::PodSpec& s)
{
    DataValue m = DataValue::map();
    put(m, "initContainers", listOf(s.initContainers, container));
    putAlways(m, "containers", listOf(s.containers, container));
    if (s.terminationGracePeriodSeconds)
        m.set("terminationGracePeriodSeconds", *s.terminationGracePeriodSeconds);
    put(m, "nodeSelector", stringMap(s.nodeSelector));
    put(m, "nodeName", s.nodeName);
    DataValue affinity = DataValue::map();
    if (s.nodeAffinity) {
        DataValue na = DataValue::map();
        if (s.nodeAffinity->required)
            na.set("requiredDuringSchedulingIgnoredDuringExecution", nodeSelector(*s.nodeAffinity->required));
        put(na, "preferredDuringSchedulingIgnoredDuringExecution",
            listOf(s.nodeAffinity->preferred, [](const api::PreferredSchedulingTerm& t) {
                DataValue p = DataValue::map();
                p.set("weight", int64_t(t.weight));
                p.set("preference", term(t.preference));
                return p;
            }));
        put(affinity, "nodeAffinity", std::move(na));
    }
    if (s.podAffinity)
        affinity.set("podAffinity", podAffinityRules(*s.podAffinity));
    if (s.podAntiAffinity)
        affinity.set("podAntiAffinity", podAffinityRules(*s.podAntiAffinity));
    put(m, "affinity", std::move(affinity));
    put(m, "topologySpreadConstraints", listOf(s.topologySpreadConstraints, spreadConstraint));
    put(m, "schedulerName", s.schedulerName);
    put(m, "tolerations", listOf(s.tolerations, toleration));
    put(m, "priorityClassName", s.priorityClassName);
    if (s.priority)
        m.set("priority", int64_t(*s.priority));
    put(m, "preemptionPolicy", api::preemptionPolicyName(s.preemptionPolicy));
    put(m, "overhead", quantityMap(s.overhead));
    if (s.resources) {
        DataValue res = DataValue::map();
        put(res, "limits", quantityMap(s.resources->limits));
        put(res, "requests", quantityMap(s.resources->requests));
        m.set("resources", std::move(res));
    }
    put(m, "resourceClaims", listOf(s.resourceClaims, [](const api::PodResourceClaim& c) {
        DataValue r = DataValue::map();
        r.set("name", c.name);
        if (c.resourceClaimName)
            r.set("resourceClaimName", *c.resourceClaimName);
        if (c.resourceClaimTemplateName)
            r.set("resourceClaimTemplateName", *c.resourceClaimTemplateName);
        return r;
    }));
    if (s.workloadRef) {
        DataValue ref = DataValue::map();
        ref.set("name", s.workloadRef->name);
        ref.set("podGroup", s.workloadRef->podGroup);
        put(ref, "podGroupReplicaKey", s.workloadRef->podGroupReplicaKey);
        m.set("workloadRef", std::move(ref));
    }
    if (s.schedulingGroup) {
        DataValue group = DataValue::map();
        group.set("podGroupName", *s.schedulingGroup);
        m.set("schedulingGroup", std::move(group));
    }
    return m;
}

DataValue podTemplate(const api::PodTemplateSpec& t)
{
    DataValue m = DataValue::map();
    DataValue meta = DataValue::map();
    put(meta, "labels", stringMap(t.meta.labels));
    put(meta, "annotations", stringMap(t.meta.annotations));
    put(m, "metadata", std::move(meta));
    m.set("spec", podSpec(t.spec));
    return m;
}

DataValue attribute(const api::DeviceAttribute& a)
{
    DataValue m = DataValue::map();
    switch (a.type) {
    case api::DeviceAttribute::Type::Int:
        m.set("int", a.intValue);
        break;
    case api::DeviceAttribute::Type::Bool:
        m.set("bool", a.boolValue);
        break;
    case api::DeviceAttribute::Type::String:
        m.set("string", a.stringValue);
        break;
    case api::DeviceAttribute::Type::Version:
        m.set("version", a.stringValue);
        break;
    }
    return m;
}

DataValue capacity(const api::DeviceCapacity& c)
{
    DataValue m = DataValue::map();
    m.set("value", c.value.toString());
    if (c.requestPolicy) {
        const auto& p = *c.requestPolicy;
        DataValue pm = DataValue::map();
        if (p.defaultValue)
            pm.set("default", p.defaultValue->toString());
        put(pm, "validValues",
            listOf(p.validValues, [](const Quantity& q) { return DataValue(q.toString()); }));
        if (p.validRange) {
            DataValue r = DataValue::map();
            r.set("min", p.validRange->min.toString());
            if (p.validRange->max)
                r.set("max", p.validRange->max->toString());
            if (p.validRange->step)
                r.set("step", p.validRange->step->toString());
            pm.set("validRange", std::move(r));
        }
        m.set("requestPolicy", std::move(pm));
    }
    return m;
}

DataValue counters(const std::map<std::string, Quantity>& c)
{
    DataValue m = DataValue::map();
    for (const auto& [k, v] : c) {
        DataValue value = DataValue::map();
        value.set("value", v.toString());
        m.set(k, std::move(value));
    }
    return m;
}

DataValue device(const api::Device& d)
{
    DataValue m = DataValue::map();
    m.set("name", d.name);
    DataValue attrs = DataValue::map();
    for (const auto& [k, v] : d.attributes)
        attrs.set(k, attribute(v));
    put(m, "attributes", std::move(attrs));
    DataValue caps = DataValue::map();
    for (const auto& [k, v] : d.capacity)
        caps.set(k, capacity(v));
    put(m, "capacity", std::move(caps));
    put(m, "consumesCounters", listOf(d.consumesCounters, [](const api::DeviceCounterConsumption& c) {
        DataValue cm = DataValue::map();
        cm.set("counterSet", c.counterSet);
        cm.set("counters", counters(c.counters));
        put(cm, "compatibilityGroups", strings(c.compatibilityGroups));
        return cm;
    }));
    if (d.nodeName)
        m.set("nodeName", *d.nodeName);
    if (d.nodeSelector)
        m.set("nodeSelector", nodeSelector(*d.nodeSelector));
    if (d.allNodes)
        m.set("allNodes", *d.allNodes);
    // Taints merged in from DeviceTaintRules belong to the scheduler's view, not to the slice.
    std::vector<api::DeviceTaint> own;
    std::copy_if(d.taints.begin(), d.taints.end(), std::back_inserter(own),
        [](const api::DeviceTaint& t) { return t.rule.empty(); });
    put(m, "taints", listOf(own, deviceTaint));
    if (d.bindsToNode)
        m.set("bindsToNode", *d.bindsToNode);
    put(m, "bindingConditions", strings(d.bindingConditions));
    put(m, "bindingFailureConditions", strings(d.bindingFailureConditions));
    if (d.allowMultipleAllocations)
        m.set("allowMultipleAllocations", *d.allowMultipleAllocations);
    if (!d.nodeAllocatableResources.empty())
        m.set("nodeAllocatableResources", nodeAllocatableResources(d.nodeAllocatableResources));
    return m;
}

DataValue selectors(const std::vector<api::DeviceSelector>& s)
{
    return listOf(s, [](const api::DeviceSelector& sel) {
        DataValue cel = DataValue::map();
        cel.set("expression", sel.expression);
        DataValue m = DataValue::map();
        m.set("cel", std::move(cel));
        return m;
    });
}

DataValue opaque(const api::OpaqueDeviceConfiguration& o)
{
    DataValue m = DataValue::map();
    m.set("driver", o.driver);
    m.set("parameters", o.parameters);
    return m;
}

DataValue requestSpec(const api::DeviceRequestSpec& s, bool withAdminAccess)
{
    DataValue m = DataValue::map();
    m.set("deviceClassName", s.deviceClassName);
    put(m, "selectors", selectors(s.selectors));
    m.set("allocationMode", s.allocationMode);
    if (s.allocationMode == "ExactCount")
        m.set("count", s.count);
    if (withAdminAccess && s.adminAccess)
        m.set("adminAccess", *s.adminAccess);
    put(m, "tolerations", listOf(s.tolerations, deviceToleration));
    if (s.capacity) {
        DataValue c = DataValue::map();
        put(c, "requests", quantityMap(s.capacity->requests));
        m.set("capacity", std::move(c));
    }
    put(m, "derivedAttributes", listOf(s.derivedAttributes, [](const api::DeviceDerivedAttribute& a) {
        DataValue d = DataValue::map();
        d.set("name", a.name);
        d.set("expression", a.expression);
        return d;
    }));
    return m;
}

DataValue claimSpec(const api::ResourceClaimSpec& s)
{
    DataValue devices = DataValue::map();
    put(devices, "requests", listOf(s.requests, [](const api::DeviceRequest& r) {
        DataValue m = DataValue::map();
        m.set("name", r.name);
        if (r.exactly)
            m.set("exactly", requestSpec(*r.exactly, true));
        put(m, "firstAvailable", listOf(r.firstAvailable, [](const api::DeviceSubRequest& sub) {
            DataValue sm = DataValue::map();
            sm.set("name", sub.name);
            const DataValue spec = requestSpec(sub.spec, false);
            for (const auto& [k, v] : spec.asMap())
                sm.set(k, v);
            return sm;
        }));
        return m;
    }));
    put(devices, "constraints", listOf(s.constraints, [](const api::DeviceConstraint& c) {
        DataValue m = DataValue::map();
        put(m, "requests", strings(c.requests));
        if (c.matchAttribute)
            m.set("matchAttribute", *c.matchAttribute);
        if (c.distinctAttribute)
            m.set("distinctAttribute", *c.distinctAttribute);
        return m;
    }));
    put(devices, "config", listOf(s.config, [](const api::DeviceClaimConfiguration& c) {
        DataValue m = DataValue::map();
        put(m, "requests", strings(c.requests));
        m.set("opaque", opaque(c.opaque));
        return m;
    }));
    DataValue m = DataValue::map();
    m.set("devices", std::move(devices));
    return m;
}

/// {basic: {}} or {gang: {<count>: n}} (`count` is minCount, or minGroupCount of a composite).
DataValue schedulingPolicy(const api::GroupSchedulingPolicy& p, const char* count)
{
    DataValue m = DataValue::map();
    DataValue member = DataValue::map();
    if (p.gang)
        member.set(count, int64_t(p.minCount));
    m.set(p.gang ? "gang" : "basic", std::move(member));
    return m;
}

DataValue groupClaim(const api::PodGroupResourceClaim& c)
{
    DataValue r = DataValue::map();
    r.set("name", c.name);
    if (c.resourceClaimName)
        r.set("resourceClaimName", *c.resourceClaimName);
    if (c.resourceClaimTemplateName)
        r.set("resourceClaimTemplateName", *c.resourceClaimTemplateName);
    return r;
}

DataValue topology(const std::vector<std::string>& keys)
{
    DataValue constraints = DataValue::map();
    put(constraints, "topology", listOf(keys, [](const std::string& key) {
        DataValue t = DataValue::map();
        t.set("key", key);
        return t;
    }));
    return constraints;
}

/// disruptionMode as the version spells it: "Pod"/"PodGroup" in v1alpha2, {single: {}}/{all: {}}
/// from v1beta1 on.
DataValue disruptionMode(api::DisruptionMode mode, api::SchedulingVersion v)
{
    if (mode == api::DisruptionMode::Unset)
        return DataValue();
    if (v == api::SchedulingVersion::V1alpha2)
        return DataValue(mode == api::DisruptionMode::Single ? "Pod" : "PodGroup");
    DataValue m = DataValue::map();
    m.set(mode == api::DisruptionMode::Single ? "single" : "all", DataValue::map());
    return m;
}

/// The policy fields into `m`, in the order of the types (v1beta1 PodGroupTemplate).
void putGroupPolicy(DataValue& m, const api::GroupPolicy& p, api::SchedulingVersion v, bool composite)
{
    const bool alpha1 = v == api::SchedulingVersion::V1alpha1;
    m.set(alpha1 ? "policy" : "schedulingPolicy",
        schedulingPolicy(p.scheduling, composite ? "minGroupCount" : "minCount"));
    if (alpha1)
        return;
    put(m, "schedulingConstraints", topology(p.topologyKeys));
    put(m, "resourceClaims", listOf(p.resourceClaims, groupClaim));
    put(m, "disruptionMode", disruptionMode(p.disruptionMode, v));
    put(m, "priorityClassName", p.priorityClassName);
    if (p.priority)
        m.set("priority", int64_t(*p.priority));
    put(m, "preemptionPolicy", api::preemptionPolicyName(p.preemptionPolicy));
}

DataValue podGroupTemplate(const api::PodGroupTemplate& t, api::SchedulingVersion v)
{
    DataValue m = DataValue::map();
    m.set("name", t.name);
    putGroupPolicy(m, t.policy, v, false);
    return m;
}

DataValue compositeTemplate(const api::CompositePodGroupTemplate& t, api::SchedulingVersion v)
{
    DataValue m = DataValue::map();
    m.set("name", t.name);
    putGroupPolicy(m, t.policy, v, true);
    put(m, "podGroupTemplates",
        listOf(t.podGroupTemplates, [v](const api::PodGroupTemplate& c) { return podGroupTemplate(c, v); }));
    put(m, "compositePodGroupTemplates",
        listOf(t.compositePodGroupTemplates, [v](const auto& c) { return compositeTemplate(c, v); }));
    return m;
}

/// The template reference of a PodGroup or CompositePodGroup as its version spells it.
void putWorkloadRef(
    DataValue& spec, const std::optional<api::WorkloadTemplateRef>& ref, api::SchedulingVersion v)
{
    if (!ref)
        return;
    DataValue r = DataValue::map();
    r.set("workloadName", ref->workloadName);
    if (v == api::SchedulingVersion::V1alpha2) {
        r.set("podGroupTemplateName", ref->templateName);
        DataValue outer = DataValue::map();
        outer.set("workload", std::move(r));
        spec.set("podGroupTemplateRef", std::move(outer));
        return;
    }
    r.set("templateName", ref->templateName);
    spec.set("workloadRef", std::move(r));
}

DataValue groupConditions(const std::vector<api::GroupCondition>& conditions)
{
    DataValue status = DataValue::map();
    put(status, "conditions", listOf(conditions, [](const api::GroupCondition& c) {
        DataValue cm = DataValue::map();
        cm.set("type", c.type);
        cm.set("status", c.status);
        put(cm, "reason", c.reason);
        put(cm, "message", c.message);
        return cm;
    }));
    return status;
}

template <class Group> DataValue groupData(const Group& g, const char* kind, bool composite)
{
    DataValue m = object(api::schedulingApiVersion(g.apiVersion), kind, g.meta);
    DataValue spec = DataValue::map();
    putWorkloadRef(spec, g.workloadRef, g.apiVersion);
    put(spec, "parentCompositePodGroupName", g.parentCompositePodGroupName);
    putGroupPolicy(spec, g.policy, g.apiVersion, composite);
    m.set("spec", std::move(spec));
    DataValue status = groupConditions(g.conditions);
    if constexpr (std::is_same_v<Group, api::PodGroup>)
        put(status, "resourceClaimStatuses",
            listOf(g.resourceClaimStatuses, [](const api::PodGroupResourceClaimStatus& s) {
                DataValue sm = DataValue::map();
                sm.set("name", s.name);
                if (s.resourceClaimName)
                    sm.set("resourceClaimName", *s.resourceClaimName);
                return sm;
            }));
    put(m, "status", std::move(status));
    return m;
}

DataValue jobScheduling(const api::JobSchedulingConfiguration& s)
{
    DataValue m = DataValue::map();
    DataValue member = DataValue::map();
    if (s.gang && s.minCount)
        member.set("minCount", int64_t(*s.minCount));
    DataValue policy = DataValue::map();
    policy.set(s.gang ? "gang" : "basic", std::move(member));
    m.set("schedulingPolicy", std::move(policy));
    put(m, "schedulingConstraints", topology(s.topologyKeys));
    put(m, "disruptionMode", disruptionMode(s.disruptionMode, api::SchedulingVersion::V1beta1));
    put(m, "resourceClaims", listOf(s.resourceClaims, groupClaim));
    return m;
}

DataValue podFailureRule(const api::PodFailurePolicyRule& rule)
{
    DataValue m = DataValue::map();
    m.set("action", rule.action);
    if (const auto& e = rule.onExitCodes) {
        DataValue codes = DataValue::map();
        if (e->containerName)
            codes.set("containerName", *e->containerName);
        codes.set("operator", e->operator_);
        codes.set("values", listOf(e->values, [](int32_t v) { return DataValue(int64_t(v)); }));
        m.set("onExitCodes", std::move(codes));
    }
    put(m, "onPodConditions",
        listOf(rule.onPodConditions, [](const api::PodFailurePolicyOnPodConditionsPattern& c) {
            DataValue cm = DataValue::map();
            cm.set("type", c.type);
            cm.set("status", c.status);
            return cm;
        }));
    return m;
}

} // namespace

DataValue toData(const api::Workload& w)
{
    DataValue m = object(api::schedulingApiVersion(w.apiVersion), "Workload", w.meta);
    DataValue spec = DataValue::map();
    if (w.controllerRef) {
        DataValue ref = DataValue::map();
        put(ref, "apiGroup", w.controllerRef->apiGroup);
        ref.set("kind", w.controllerRef->kind);
        ref.set("name", w.controllerRef->name);
        spec.set("controllerRef", std::move(ref));
    }
    const api::SchedulingVersion v = w.apiVersion;
    put(spec, v == api::SchedulingVersion::V1alpha1 ? "podGroups" : "podGroupTemplates",
        listOf(w.podGroupTemplates, [v](const api::PodGroupTemplate& t) { return podGroupTemplate(t, v); }));
    put(spec, "compositePodGroupTemplates",
        listOf(w.compositePodGroupTemplates, [v](const auto& t) { return compositeTemplate(t, v); }));
    m.set("spec", std::move(spec));
    return m;
}

DataValue toData(const api::PodGroup& g)
{
    return groupData(g, "PodGroup", false);
}

DataValue toData(const api::CompositePodGroup& g)
{
    return groupData(g, "CompositePodGroup", true);
}

DataValue toData(const api::PriorityClass& pc)
{
    DataValue m = object("scheduling.k8s.io/v1", "PriorityClass", pc.meta);
    m.set("value", int64_t(pc.value));
    if (pc.globalDefault)
        m.set("globalDefault", true);
    put(m, "description", pc.description);
    m.set("preemptionPolicy", pc.preemptionPolicy);
    return m;
}

DataValue toData(const api::PodDisruptionBudget& pdb)
{
    DataValue m = object("policy/v1", "PodDisruptionBudget", pdb.meta);
    DataValue spec = DataValue::map();
    if (pdb.minAvailable)
        spec.set("minAvailable", intOrString(*pdb.minAvailable));
    if (pdb.selector)
        spec.set("selector", labelSelector(*pdb.selector));
    if (pdb.maxUnavailable)
        spec.set("maxUnavailable", intOrString(*pdb.maxUnavailable));
    put(spec, "unhealthyPodEvictionPolicy", pdb.unhealthyPodEvictionPolicy);
    m.set("spec", std::move(spec));
    if (const auto& st = pdb.status) {
        DataValue status = DataValue::map();
        put(status, "disruptedPods", stringMap(st->disruptedPods));
        status.set("disruptionsAllowed", int64_t(st->disruptionsAllowed));
        status.set("currentHealthy", int64_t(st->currentHealthy));
        status.set("desiredHealthy", int64_t(st->desiredHealthy));
        status.set("expectedPods", int64_t(st->expectedPods));
        m.set("status", std::move(status));
    }
    return m;
}

DataValue toData(const api::ObjectMeta& meta)
{
    DataValue m = DataValue::map();
    m.set("name", meta.name);
    put(m, "generateName", meta.generateName);
    put(m, "namespace", meta.namespace_);
    put(m, "uid", meta.uid);
    put(m, "labels", stringMap(meta.labels));
    put(m, "annotations", stringMap(meta.annotations));
    put(m, "ownerReferences", listOf(meta.ownerReferences, [](const api::OwnerReference& r) {
        DataValue o = DataValue::map();
        o.set("apiVersion", r.apiVersion);
        o.set("kind", r.kind);
        o.set("name", r.name);
        o.set("uid", r.uid);
        if (r.controller)
            o.set("controller", true);
        return o;
    }));
    put(m, "finalizers", strings(meta.finalizers));
    return m;
}

DataValue toData(const api::DeviceTaintRule& rule)
{
    DataValue m = object("resource.k8s.io/v1beta2", "DeviceTaintRule", rule.meta);
    DataValue spec = DataValue::map();
    if (rule.deviceSelector) {
        DataValue sel = DataValue::map();
        if (rule.deviceSelector->driver)
            sel.set("driver", *rule.deviceSelector->driver);
        if (rule.deviceSelector->pool)
            sel.set("pool", *rule.deviceSelector->pool);
        if (rule.deviceSelector->device)
            sel.set("device", *rule.deviceSelector->device);
        spec.set("deviceSelector", std::move(sel));
    }
    spec.set("taint", deviceTaint(rule.taint));
    m.set("spec", std::move(spec));
    return m;
}

DataValue toData(const api::Namespace& ns)
{
    return object("v1", "Namespace", ns.meta);
}

DataValue toData(const api::Service& svc)
{
    DataValue m = object("v1", "Service", svc.meta);
    DataValue spec = DataValue::map();
    put(spec, "selector", stringMap(svc.selector));
    put(m, "spec", std::move(spec));
    return m;
}

DataValue toData(const api::Node& node)
{
    DataValue m = object("v1", "Node", node.meta);
    DataValue spec = DataValue::map();
    put(spec, "taints", listOf(node.taints, [](const api::Taint& t) {
        DataValue tm = DataValue::map();
        tm.set("key", t.key);
        put(tm, "value", t.value);
        tm.set("effect", t.effect);
        put(tm, "timeAdded", t.timeAdded);
        return tm;
    }));
    if (node.unschedulable)
        spec.set("unschedulable", true);
    put(m, "spec", std::move(spec));
    DataValue status = DataValue::map();
    put(status, "capacity", quantityMap(node.capacity));
    put(status, "allocatable", quantityMap(node.allocatable));
    put(m, "status", std::move(status));
    return m;
}

DataValue toData(const api::Pod& pod)
{
    DataValue m = object("v1", "Pod", pod.meta);
    m.set("spec", podSpec(pod.spec));
    DataValue status = DataValue::map();
    put(status, "phase", pod.phase);
    put(status, "conditions", listOf(pod.conditions, [](const api::PodCondition& c) {
        DataValue cm = DataValue::map();
        cm.set("type", c.type);
        cm.set("status", c.status);
        put(cm, "reason", c.reason);
        put(cm, "message", c.message);
        return cm;
    }));
    put(status, "nominatedNodeName", pod.nominatedNodeName);
    if (pod.startTime)
        status.set("startTime", pod.startTime->text);
    put(status, "resourceClaimStatuses",
        listOf(pod.resourceClaimStatuses, [](const api::PodResourceClaimStatus& s) {
            DataValue sm = DataValue::map();
            sm.set("name", s.name);
            if (s.resourceClaimName)
                sm.set("resourceClaimName", *s.resourceClaimName);
            return sm;
        }));
    if (const auto& e = pod.extendedResourceClaimStatus) {
        DataValue em = DataValue::map();
        em.set(
            "requestMappings", listOf(e->requestMappings, [](const api::ContainerExtendedResourceRequest& r) {
                DataValue rm = DataValue::map();
                rm.set("containerName", r.containerName);
                rm.set("resourceName", r.resourceName);
                rm.set("requestName", r.requestName);
                return rm;
            }));
        em.set("resourceClaimName", e->resourceClaimName);
        status.set("extendedResourceClaimStatus", std::move(em));
    }
    put(status, "nodeAllocatableResourceClaimStatuses",
        listOf(pod.nodeAllocatableResourceClaimStatuses, nodeAllocatableClaimStatus));
    put(m, "status", std::move(status));
    return m;
}

DataValue toData(const api::PodController& w)
{
    using K = api::PodController::Kind;
    DataValue m
        = object(w.kind == K::Job ? "batch/v1" : "apps/v1", api::podControllerKindName(w.kind), w.meta);
    DataValue spec = DataValue::map();
    if (w.kind == K::Job) {
        spec.set("parallelism", int64_t(w.parallelism));
        spec.set("completions", int64_t(w.completions));
        spec.set("backoffLimit", int64_t(w.backoffLimit));
        if (w.indexed)
            spec.set("completionMode", "Indexed");
        if (w.scheduling)
            spec.set("scheduling", jobScheduling(*w.scheduling));
        if (w.podFailurePolicy) {
            DataValue policy = DataValue::map();
            policy.set("rules", listOf(w.podFailurePolicy->rules, podFailureRule));
            spec.set("podFailurePolicy", std::move(policy));
        }
        put(spec, "podReplacementPolicy", w.podReplacementPolicy);
    } else {
        spec.set("replicas", int64_t(w.replicas));
        if (!w.podTemplate.meta.labels.empty()) {
            DataValue sel = DataValue::map();
            sel.set("matchLabels", stringMap(w.podTemplate.meta.labels));
            spec.set("selector", std::move(sel));
        }
    }
    spec.set("template", podTemplate(w.podTemplate));
    m.set("spec", std::move(spec));
    return m;
}

DataValue toData(const api::ResourceSlice& s)
{
    DataValue m = object("resource.k8s.io/v1", "ResourceSlice", s.meta);
    DataValue spec = DataValue::map();
    spec.set("driver", s.driver);
    DataValue pool = DataValue::map();
    pool.set("name", s.pool.name);
    pool.set("generation", s.pool.generation);
    pool.set("resourceSliceCount", s.pool.resourceSliceCount);
    spec.set("pool", std::move(pool));
    if (s.nodeName)
        spec.set("nodeName", *s.nodeName);
    if (s.nodeSelector)
        spec.set("nodeSelector", nodeSelector(*s.nodeSelector));
    if (s.allNodes)
        spec.set("allNodes", *s.allNodes);
    put(spec, "devices", listOf(s.devices, device));
    if (s.perDeviceNodeSelection)
        spec.set("perDeviceNodeSelection", *s.perDeviceNodeSelection);
    put(spec, "skipNodeOperations", strings(s.skipNodeOperations));
    put(spec, "sharedCounters", listOf(s.sharedCounters, [](const api::CounterSet& c) {
        DataValue cm = DataValue::map();
        cm.set("name", c.name);
        cm.set("counters", counters(c.counters));
        return cm;
    }));
    m.set("spec", std::move(spec));
    return m;
}

DataValue toData(const api::DeviceClass& c)
{
    DataValue m = object("resource.k8s.io/v1", "DeviceClass", c.meta);
    DataValue spec = DataValue::map();
    put(spec, "selectors", selectors(c.selectors));
    put(spec, "config", listOf(c.config, [](const api::OpaqueDeviceConfiguration& o) {
        DataValue cm = DataValue::map();
        cm.set("opaque", opaque(o));
        return cm;
    }));
    if (c.extendedResourceName)
        spec.set("extendedResourceName", *c.extendedResourceName);
    m.set("spec", std::move(spec));
    return m;
}

DataValue toData(const api::ResourceClaim& c)
{
    DataValue meta = toData(c.meta);
    DataValue m = DataValue::map();
    m.set("apiVersion", "resource.k8s.io/v1");
    m.set("kind", "ResourceClaim");
    if (c.deleting)
        meta.set("deletionTimestamp", "1970-01-01T00:00:00Z"); // the simulator only tracks that it is set
    m.set("metadata", std::move(meta));
    m.set("spec", claimSpec(c.spec));
    DataValue status = DataValue::map();
    if (c.allocation) {
        const auto& a = *c.allocation;
        DataValue alloc = DataValue::map();
        DataValue devices = DataValue::map();
        put(devices, "results", listOf(a.results, [](const api::DeviceRequestAllocationResult& r) {
            DataValue rm = DataValue::map();
            rm.set("request", r.request);
            rm.set("driver", r.driver);
            rm.set("pool", r.pool);
            rm.set("device", r.device);
            if (r.adminAccess)
                rm.set("adminAccess", *r.adminAccess);
            put(rm, "tolerations", listOf(r.tolerations, deviceToleration));
            put(rm, "bindingConditions", strings(r.bindingConditions));
            put(rm, "bindingFailureConditions", strings(r.bindingFailureConditions));
            if (r.shareID)
                rm.set("shareID", *r.shareID);
            put(rm, "consumedCapacity", quantityMap(r.consumedCapacity));
            put(rm, "skipNodeOperations", strings(r.skipNodeOperations));
            return rm;
        }));
        put(devices, "config", listOf(a.config, [](const api::DeviceAllocationConfiguration& cfg) {
            DataValue cm = DataValue::map();
            cm.set("source", cfg.source);
            put(cm, "requests", strings(cfg.requests));
            cm.set("opaque", opaque(cfg.opaque));
            return cm;
        }));
        put(alloc, "devices", std::move(devices));
        if (a.nodeSelector)
            alloc.set("nodeSelector", nodeSelector(*a.nodeSelector));
        put(alloc, "allocationTimestamp", a.allocationTimestamp);
        status.set("allocation", std::move(alloc));
    }
    put(status, "reservedFor", listOf(c.reservedFor, [](const api::ResourceClaimConsumerReference& r) {
        DataValue rm = DataValue::map();
        put(rm, "apiGroup", r.apiGroup);
        rm.set("resource", r.resource);
        rm.set("name", r.name);
        rm.set("uid", r.uid);
        return rm;
    }));
    put(m, "status", std::move(status));
    return m;
}

DataValue toData(const api::ResourceClaimTemplate& t)
{
    DataValue m = object("resource.k8s.io/v1", "ResourceClaimTemplate", t.meta);
    DataValue spec = DataValue::map();
    DataValue meta = DataValue::map();
    put(meta, "labels", stringMap(t.claimMeta.labels));
    put(meta, "annotations", stringMap(t.claimMeta.annotations));
    put(spec, "metadata", std::move(meta));
    spec.set("spec", claimSpec(t.spec));
    m.set("spec", std::move(spec));
    return m;
}

DataValue toListData(const api::ObjectSet& o)
{
    List items;
    items.reserve(o.size());
    for (const auto& x : o.namespaces)
        items.push_back(toData(x));
    for (const auto& x : o.nodes)
        items.push_back(toData(x));
    for (const auto& x : o.deviceClasses)
        items.push_back(toData(x));
    for (const auto& x : o.resourceSlices)
        items.push_back(toData(x));
    for (const auto& x : o.resourceClaimTemplates)
        items.push_back(toData(x));
    for (const auto& x : o.resourceClaims)
        items.push_back(toData(x));
    for (const auto& x : o.deviceTaintRules)
        items.push_back(toData(x));
    // Scheduling objects before the pods that name them, parents before children.
    for (const auto& x : o.priorityClasses)
        items.push_back(toData(x));
    for (const auto& x : o.workloads)
        items.push_back(toData(x));
    for (const auto& x : o.compositePodGroups)
        items.push_back(toData(x));
    for (const auto& x : o.podGroups)
        items.push_back(toData(x));
    for (const auto& x : o.controllers)
        items.push_back(toData(x));
    for (const auto& x : o.podDisruptionBudgets)
        items.push_back(toData(x));
    for (const auto& x : o.services)
        items.push_back(toData(x));
    for (const auto& x : o.pods)
        items.push_back(toData(x));
    DataValue m = DataValue::map();
    m.set("apiVersion", "v1");
    m.set("kind", "List");
    m.set("items", DataValue(std::move(items)));
    return m;
}

std::string toYamlList(const api::ObjectSet& objects)
{
    return toYaml(toListData(objects));
}

std::string toJsonList(const api::ObjectSet& objects)
{
    return toJson(toListData(objects));
}

} // namespace drasim::yamlio

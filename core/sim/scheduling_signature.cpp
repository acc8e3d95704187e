// SPDX-License-Identifier: Apache-2.0
#include "core/sim/scheduling_signature.h"

#include <cctype>
#include <cstdlib>

#include "core/api/key_text.h"

namespace drasim::sim {

namespace {

void put(std::string& out, const std::string& s)
{
    api::appendKeyField(out, s);
}

void putRequirements(std::string& out, const std::vector<api::NodeSelectorRequirement>& reqs)
{
    api::appendKeyRequirements(out, reqs);
}

void putResources(std::string& out, const api::ResourceList& list)
{
    for (const auto& [name, q] : list) {
        put(out, name);
        put(out, q.toString());
    }
    out += '|';
}

void putSelector(std::string& out, const std::optional<api::LabelSelector>& s)
{
    if (!s) {
        out += '-';
        return;
    }
    for (const auto& [k, v] : s->matchLabels) {
        put(out, k);
        put(out, v);
    }
    out += '/';
    for (const auto& r : s->matchExpressions) {
        put(out, r.key);
        put(out, r.op);
        for (const auto& v : r.values)
            put(out, v);
        out += ';';
    }
}

void putAffinityTerm(std::string& out, const api::PodAffinityTerm& t)
{
    putSelector(out, t.labelSelector);
    putSelector(out, t.namespaceSelector);
    for (const auto* list : { &t.namespaces, &t.matchLabelKeys, &t.mismatchLabelKeys }) {
        for (const auto& v : *list)
            put(out, v);
        out += '|';
    }
    put(out, t.topologyKey);
}

void putAffinityRules(std::string& out, const std::optional<api::PodAffinityRules>& rules)
{
    if (!rules)
        return;
    for (const auto& t : rules->required)
        putAffinityTerm(out, t);
    out += '~';
    for (const auto& w : rules->preferred) {
        put(out, std::to_string(w.weight));
        putAffinityTerm(out, w.term);
    }
}

/// The pod's labels and its topology spread and pod affinity rules.
void putPlacementRules(std::string& out, const api::Pod& pod)
{
    out += "labels";
    for (const auto& [k, v] : pod.meta.labels) {
        put(out, k);
        put(out, v);
    }
    out += "spread";
    for (const auto& c : pod.spec.topologySpreadConstraints) {
        put(out,
            std::to_string(c.maxSkew) + (c.doNotSchedule ? "D" : "S")
                + std::to_string(c.minDomains.value_or(0)) + (c.honorNodeAffinity ? "A" : "a")
                + (c.honorNodeTaints ? "T" : "t"));
        put(out, c.topologyKey);
        putSelector(out, c.labelSelector);
        for (const auto& k : c.matchLabelKeys)
            put(out, k);
    }
    out += "podaff";
    putAffinityRules(out, pod.spec.podAffinity);
    out += "podanti";
    putAffinityRules(out, pod.spec.podAntiAffinity);
}

} // namespace

bool hasPodPlacementRules(const api::PodSpec& spec)
{
    return !spec.topologySpreadConstraints.empty() || (spec.podAffinity && !spec.podAffinity->empty())
        || (spec.podAntiAffinity && !spec.podAntiAffinity->empty());
}

std::string schedulingSignature(const api::Pod& pod, bool labelsMatter)
{
    std::string out;
    const api::PodSpec& spec = pod.spec;
    put(out, pod.meta.namespace_);
    put(out, spec.schedulerName);
    out += "claims";
    for (const auto& c : spec.resourceClaims) {
        put(out, c.name);
        put(out, c.resourceClaimName.value_or(""));
        put(out, c.resourceClaimTemplateName.value_or(""));
    }
    out += "sel";
    for (const auto& [k, v] : spec.nodeSelector) {
        put(out, k);
        put(out, v);
    }
    out += "aff";
    if (spec.nodeAffinity && spec.nodeAffinity->required) {
        for (const auto& term : spec.nodeAffinity->required->terms) {
            putRequirements(out, term.matchExpressions);
            putRequirements(out, term.matchFields);
            out += '/';
        }
    }
    out += "tol";
    api::appendKeyTolerations(out, spec.tolerations);
    out += "res";
    putResources(out, spec.overhead);
    for (const auto* list : { &spec.initContainers, &spec.containers }) {
        for (const auto& c : *list) {
            putResources(out, c.resources.requests);
            putResources(out, c.resources.limits);
            for (const auto& claim : c.resources.claims)
                put(out, claim);
            out += '#';
        }
        out += '@';
    }
    // Priority decides whether a pod that fits nowhere can preempt, so pods of different
    // priorities are not interchangeable once preemption is modelled.
    out += "prio";
    put(out, std::to_string(spec.priority.value_or(0)));
    if (labelsMatter || hasPodPlacementRules(spec))
        putPlacementRules(out, pod);
    return out;
}

std::string groupSchedulingSignature(
    const GroupPolicy& group, const std::vector<api::Pod>& pods, bool labelsMatter)
{
    std::string out = "group";
    out += group.gang ? 'g' : 'b';
    out += group.topologyAware ? 't' : '-';
    out += group.workloadAwarePreemption ? 'w' : '-';
    out += group.disruptAll ? 'a' : '-';
    out += group.preemptionNever ? 'n' : '-';
    put(out, std::to_string(group.minCount));
    put(out, std::to_string(group.priority));
    put(out, group.topologyKey);
    // Claims a group shares are its own (generated per PodGroup, or allocated by an earlier cycle
    // of it), so no other group's outcome tells this one's.
    if (!group.resourceClaims.empty())
        put(out, group.key);
    for (const auto& pod : pods) {
        out += "pod";
        put(out, schedulingSignature(pod, labelsMatter));
        put(out, pod.spec.nodeName);
        put(out, std::to_string(int(pod.spec.preemptionPolicy)));
        out += "pref";
        if (pod.spec.nodeAffinity) {
            for (const auto& term : pod.spec.nodeAffinity->preferred) {
                put(out, std::to_string(term.weight));
                putRequirements(out, term.preference.matchExpressions);
                putRequirements(out, term.preference.matchFields);
            }
        }
    }
    return out;
}

std::string primaryReason(const std::string& message)
{
    static const std::string kMarker = " nodes are available: ";
    auto pos = message.find(kMarker);
    if (pos != std::string::npos) {
        std::string rest = message.substr(pos + kMarker.size());
        while (!rest.empty() && (rest.back() == '.' || rest.back() == ' ' || rest.back() == '\n'))
            rest.pop_back();
        std::string best;
        long bestCount = -1;
        size_t start = 0;
        while (start <= rest.size()) {
            size_t end = rest.find(", ", start);
            std::string part = rest.substr(start, end == std::string::npos ? std::string::npos : end - start);
            char* after = nullptr;
            long count = std::strtol(part.c_str(), &after, 10);
            std::string phrase = part;
            if (after != part.c_str() && after && *after == ' ')
                phrase = std::string(after + 1);
            else
                count = 0;
            if (!phrase.empty() && (count > bestCount || (count == bestCount && phrase < best))) {
                best = phrase;
                bestCount = count;
            }
            if (end == std::string::npos)
                break;
            start = end + 2;
        }
        if (!best.empty())
            return best;
    }
    std::string out;
    bool quoted = false;
    for (char ch : message) {
        if (ch == '"') {
            if (!quoted)
                out += "\"*\"";
            quoted = !quoted;
            continue;
        }
        if (!quoted)
            out += ch;
    }
    while (!out.empty() && (out.back() == '.' || out.back() == '\n'))
        out.pop_back();
    return out.empty() ? std::string("unknown") : out;
}

} // namespace drasim::sim
